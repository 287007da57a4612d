/**
 * Which PostgreSQL failures are "storage unavailable" (503, `unavailable`: try again) and which are not
 * (a bug or a refusal on purpose keeps its own answer). The outage test shows the real ones end to end.
 */
import { describe, expect, it } from 'vitest';
import { isUnavailable } from '../../server/storage/postgres';
import { HttpError, StaleStateError, StorageUnavailableError } from '../../server/storage/errors';

const serverError = (code: string) => Object.assign(new Error(`server said ${code}`), { code, severity: 'ERROR' });
const socketError = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code });

describe('isUnavailable', () => {
  it('names connection, timeout, shutdown and resource failures', () => {
    for (const e of [
      serverError('57014'), // statement_timeout: canceling statement
      serverError('57P01'), // admin shutdown
      serverError('57P03'), // cannot connect now (starting up)
      serverError('08006'),
      serverError('53300'), // too many connections
      serverError('55P03'), // lock_timeout
      serverError('25P03'), // idle in transaction timeout
      socketError('ECONNREFUSED'),
      socketError('ECONNRESET'),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      new Error('Query read timeout'),
      new Error('Client has encountered a connection error and is not queryable'),
      new StorageUnavailableError(),
    ])
      expect(isUnavailable(e), e.message).toBe(true);
  });

  it('leaves constraint and syntax errors, refusals and bugs alone', () => {
    for (const e of [
      serverError('23505'), // unique violation
      serverError('42601'), // syntax
      serverError('22P02'),
      new HttpError(409, 'that seat is taken'),
      new StaleStateError('m', 3, 3),
      new TypeError("Cannot read properties of undefined (reading 'connection')"),
      'not an error',
    ])
      expect(isUnavailable(e), String(e)).toBe(false);
  });
});
