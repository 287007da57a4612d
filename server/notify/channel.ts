/**
 * The webhook channel of the notices (server/notices/): a turn notice goes to the account's webhook
 * (its settings: one place for every seat), else to the seat's own (registered before it was the
 * account's, or a guest's). Every turn is sent (no hourly bound: a webhook is the player's own machine).
 */
import { setMaxListeners } from 'node:events';
import { roleText } from '../../protocol/index';
import type { Logger } from '../log';
import type { Metrics } from '../metrics';
import type { NoticeChannel, TurnNotice } from '../notices/index';
import type { SeatNotify } from './notifier';
import { sendWebhook, type SendOptions } from './webhook';

export interface WebhookChannelOptions {
  log: Logger;
  metrics?: Metrics;
  send: SendOptions;
  accountNotify?: (accountID: string) => Promise<SeatNotify | null>;
  /** The match's address given the origin a webhook was registered from. */
  link: (matchID: string, base?: string) => string;
}

export function webhookChannel(o: WebhookChannelOptions): NoticeChannel {
  const stop = new AbortController();
  // One listener per notification under way (many at once is normal): no "possible leak" warning.
  setMaxListeners(0, stop.signal);
  return {
    name: 'webhook',
    async turn(n: TurnNotice) {
      const fromAccount = n.accountID && o.accountNotify ? await o.accountNotify(n.accountID) : null;
      const target = fromAccount ?? n.seatNotify;
      if (!target) return;
      const link = o.link(n.matchID, target.base);
      const text =
        n.kind === 'round'
          ? `Watergate: round ${n.round ?? ''} of your tournament has started; your game is match ${n.matchID} (${roleText(n.seat)}). ${link}`
          : n.kind === 'pair'
          ? `Watergate: the second game of your pair has started (the same deal, sides swapped); it is match ${n.matchID} (${roleText(n.seat)}). ${link}`
          : n.kind === 'start'
          ? `Watergate: your opponent has joined match ${n.matchID} and the first decision is yours (${roleText(n.seat)}). ${link}`
          : `Watergate: it is your turn (${roleText(n.seat)}) in match ${n.matchID}. ${link}`;
      const reasons: string[] = [];
      const result = await sendWebhook(target.webhook, text, { ...o.send, signal: stop.signal }, reasons);
      o.metrics?.webhooks.inc({ result });
      // The host only: the path and query of a webhook often hold its secret token.
      const where = { matchID: n.matchID, seat: n.seat, host: new URL(target.webhook).host, attempts: reasons.length + (result === 'sent' ? 1 : 0), reasons };
      if (result === 'sent') o.log.debug(where, 'turn notification sent');
      else o.log.warn({ ...where, result }, 'turn notification not delivered');
    },
    async close() {
      // Stops retries and attempts in flight.
      stop.abort();
    },
  };
}
