/**
 * Web push, a channel of the turn notice (notifier.ts decides when a seat is away and its turn starts;
 * this file only delivers): every push subscription of the account gets one message, at most one per
 * account and match an hour (claimed in storage, so several processes send it once). The message is
 * encrypted for the browser (aes128gcm) and signed with the server's VAPID key by the `web-push`
 * library; the request is sent here, not by web-push, so that it passes the same address guard as the
 * webhooks: the endpoint is an address a client gave us, and the server must not become its way into our
 * own network (docs/SECURITY.md "Web push"). A push service answering 404 or 410 has forgotten the
 * subscription: it is dropped.
 */
import { setMaxListeners } from 'node:events';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import webpush from 'web-push';
import type { Logger } from '../log';
import type { Metrics } from '../metrics';
import type { PushSubscriptionRow, FollowRows, VapidKeys } from '../storage/follows';
import type { NoticeChannel, TurnNotice } from '../notices/index';
import { guardedLookup, isPublicAddress, RefusedAddress } from './webhook';

/** What a channel is told: the match, whose turn, and why (the game started, or a turn came). */
export interface Notice {
  matchID: string;
  seat: '0' | '1';
  kind: 'turn' | 'start' | 'round' | 'pair';
}


/** Subscriptions an account may keep (browsers and devices), and the longest endpoint accepted. */
export const PUSH = { perAccount: 10, endpointMax: 1000, keyMax: 200, windowMs: 3_600_000, timeoutMs: 10_000 } as const;

/**
 * Why a subscription's endpoint cannot be used (for a 400), or null. https only; `allowLocal` (tests,
 * never from the configuration) also lets http reach loopback. Where it points is checked again when sending.
 */
export function endpointProblem(raw: unknown, allowLocal = false): string | null {
  if (typeof raw !== 'string') return 'must be a string (an https URL)';
  if (raw.length > PUSH.endpointMax) return `must be at most ${PUSH.endpointMax} characters`;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return 'must be an https URL';
  }
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname);
  if (u.protocol !== 'https:' && !(allowLocal && u.protocol === 'http:' && loopback)) return 'must start with https://';
  if (u.username || u.password) return 'must not contain a user name or password';
  return null;
}

const WORDS: Record<string, { turn: string; start: string; round: string; pair: string; body: string; roles: [string, string] }> = {
  en: { turn: 'Your turn', start: 'Your game has started', round: 'Your tournament round has started', pair: 'The second game of your pair has started', body: '{role} in match {id}', roles: ['the Editor', 'Nixon'] },
  'pt-BR': { turn: 'Sua vez', start: 'Sua partida começou', round: 'Sua rodada do torneio começou', pair: 'A segunda partida do seu par começou', body: '{role} na partida {id}', roles: ['o Editor', 'Nixon'] },
  'zh-CN': { turn: '轮到你了', start: '你的对局已开始', round: '你的赛事新一轮已开始', pair: '你的对局组第二局已开始', body: '对局 {id}：{role}', roles: ['编辑', '尼克松'] },
};
export const PUSH_LANGUAGES = Object.keys(WORDS);

/** The notification as the service worker shows it (client/push-sw.ts): a relative link, opened on the page's own origin. */
export function pushMessage(n: Notice, lang: string): { title: string; body: string; url: string; tag: string } {
  const w = WORDS[lang] ?? WORDS.en;
  return { title: `Watergate: ${w[n.kind]}`, body: w.body.replace('{role}', w.roles[Number(n.seat)]).replace('{id}', n.matchID), url: `/#/match/${n.matchID}`, tag: `wg-${n.matchID}` };
}

/** Keys from the configuration (both halves), else the stored pair, made on first start. */
export async function vapidKeys(social: FollowRows, configured?: Partial<VapidKeys>): Promise<VapidKeys> {
  if (configured?.publicKey && configured.privateKey) return { publicKey: configured.publicKey, privateKey: configured.privateKey };
  return social.vapidKeys(() => webpush.generateVAPIDKeys());
}

