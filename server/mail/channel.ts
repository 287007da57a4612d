/**
 * The e-mail channel of the notices (server/notices/): to an account's verified address, in its language,
 * unless that kind is switched off (account page, or the one-click unsubscribe every notice carries).
 * Turn notices: at most one per match per hour (`once`, shared by every process through storage); with
 * the daily option, none one by one: the match waits for the account's daily digest (digest.ts). Guest seats get no e-mail (no address).
 */
import type { ChallengeNotice, ClockNotice, GameEndNotice, NoticeChannel, TurnNotice } from '../notices/index';
import type { MailRows } from '../storage/mail';
import { mailLang, render, type Message, type NoticeKind } from './messages';
import type { MailQueue } from './queue';
import { unsubscribeToken } from './tokens';

export const TURN_WINDOW_MS = 3_600_000;

export function mailChannel(o: { rows: MailRows; queue: MailQueue; base: () => string; turnWindowMs?: number }): NoticeChannel {
  /** Renders and queues a notice of `kind` to the account, if it has a verified address wanting it; `gate` may still say no. */
  async function notice(accountID: string, kind: NoticeKind, make: (unsubscribe: string) => Message, gate?: (prefs: Record<string, boolean>) => Promise<boolean>): Promise<void> {
    const a = await o.rows.address(accountID);
    if (!a?.verified || a.prefs[kind] === false) return;
    if (gate && !(await gate(a.prefs))) return;
    const url = `${o.base()}/auth/unsubscribe/${unsubscribeToken(await o.rows.signingKey(), accountID, kind)}`;
    const r = render(mailLang(a.lang), make(url));
    await o.queue.enqueue({
      accountID,
      kind,
      to: a.address,
      ...r,
      // RFC 8058: a mail client may unsubscribe with one POST, without the player signing in.
      headers: { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    });
  }
  return {
    name: 'mail',
    async turn(n: TurnNotice) {
      if (!n.accountID) return;
      const id = n.accountID;
      const now = Date.now();
      await notice(id, 'turn', (unsubscribe) => ({ kind: n.kind, matchID: n.matchID, link: n.link, unsubscribe }), async (prefs) => {
        // The daily digest (digest.ts) lists the match instead; nothing goes now.
        if (prefs.daily === true) {
          await o.rows.addDigest(id, n.matchID, now);
          return false;
        }
        return o.rows.once(`mail:turn:${id}:${n.matchID}`, now, o.turnWindowMs ?? TURN_WINDOW_MS);
      });
    },
    challenge: (n: ChallengeNotice) => notice(n.accountID, 'challenge', (unsubscribe) => ({ kind: 'challenge', from: n.from, link: n.link, unsubscribe })),
    gameEnd: (n: GameEndNotice) => notice(n.accountID, 'end', (unsubscribe) => ({ kind: 'end', matchID: n.matchID, outcome: n.outcome, rating: n.rating, link: n.link, unsubscribe })),
    // Once per decision already (notices/clocks.ts).
    clock: (n: ClockNotice) => notice(n.accountID, 'clock', (unsubscribe) => ({ kind: 'clock', matchID: n.matchID, leftMs: n.leftMs, link: n.link, unsubscribe })),
  };
}
