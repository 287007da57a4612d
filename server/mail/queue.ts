/**
 * The outgoing mail queue (storage/mail.ts holds it): `enqueue` writes a rendered message and returns —
 * nothing waits for the SMTP server — and a worker in every process claims due rows (a lease, so a
 * process that dies mid-send gives its rows back when the lease ends), sends them through nodemailer,
 * and removes them, or tries again later: 30 s, 1 min, 2, … up to 1 h between attempts, given up after
 * MAX_ATTEMPTS (about a day). A row sent and then lost before its removal is sent again after the lease
 * (at least once: the SMTP server may see a duplicate, never a loss).
 */
import { randomBytes } from 'node:crypto';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from '../log';
import type { MailRows, QueuedMail } from '../storage/mail';

export interface QueueOptions {
  rows: MailRows;
  log: Logger;
  /** SMTP_URL, e.g. smtp://user:pass@host:587 or smtps://host:465. */
  smtpUrl: string;
  /** MAIL_FROM: the From address, e.g. "Watergate <noreply@example.org>". */
  from: string;
  /** How often due rows are looked for (default 5 s); an enqueue in this process looks at once. */
  pollMs?: number;
  /** How long a claim holds its rows (default 2 min: longer than one SMTP attempt may take). */
  leaseMs?: number;
  /** The first wait after a failure, doubled each time up to `maxRetryMs` (defaults 30 s, 1 h). */
  retryMs?: number;
  maxRetryMs?: number;
  maxAttempts?: number;
}

const BATCH = 10;
const MAX_ATTEMPTS = 30;

export class MailQueue {
  private readonly transport: Transporter;
  private timer: ReturnType<typeof setInterval> | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(private readonly o: QueueOptions) {
    // Bounded attempts (well inside the lease): a stalled SMTP server costs a timer, never a stuck row.
    const url = new URL(o.smtpUrl);
    for (const [k, v] of [['connectionTimeout', '10000'], ['greetingTimeout', '10000'], ['socketTimeout', '30000']]) if (!url.searchParams.has(k)) url.searchParams.set(k, v);
    this.transport = nodemailer.createTransport(url.href, { from: o.from });
  }

  start(): void {
    this.timer = setInterval(() => this.kick(), this.o.pollMs ?? 5000);
    this.timer.unref?.();
    this.kick();
  }

  /** Writes the message to the queue and wakes the worker; resolves once it is stored. */
  async enqueue(m: { accountID: string | null; kind: string; to: string; subject: string; text: string; html: string; headers?: Record<string, string> }): Promise<void> {
    await this.o.rows.enqueue({ id: randomBytes(12).toString('base64url'), headers: {}, ...m }, Date.now());
    this.kick();
  }

  /** Runs a pass now (or right after the one under way). */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.pass()
      .catch((err: unknown) => this.o.log.warn({ err: (err as Error).message }, 'mail queue pass failed'))
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  private async pass(): Promise<void> {
    for (;;) {
      const now = Date.now();
      const rows = await this.o.rows.claim(BATCH, now, now + (this.o.leaseMs ?? 120_000));
      if (rows.length === 0 || this.stopped) return;
      await Promise.all(rows.map((r) => this.send(r)));
    }
  }

  private async send(r: QueuedMail): Promise<void> {
    try {
      await this.transport.sendMail({ to: r.to, subject: r.subject, text: r.text, html: r.html, headers: r.headers });
      await this.o.rows.sent(r.id);
      // The kind only: the address is the player's private data.
      this.o.log.debug({ kind: r.kind, attempts: r.attempts + 1 }, 'mail sent');
    } catch (e) {
      const err = e as { code?: string; responseCode?: number; message?: string };
      const why = err.responseCode ? `SMTP ${err.responseCode}` : (err.code ?? 'error');
      // A permanent refusal (5xx) is not asked again; anything else waits longer each time.
      const permanent = typeof err.responseCode === 'number' && err.responseCode >= 500;
      const last = permanent || r.attempts + 1 >= (this.o.maxAttempts ?? MAX_ATTEMPTS);
      const wait = Math.min((this.o.retryMs ?? 30_000) * 2 ** r.attempts, this.o.maxRetryMs ?? 3_600_000);
      await this.o.rows.failed(r.id, last ? null : Date.now() + wait, why);
      this.o.log.warn({ kind: r.kind, attempts: r.attempts + 1, reason: why, givenUp: last }, 'mail not sent');
    }
  }

  async close(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
    this.transport.close();
  }
}
