/**
 * Turn notifications: when a decision becomes a seat's and none of that seat's sockets is connected,
 * the seat's webhook (`data.notify.webhook`, private to the server: lobby/public.ts) gets a message with
 * the match's link. Sent by the process that saved the move (the `move` reason), so several processes
 * never send the same notification twice; a decision that stays with the same seat (several steps of one
 * turn, a stand-in playing for an absent seat) sends nothing new.
 *
 * The start of a game has no move: the join route of the process that seated the second player calls
 * `joined` (a 'meta' state hook would run in every process holding the match, and in none when no
 * process holds it in memory).
 */
import { setMaxListeners } from 'node:events';
import { botLevelOf, isSeat, openSeat, roleText, seatEntry } from '../../protocol/index';
import type { Logger } from '../log';
import type { MatchService, MatchView } from '../match/service';
import type { Metrics } from '../metrics';
import type { MatchData } from '../storage/types';
import type { NoticeChannel } from './push';
import { sendWebhook, type SendOptions } from './webhook';

/** What a seat registered (see register.ts): the webhook and the origin of the page it registered from. */
export interface SeatNotify {
  webhook: string;
  base?: string;
}

/** The account holding a seat (server-set `data.account`), whose settings say where to notify. */
const accountOf = (data: unknown): string | null => {
  const id = (data as { account?: { id?: unknown } } | undefined)?.account?.id;
  return typeof id === 'string' ? id : null;
};

const notifyOf = (data: unknown): SeatNotify | null => {
  const n = (data as { notify?: Partial<SeatNotify> } | undefined)?.notify;
  return n && typeof n.webhook === 'string' ? (n as SeatNotify) : null;
};

type Seat = '0' | '1';

/** Who owes the next decision: none when nothing is asked or the game is over. */
const deciderOf = (m: Pick<MatchView, 'state'>): Seat | null => {
  if (m.state.ctx.gameover !== undefined) return null;
  const p = m.state.G.prompt?.player;
  return isSeat(p) ? p : null;
};

export interface NotifierOptions {
  service: MatchService;
  log: Logger;
  metrics?: Metrics;
  /** PUBLIC_URL: the address players open; else the page's origin saved at registration, else `listenUrl`. */
  publicUrl?: string;
  listenUrl: () => string;
  /** Timeouts, attempts, backoff; `allowLocal` lets webhooks reach loopback and private addresses (tests). */
  send: SendOptions;
  /** A signed-in player's seat is told at the account's webhook (its settings: one place for every seat). */
  accountNotify?: (accountID: string) => Promise<SeatNotify | null>;
  /** Web push to the account's browsers (push.ts): the same decision, another channel. */
  push?: NoticeChannel;
}

export class TurnNotifier {
  /** The last decider each served match was seen with (any reason), to tell when a decision changes hands. */
  private readonly deciders = new Map<string, Seat | null>();
  private readonly stop = new AbortController();
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(private readonly o: NotifierOptions) {
    // One listener per notification under way (many at once is normal): no "possible leak" warning.
    setMaxListeners(0, this.stop.signal);
    o.service.onState((m) => this.seen(m));
    o.service.onEvict((matchID) => this.deciders.delete(matchID));
  }

  private seen(m: MatchView): void {
    const now = deciderOf(m);
    const before = this.deciders.get(m.matchID);
    this.deciders.set(m.matchID, now);
    if (m.reason === 'move' && now !== null && now !== before) this.notify(m.matchID, m.metadata, now, 'turn');
  }

  /**
   * A seat was taken in this process. If that completed the table, the game starts: its first decider
   * hears of it when absent — unless it is the joiner, who is on the way to the board.
   */
  joined(matchID: string, joiner: string, metadata: MatchData): void {
    if (openSeat(Object.values(metadata.players)) !== null) return;
    // The state (who decides first) is loaded only when there is someone to tell.
    const other = metadata.players[(joiner === '0' ? 1 : 0) as number];
    if (!other || other.isConnected === true || (!notifyOf(other.data) && !accountOf(other.data))) return;
    this.track(
      this.o.service.current(matchID).then((m) => {
        const first = m && deciderOf(m);
        if (first && first !== joiner) this.notify(matchID, m.metadata, first, 'start');
      }),
      matchID,
    );
  }

  private notify(matchID: string, metadata: MatchData, seat: Seat, kind: 'turn' | 'start'): void {
    const p = seatEntry(metadata.players, seat);
    // Nobody to tell when the computer plays the seat: a vs-computer bot, or a stand-in for its owner.
    const played = botLevelOf(p) !== null || metadata.standIns?.[seat] !== undefined;
    if (!p || p.isConnected === true || played) return;
    const account = accountOf(p.data);
    if (account) this.o.push?.send(account, { matchID, seat, kind });
    if (account && this.o.accountNotify) {
      const ask = this.o.accountNotify;
      // The account's webhook; a seat's own (registered before it was the account's) when the account has none.
      this.track(
        ask(account).then((fromAccount) => {
          const target = fromAccount ?? notifyOf(p.data);
          if (target) this.send(matchID, seat, kind, target);
        }),
        matchID,
      );
      return;
    }
    const target = notifyOf(p.data);
    if (target) this.send(matchID, seat, kind, target);
  }

  private send(matchID: string, seat: Seat, kind: 'turn' | 'start', target: SeatNotify): void {
    const link = `${(this.o.publicUrl ?? target.base ?? this.o.listenUrl()).replace(/\/+$/, '')}/#/match/${matchID}`;
    const text =
      kind === 'start'
        ? `Watergate: your opponent has joined match ${matchID} and the first decision is yours (${roleText(seat)}). ${link}`
        : `Watergate: it is your turn (${roleText(seat)}) in match ${matchID}. ${link}`;
    const reasons: string[] = [];
    this.track(
      sendWebhook(target.webhook, text, { ...this.o.send, signal: this.stop.signal }, reasons).then((result) => {
        this.o.metrics?.webhooks.inc({ result });
        // The host only: the path and query of a webhook often hold its secret token.
        const where = { matchID, seat, host: new URL(target.webhook).host, attempts: reasons.length + (result === 'sent' ? 1 : 0), reasons };
        if (result === 'sent') this.o.log.debug(where, 'turn notification sent');
        else this.o.log.warn({ ...where, result }, 'turn notification not delivered');
      }),
      matchID,
    );
  }

  /** Fire and forget, but never an unhandled rejection, and `close` can wait for what is under way. */
  private track(p: Promise<unknown>, matchID: string): void {
    const t = p.catch((err: unknown) => this.o.log.error({ err, matchID }, 'turn notification failed')).finally(() => this.inFlight.delete(t));
    this.inFlight.add(t);
  }

  /** Stops retries and attempts in flight. */
  async close(): Promise<void> {
    this.stop.abort();
    await Promise.all(this.inFlight);
  }
}
