/**
 * The daily digest: an account with the `daily` setting gets no turn e-mail one by one; each match whose
 * turn came while the player was away waits in storage (mail/channel.ts), and once the oldest has waited
 * `digestMs` (a day) one e-mail lists them all. The matches are taken (deleted) as they are read, so
 * every match is in one digest, whichever process scans first.
 */
import type { Logger } from '../log';
import type { MailRows } from '../storage/mail';
import { mailLang, render } from './messages';
import type { MailQueue } from './queue';
import { unsubscribeToken } from './tokens';

export const DIGEST_MS = 86_400_000;

export class Digests {
  private timer: ReturnType<typeof setInterval> | null = null;
  private running: Promise<void> | null = null;

  constructor(private readonly o: { rows: MailRows; queue: MailQueue; log: Logger; base: () => string; digestMs?: number; scanMs?: number }) {}

  start(): void {
    this.timer = setInterval(() => void this.scan(), this.o.scanMs ?? 60_000);
    this.timer.unref?.();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  scan(): Promise<void> {
    this.running ??= this.send()
      .catch((err: unknown) => this.o.log.warn({ err: (err as Error).message }, 'sending daily digests failed'))
      .finally(() => (this.running = null));
    return this.running;
  }

  private async send(): Promise<void> {
    for (;;) {
      const due = await this.o.rows.takeDigests(Date.now() - (this.o.digestMs ?? DIGEST_MS), 50);
      if (due.size === 0) return;
      for (const [accountID, matchIDs] of due) {
        const a = await this.o.rows.address(accountID);
        // Switched off or unconfirmed meanwhile: those matches are dropped with nothing sent.
        if (!a?.verified || a.prefs.turn === false) continue;
        const base = this.o.base();
        const unsubscribe = `${base}/auth/unsubscribe/${unsubscribeToken(await this.o.rows.signingKey(), accountID, 'turn')}`;
        const r = render(mailLang(a.lang), { kind: 'digest', matches: matchIDs.map((matchID) => ({ matchID, link: `${base}/#/match/${matchID}` })), unsubscribe });
        await this.o.queue.enqueue({ accountID, kind: 'digest', to: a.address, ...r, headers: { 'List-Unsubscribe': `<${unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } });
      }
    }
  }
}
