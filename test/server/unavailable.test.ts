/**
 * Which PostgreSQL failures are "storage unavailable" (503, `unavailable`: try again) and which are not
 * (a bug or a refusal on purpose keeps its own answer), and which of them are only load ("busy", logged
 * as such). The outage test shows the real ones end to end.
 */
import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { isBusy, isUnavailable } from '../../server/storage/postgres';
import { api, PG_URL, postgresAvailable, startTestServer } from './helpers';

const hasPg = await postgresAvailable();
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

describe('busy is not down', () => {
  it('names a full pool, too many connections and lock or statement timeouts as busy; a connection refused or a shutdown as down', () => {
    for (const e of [serverError('55P03'), serverError('57014'), serverError('53300'), new Error('timeout exceeded when trying to connect')]) expect(isBusy(e), e.message).toBe(true);
    for (const e of [serverError('08006'), serverError('57P01'), socketError('ECONNREFUSED'), new Error('Connection terminated unexpectedly')]) expect(isBusy(e), e.message).toBe(false);
  });

  it.skipIf(!hasPg)('a match row locked past the lock timeout answers 503 "busy" over HTTP, logged as load; free again, the join goes through', async () => {
    const t = await startTestServer('postgres');
    const c = new pg.Client({ connectionString: PG_URL });
    await c.connect();
    try {
      const matchID = (await api(t.url, '/games/watergate/create', { numPlayers: 2 })).body.matchID as string;
      const schema = (t.store as unknown as { schema: string }).schema;
      await c.query('BEGIN');
      await c.query(`SELECT 1 FROM "${schema}".wg_matches WHERE match_id = $1 FOR UPDATE`, [matchID]);
      const r = await api(t.url, `/games/watergate/${matchID}/join`, { playerID: '0', playerName: 'Ann' });
      await c.query('COMMIT');
      expect([r.status, r.body]).toEqual([503, { error: 'the database is busy: try again in a moment', retryAfter: 1 }]);
      expect(t.logs.some((l) => l.includes('request refused: server busy'))).toBe(true);
      expect(t.logs.some((l) => l.includes('request refused: storage unavailable'))).toBe(false);
      expect((await api(t.url, `/games/watergate/${matchID}/join`, { playerID: '0', playerName: 'Ann' })).status).toBe(200);
    } finally {
      await c.end();
      await t.stop();
    }
  });
});