export interface PushOptions {
  social: FollowRows;
  keys: VapidKeys;
  /** VAPID_SUBJECT: a mailto: or https: address a push service may contact about our pushes. */
  subject: string;
  log: Logger;
  metrics?: Metrics;
  /** Tests only (never from the configuration): endpoints on loopback over http. */
  allowLocal?: boolean;
  timeoutMs?: number;
}

export class PushChannel implements NoticeChannel {
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly stop = new AbortController();

  constructor(private readonly o: PushOptions) {
    // One listener per push under way (many at once is normal): no "possible leak" warning.
    setMaxListeners(0, this.stop.signal);
  }

  readonly name = 'push';

  /** A turn of a signed-in player (notices/index.ts decided they are away): their browsers, once an hour a match. */
  async turn(n: TurnNotice): Promise<void> {
    if (n.accountID) this.send(n.accountID, { matchID: n.matchID, seat: n.seat, kind: n.kind });
  }

  send(accountID: string, notice: Notice): void {
    const p = this.deliver(accountID, notice)
      .catch((err: unknown) => this.o.log.error({ err, matchID: notice.matchID }, 'push notice failed'))
      .finally(() => this.inFlight.delete(p));
    this.inFlight.add(p);
  }

  private async deliver(accountID: string, notice: Notice): Promise<void> {
    const subs = await this.o.social.pushSubscriptions(accountID);
    // The hour's claim only when there is somewhere to send: no row per turn for players without push.
    if (subs.length === 0 || !(await this.o.social.claimPush(accountID, notice.matchID, Date.now(), PUSH.windowMs))) return;
    await Promise.all(subs.map((s) => this.one(s, notice)));
  }

  private async one(s: PushSubscriptionRow, notice: Notice): Promise<void> {
    const details = webpush.generateRequestDetails({ endpoint: s.endpoint, keys: { p256dh: s.p256dh, auth: s.auth } }, JSON.stringify(pushMessage(notice, s.lang)), {
      vapidDetails: { subject: this.o.subject, publicKey: this.o.keys.publicKey, privateKey: this.o.keys.privateKey },
      TTL: 24 * 3600,
      contentEncoding: 'aes128gcm',
    });
    // The host only in logs: an endpoint's path is the subscription's secret.
    const host = new URL(s.endpoint).host;
    try {
      const status = await post(new URL(details.endpoint), details.headers as Record<string, string>, details.body as Buffer, { allowLocal: this.o.allowLocal ?? false, timeoutMs: this.o.timeoutMs ?? PUSH.timeoutMs, signal: this.stop.signal });
      if (status === 404 || status === 410) {
        await this.o.social.dropPush(s.endpoint);
        this.o.metrics?.pushes.inc({ result: 'gone' });
        this.o.log.info({ host, status }, 'push subscription gone: dropped');
      } else if (status < 200 || status >= 300) {
        this.o.metrics?.pushes.inc({ result: 'failed' });
        this.o.log.warn({ host, status, matchID: notice.matchID }, 'push not accepted');
      } else this.o.metrics?.pushes.inc({ result: 'sent' });
    } catch (e) {
      this.o.metrics?.pushes.inc({ result: e instanceof RefusedAddress ? 'refused' : 'failed' });
      this.o.log.warn({ host, err: (e as Error).message, matchID: notice.matchID }, 'push not delivered');
    }
  }

  async close(): Promise<void> {
    this.stop.abort();
    await Promise.all(this.inFlight);
  }
}

/** One POST through the address guard (webhook.ts): the push service's status. */
function post(url: URL, headers: Record<string, string>, body: Buffer | null, o: { allowLocal: boolean; timeoutMs: number; signal: AbortSignal }): Promise<number> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host) && !o.allowLocal && !isPublicAddress(host)) return Promise.reject(new RefusedAddress(`${host} is not a public address`));
  return new Promise((resolve, reject) => {
    const req = (url.protocol === 'https:' ? https : http).request(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(body?.length ?? 0) },
      lookup: guardedLookup(o.allowLocal) as never,
      agent: false,
      signal: o.signal,
    });
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${o.timeoutMs} ms`)), o.timeoutMs);
    req.on('response', (res) => {
      clearTimeout(timer);
      resolve(res.statusCode ?? 0);
      res.resume();
    });
    req.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    req.end(body ?? undefined);
  });
}
