/**
 * Account secrets stay where they belong, over a whole session of use (sign-up, sign-in, a passkey
 * ceremony begun, a rated match played to its end over sockets, pairing, profiles, "download my data"):
 * no password, session id, password hash or seat credential in any answer to another player or to
 * anyone, in any socket message a spectator or the opponent gets, in public match data, or in any log
 * line (the server logs at debug here); a player's own data download holds none of them either.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { legalMoves, type WatergateState } from '../../game/index';
import { api, player, startTestServer, until, type TestServer } from './helpers';
import { as, sessionCookie } from './account-helpers';

describe('account secrets', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer('embedded', { leaderboardMinGames: 1 });
  });
  afterAll(() => t.stop());

  it('never reach another player, the public, the sockets or the logs', async () => {
    const seen: { who: string; text: string }[] = [];
    const record = (who: string, r: { body: unknown; headers: Headers | Record<string, unknown> }) => seen.push({ who, text: JSON.stringify(r.body) });
    const secrets: Record<string, string> = { annPassword: 'ann secret phrase 1', bobPassword: 'bob secret phrase 2' };
    const up = async (username: string, password: string) => {
      const r = await api(t.url, '/auth/signup', { username, password }, { origin: t.url });
      const cookie = sessionCookie(r.headers)!;
      secrets[`${username}Session`] = cookie.split('=')[1];
      record(username, r);
      return as(t.url, username, cookie);
    };
    const ann = await up('SecretAnn', secrets.annPassword);
    const bob = await up('SecretBob', secrets.bobPassword);
    const again = await api(t.url, '/auth/login', { username: 'SecretAnn', password: secrets.annPassword }, { origin: t.url });
    secrets.annSession2 = sessionCookie(again.headers)!.split('=')[1];
    record('SecretAnn', again);
    const ceremony = await ann.call('/auth/passkey/register/options', {});
    expect(ceremony.status).toBe(200);
    const matchID = (await ann.call('/games/watergate/create', {})).body.matchID;
    const j0 = await ann.call(`/games/watergate/${matchID}/join`, { playerID: '0' });
    const j1 = await bob.call(`/games/watergate/${matchID}/join`, { playerID: '1' });
    secrets.annCredentials = j0.body.playerCredentials;
    secrets.bobCredentials = j1.body.playerCredentials;
    const ps = { '0': player(t.url, matchID, '0', secrets.annCredentials), '1': player(t.url, matchID, '1', secrets.bobCredentials) };
    const watcher = player(t.url, matchID, null);
    await until(() => ps['0'].state() !== null && ps['1'].state() !== null && watcher.state() !== null, 'synced');
    for (let i = 0; i < 8; i++) {
      const s = ps['0'].state()!;
      const seat = s.G.prompt!.player as '0' | '1';
      const m = legalMoves(ps[seat].state()!.G as unknown as WatergateState, seat).find((x) => x.move !== 'resign')!;
      (ps[seat].client.moves as Record<string, (a: unknown) => void>)[m.move](m.args[0]);
      await until(() => ps['0'].state()!._stateID > s._stateID, 'moved');
    }
    (ps['1'].client.moves as Record<string, () => void>).resign();
    await until(() => watcher.state()?.ctx.gameover !== undefined, 'over');
    // What each side and the spectator received on their sockets.
    seen.push({ who: 'SecretBob', text: JSON.stringify(ps['1'].received) }, { who: 'SecretAnn', text: JSON.stringify(ps['0'].received) }, { who: 'spectator', text: JSON.stringify(watcher.received) });
    for (const p of [...Object.values(ps), watcher]) p.stop();

    // Everything anyone may read.
    for (const path of ['/games/watergate', `/games/watergate/${matchID}`, `/games/watergate/${matchID}/replay`, '/players/SecretAnn', '/players/SecretBob', '/leaderboard?role=editor', '/leaderboard?role=nixon', '/leaderboard?role=combined'])
      record('anyone', await api(t.url, path));
    for (const path of ['/me/matches', '/auth/me', '/me/data']) record('SecretBob', await bob.call(path));
    record('SecretBob', await bob.call('/pair', { side: 'either', clock: 'none', rated: true }));
    const annData = await ann.call('/me/data');
    expect(annData.status).toBe(200);
    expect(annData.body.results).toHaveLength(1);

    const owner = (key: string) => (key.startsWith('ann') || key.startsWith('SecretAnn') ? 'SecretAnn' : 'SecretBob');
    for (const [key, value] of Object.entries(secrets)) {
      for (const s of seen) {
        // A seat's credentials go to the account that holds the seat (its join, its own sockets, /me/matches).
        if (s.who === owner(key) && /Credentials$/.test(key)) continue;
        expect(s.text.includes(value), `${key} in what ${s.who} got`).toBe(false);
      }
      expect(t.logs.filter((l) => l.includes(value)), `${key} in the logs`).toEqual([]);
      expect(JSON.stringify(annData.body).includes(value), `${key} in Ann's download`).toBe(false);
    }
    // No password hash anywhere, no account id in public data.
    for (const s of [...seen, { who: 'download', text: JSON.stringify(annData.body) }]) expect(s.text, s.who).not.toMatch(/scrypt\$/);
    expect(t.logs.join('\n')).not.toMatch(/scrypt\$/);
    expect(t.logs.length).toBeGreaterThan(20);
  });
});
