/** Structured JSON logs (pino). Credentials never appear: requests are logged by method, path and status only. */
import pino, { type Logger } from 'pino';

export type { Logger };

export function createLogger(level = 'info', destination?: pino.DestinationStream): Logger {
  return pino({ level, base: { service: 'watergate' }, redact: ['credentials', '*.credentials', 'playerCredentials', '*.playerCredentials', 'password', '*.password', 'newPassword', 'ticket', '*.ticket'] }, destination);
}
