/**
 * The load tool measures the server with its limits on: more matches than one address may create, each
 * from an address of its own in 127.0.0.0/8, run without a refusal or an error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../server/limits';
import { parseArgs, runLoad, sourceAddress } from '../../tools/load/run';
import { startTestServer, type TestServer } from './helpers';

describe('npm run load against the limits as shipped', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer('embedded', { limits: { create: LIMITS.create, join: LIMITS.join, api: LIMITS.api } });
  });
  afterAll(async () => t?.stop());

  it('spreads its matches over source addresses, so none is refused', async () => {
    expect(new Set(Array.from({ length: 1000 }, (_, i) => sourceAddress(i))).size).toBe(1000);
    expect(sourceAddress(0)).toBe('127.1.0.1');
    const matches = LIMITS.create.points + 5;
    const r = await runLoad(parseArgs(['--url', t.url, '--matches', String(matches), '--seconds', '2', '--paced', '100,200']));
    expect(r.errors).toBe(0);
    expect(r.refusals['rate-limited']).toBeUndefined();
    expect(r.moves).toBeGreaterThan(matches);
    expect((await t.store.listMatches()).length).toBeGreaterThanOrEqual(matches);
  });
});
