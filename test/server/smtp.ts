/**
 * A real SMTP server for the tests (the `smtp-server` package on 127.0.0.1, no TLS, any sender): every
 * message it receives is parsed with mailparser and kept, with its raw header lines and envelope.
 */
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface Received {
  to: string[];
  mail: ParsedMail;
  subject: string;
  text: string;
  html: string;
  /** A header's value as sent (lower-case name). */
  header(name: string): string | undefined;
}

export async function smtpServer(port = 0) {
  const got: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, cb) {
      simpleParser(stream)
        .then((mail) => {
          const lines = new Map(mail.headerLines.map((h) => [h.key, h.line.slice(h.line.indexOf(':') + 1).trim()]));
          got.push({ to: session.envelope.rcptTo.map((r) => r.address), mail, subject: mail.subject ?? '', text: mail.text ?? '', html: typeof mail.html === 'string' ? mail.html : '', header: (n) => lines.get(n.toLowerCase()) });
          cb();
        })
        .catch(cb);
    },
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  const at = (server.server.address() as AddressInfo).port;
  return {
    got,
    port: at,
    url: `smtp://127.0.0.1:${at}`,
    to: (address: string) => got.filter((g) => g.to.includes(address)),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** The token at the end of a link `#/<page>/<token>` in a message's text. */
export const linkToken = (text: string, page: string): string => {
  const m = new RegExp(`#/${page}/([A-Za-z0-9_-]{43})`).exec(text);
  if (!m) throw new Error(`no ${page} link in: ${text}`);
  return m[1];
};
