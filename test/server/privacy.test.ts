/**
 * Private stays private (docs/SECURITY.md "Unlisted matches and the players' chat"), over real sockets and
 * HTTP: the players' chat never reaches a socket that synced as a spectator — not in the sync, not live,
 * in a listed or an unlisted match, nor when the line was said on another process (the bus); the next
 * match ("play again") of an unlisted match, or an unlisted next match, is told to the seated players
 * only (NEXT_EVENT, a later sync, GET of the match, the list); a profile shows an unlisted match only to
 * someone seated in it (SQLite and PostgreSQL). Spectators have a room of their own that no player hears.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { NEXT_EVENT, WATCHERS_EVENT, WATCHERS_SAY, type GuardError, type NextMatch, type PlayAgainResponse, type WatcherLine } from '../../protocol/index';
import { api, apiFrom, createAndJoin, next, player, postgresAvailable, rawSocket, startTestServer, until, type Backend, type TestServer } from './helpers';
import { signUp, signUpFrom, twoProcesses, type Signed } from './account-helpers';

const hasPg = await postgresAvailable();

/** A raw socket synced to a match (a seat with its credentials, or a spectator), every event recorded. */
async function follow(url: string, matchID: string, seat: '0' | '1' | null, credentials?: string) {
  const s: Socket = await rawSocket(url);
  const received: { event: string; args: unknown[] }[] = [];
  s.onAny((event: string, ...args: unknown[]) => received.push({ event, args }));
  const synced = next(s, 'sync');
  s.emit('sync', matchID, seat, credentials, 2);
  await synced;
  // The status follows the sync (and the invitation, when there is one, comes between them).
  await until(() => received.some((r) => r.event === 'watergate:status'), 'the status after the sync');
  const of = (event: string) => received.filter((r) => r.event === event).map((r) => r.args);
  // The invitation may come again with later match data: each distinct one once.
  const nexts = () => [...new Set(of(NEXT_EVENT).map((a) => JSON.stringify(a)))].map((j) => JSON.parse(j) as [NextMatch]);
  const watchers = () => of(WATCHERS_EVENT).map((a) => a[1] as WatcherLine);
  const refusals = () => of('watergate:error').map((a) => (a[0] as GuardError).message);
  return { s, received, chat: () => of('chat').map((a) => (a[1] as { payload: string }).payload), nexts, watchers, refusals };
}

const say = (s: Socket, matchID: string, sender: '0' | '1', payload: string) => s.emit('chat', matchID, { id: `m${Math.random().toString(36).slice(2, 10)}`, sender, payload });
/** Long enough for a delivery that was coming to have come (the control socket already has its copy). */
const grace = () => new Promise((r) => setTimeout(r, 300));

async function createAndJoinUnlisted(url: string) {
  const { matchID } = (await api(url, '/games/watergate/create', { numPlayers: 2, unlisted: true })).body;
  const a = await api(url, `/games/watergate/${matchID}/join`, { playerID: '0', playerName: 'Woodward' });
  const b = await api(url, `/games/watergate/${matchID}/join`, { playerID: '1', playerName: 'Nixon' });
  return { matchID: matchID as string, creds: { '0': a.body.playerCredentials as string, '1': b.body.playerCredentials as string } };
}

describe('one process', () => {
  let t: TestServer;
  beforeAll(async () => {
    // Every socket here is 127.0.0.1: the per-address chat limit (socket-limits.test.ts) is raised, the per-line rules are what is tested.
    t = await startTestServer('embedded', { limits: { chat: { points: 1000, seconds: 10 } } });
  });
  afterAll(async () => t?.stop());

  for (const kind of ['listed', 'unlisted'] as const) {
    it(`the players' chat of a ${kind} match reaches the players only: a spectator gets no line, kept or live`, async () => {
      const { matchID, creds } = kind === 'listed' ? await createAndJoin(t.url) : await createAndJoinUnlisted(t.url);
      const ed = await follow(t.url, matchID, '0', creds['0']);
      const nx = await follow(t.url, matchID, '1', creds['1']);
      say(ed.s, matchID, '0', 'before anyone watched');
      await until(() => nx.chat().length === 1, 'Nixon heard the first line');
      const watcher = await follow(t.url, matchID, null);
      // A spectator who names a seat without its credentials is refused and gets nothing either.
      const pretender = await rawSocket(t.url);
      const pretended: string[] = [];
      pretender.onAny((event: string) => pretended.push(event));
      pretender.emit('sync', matchID, '1', 'not-the-credentials', 2);
      await until(() => pretended.includes('watergate:error'), 'the pretender refused');
      say(nx.s, matchID, '1', 'said while watched');
      await until(() => ed.chat().length === 2, 'the Editor heard the second line');
      // A page reload of a seat still gets the history.
      const reloaded = await follow(t.url, matchID, '0', creds['0']);
      await until(() => reloaded.chat().length === 2, 'the reloaded seat got the kept lines');
      const late = await follow(t.url, matchID, null);
      await grace();
      expect(ed.chat()).toEqual(['before anyone watched', 'said while watched']);
      expect(nx.chat()).toEqual(['before anyone watched', 'said while watched']);
      expect(watcher.chat()).toEqual([]);
      expect(late.chat()).toEqual([]);
      expect(pretended).not.toContain('chat');
      expect(JSON.stringify([watcher.received, late.received])).not.toContain('said while watched');
      expect(JSON.stringify([watcher.received, late.received])).not.toContain('before anyone watched');
      for (const s of [ed.s, nx.s, watcher.s, reloaded.s, late.s, pretender]) s.close();
    });
  }

  it("spectators have a room of their own: they hear each other, live, under the server's pseudonyms; the players never do; text of at most 300 characters, 5 lines per 10 s", async () => {
    const { matchID, creds } = await createAndJoinUnlisted(t.url);
    const ed = await follow(t.url, matchID, '0', creds['0']);
    const nx = await follow(t.url, matchID, '1', creds['1']);
    const [w1, w2] = [await follow(t.url, matchID, null), await follow(t.url, matchID, null)];
    w1.s.emit(WATCHERS_SAY, matchID, '  <i>Who is Deep Throat?</i>  ');
    await until(() => w1.watchers().length === 1 && w2.watchers().length === 1, 'both spectators heard it');
    expect(w2.watchers()[0]).toEqual({ id: expect.any(String), who: expect.stringMatching(/^[A-Za-z0-9_-]{4}$/), text: '<i>Who is Deep Throat?</i>', at: expect.any(Number) });
    // A seat cannot speak there (nor listen); nobody speaks for another match; text and pace are bounded.
    ed.s.emit(WATCHERS_SAY, matchID, 'Psst, spectators');
    w2.s.emit(WATCHERS_SAY, 'another-match', 'hello');
    w2.s.emit(WATCHERS_SAY, matchID, 'x'.repeat(301));
    w2.s.emit(WATCHERS_SAY, matchID, '   ');
    w2.s.emit(WATCHERS_SAY, matchID, { text: 'an object' });
    await until(() => ed.refusals().length === 1 && w2.refusals().length === 4, 'the refusals');
    expect(ed.refusals()).toEqual(["only a spectator of this match may speak in its spectators' room"]);
    expect(w2.refusals()).toEqual([
      "only a spectator of this match may speak in its spectators' room",
      "a spectators' message is 1 to 300 characters of text",
      "a spectators' message is 1 to 300 characters of text",
      "a spectators' message is 1 to 300 characters of text",
    ]);
    for (let i = 1; i <= 6; i++) w2.s.emit(WATCHERS_SAY, matchID, `line ${i}`);
    await until(() => w1.watchers().length === 6 && w2.refusals().length === 5, 'five lines and a refusal');
    expect(w2.refusals().at(-1)).toBe('at most 5 messages in 10 seconds: wait a moment');
    const late = await follow(t.url, matchID, null);
    await grace();
    expect(w1.watchers().map((l) => l.text)).toEqual(['<i>Who is Deep Throat?</i>', 'line 1', 'line 2', 'line 3', 'line 4', 'line 5']);
    // Each speaker keeps one pseudonym; two spectators have two.
    const whos = w1.watchers().map((l) => l.who);
    expect(new Set(whos.slice(1)).size).toBe(1);
    expect(whos[0]).not.toBe(whos[1]);
    expect(late.watchers()).toEqual([]); // live only: nothing kept
    for (const p of [ed, nx]) {
      expect(p.watchers()).toEqual([]);
      expect(JSON.stringify(p.received)).not.toContain('Deep Throat');
    }
    for (const s of [ed.s, nx.s, w1.s, w2.s, late.s]) s.close();
  });

  it("an unlisted match's next match is told to its seated players only: not to a spectator, a later spectator's sync or its public GET", async () => {
    const { matchID, creds } = await createAndJoinUnlisted(t.url);
    const [ed, nx, watcher] = [await follow(t.url, matchID, '0', creds['0']), await follow(t.url, matchID, '1', creds['1']), await follow(t.url, matchID, null)];
    const asked = (await api(t.url, `/games/watergate/${matchID}/playAgain`, { playerID: '0', credentials: creds['0'] })).body as PlayAgainResponse;
    await until(() => ed.nexts().length > 0 && nx.nexts().length > 0, 'both seats told');
    for (const p of [ed, nx]) expect(p.nexts()).toEqual([[{ matchID, nextMatchID: asked.nextMatchID }]]);
    const late = await follow(t.url, matchID, null);
    const lateSeat = await follow(t.url, matchID, '1', creds['1']);
    await grace();
    expect(watcher.nexts()).toEqual([]);
    expect(late.nexts()).toEqual([]);
    expect(lateSeat.nexts()).toEqual([[{ matchID, nextMatchID: asked.nextMatchID }]]);
    const one = await api(t.url, `/games/watergate/${matchID}`);
    expect(one.status).toBe(200);
    expect(one.body.nextMatchID).toBeUndefined();
    for (const text of [JSON.stringify(one.body), JSON.stringify(watcher.received), JSON.stringify(late.received)]) expect(text).not.toContain(asked.nextMatchID);
    for (const s of [ed.s, nx.s, watcher.s, late.s, lateSeat.s]) s.close();
  });

  it("a listed match's next match reaches its spectators when it is listed too, never when it was made unlisted", async () => {
    for (const unlisted of [false, true]) {
      const { matchID, creds } = await createAndJoin(t.url);
      const [ed, watcher] = [await follow(t.url, matchID, '0', creds['0']), await follow(t.url, matchID, null)];
      const asked = (await api(t.url, `/games/watergate/${matchID}/playAgain`, { playerID: '1', credentials: creds['1'], unlisted })).body as PlayAgainResponse;
      await until(() => ed.nexts().length > 0, 'the seat told');
      const late = await follow(t.url, matchID, null);
      const inList = async () => ((await api(t.url, '/games/watergate?limit=100')).body.matches as { matchID: string; nextMatchID?: string }[]).find((m) => m.matchID === matchID);
      if (!unlisted) {
        await until(() => watcher.nexts().length > 0, 'the spectator told');
        expect([watcher.nexts(), late.nexts()]).toEqual([[[{ matchID, nextMatchID: asked.nextMatchID }]], [[{ matchID, nextMatchID: asked.nextMatchID }]]]);
        expect((await api(t.url, `/games/watergate/${matchID}`)).body.nextMatchID).toBe(asked.nextMatchID);
        expect((await inList())?.nextMatchID).toBe(asked.nextMatchID);
      } else {
        await grace();
        expect([watcher.nexts(), late.nexts()]).toEqual([[], []]);
        const one = (await api(t.url, `/games/watergate/${matchID}`)).body;
        const listed = await inList();
        expect(listed).toBeDefined();
        for (const text of [JSON.stringify(one), JSON.stringify(listed), JSON.stringify(watcher.received), JSON.stringify(late.received)]) expect(text).not.toContain(asked.nextMatchID);
      }
      for (const s of [ed.s, watcher.s, late.s]) s.close();
    }
  });
});

/** The seat's board resigns its match; resolves once the game is over on it. */
async function resign(url: string, matchID: string, seat: string, credentials: string): Promise<void> {
  const p = player(url, matchID, seat, credentials);
  try {
    await until(() => p.state() !== null, 'synced');
    (p.client.moves as Record<string, () => void>).resign();
    await until(() => p.state()!.ctx.gameover !== undefined, 'over');
  } finally {
    p.stop();
  }
}

/** Both players resign-finish a match Ann (the Editor) and Bob create, listed or not; resolves when both records are kept. */
async function finish(url: string, ann: Signed, bob: Signed, unlisted: boolean): Promise<string> {
  const matchID = (await ann.call('/games/watergate/create', { unlisted })).body.matchID as string;
  const c0 = (await ann.call(`/games/watergate/${matchID}/join`, { playerID: '0' })).body.playerCredentials;
  await bob.call(`/games/watergate/${matchID}/join`, { playerID: '1' });
  await resign(url, matchID, '0', c0);
  await until(async () => ((await ann.call(`/players/${ann.username}`)).body.matches as { matchID: string }[]).some((m) => m.matchID === matchID), 'the record kept');
  return matchID;
}

for (const backend of ['embedded', 'postgres'] as Backend[]) {
  describe.skipIf(backend === 'postgres' && !hasPg)(`profiles (${backend})`, () => {
    let t: TestServer;
    beforeAll(async () => {
      t = await startTestServer(backend);
    });
    afterAll(async () => t?.stop());

    it('show an unlisted match only to a player seated in it: a stranger, signed in or not, sees none of it', async () => {
      const [ann, bob, carl] = [await signUp(t.url, 'Ann'), await signUp(t.url, 'Bob'), await signUp(t.url, 'Carl')];
      const secret = await finish(t.url, ann, bob, true);
      const matchesOf = (body: { matches: { matchID: string }[] }) => body.matches.map((m) => m.matchID);
      // Ann and Bob (signed in) see it on Ann's profile; signed out or as Carl, Ann has played nothing.
      expect(matchesOf((await ann.call('/players/ann')).body)).toEqual([secret]);
      expect(matchesOf((await bob.call('/players/ann')).body)).toEqual([secret]);
      for (const seen of [await api(t.url, '/players/ann'), await carl.call('/players/ann'), await api(t.url, '/players/bob')]) {
        expect(seen.status).toBe(200);
        expect(seen.body).toMatchObject({ matches: [], byOpponent: [], byLevel: [], averageMoves: null, averageMinutes: null });
        expect(seen.body.bySide).toEqual({ editor: { won: 0, lost: 0 }, nixon: { won: 0, lost: 0 } });
        expect(JSON.stringify(seen.body)).not.toContain(secret);
      }
      // A listed match is everyone's to see, beside the unlisted one still hidden.
      const open = await finish(t.url, ann, bob, false);
      expect(matchesOf((await api(t.url, '/players/ann')).body)).toEqual([open]);
      expect(matchesOf((await carl.call('/players/bob')).body)).toEqual([open]);
      expect(matchesOf((await ann.call('/players/bob')).body)).toEqual([open, secret]);
    });

    it('show everyone the matches the server made unlisted only to keep them out of the list: Play now, vs computer', async () => {
      const [dee, eve] = [await signUpFrom('127.0.0.2', t.url, 'Dee'), await signUpFrom('127.0.0.3', t.url, 'Eve')];
      // Two players at two addresses, as Play now pairs them.
      const ask = (who: Signed, from: string) => apiFrom(from, t.url, '/pair', { side: 'either', clock: 'none', rated: false, name: who.username }, { cookie: who.cookie, origin: t.url });
      expect((await ask(dee, '127.0.0.2')).body).toMatchObject({ status: 'waiting' });
      const second = (await ask(eve, '127.0.0.3')).body;
      expect(second).toMatchObject({ status: 'paired', matchID: expect.any(String) });
      expect((await t.store.head(second.matchID))!.metadata.unlisted).toBe(true);
      await resign(t.url, second.matchID, second.playerID, second.playerCredentials);
      const vs = (await dee.call('/games/watergate/vs-computer', { botSeat: '1', level: 'easy' })).body;
      const c = (await dee.call(`/games/watergate/${vs.matchID}/join`, { playerID: '0' })).body.playerCredentials;
      await resign(t.url, vs.matchID, '0', c);
      await until(async () => (await dee.call('/players/dee')).body.matches.length === 2, 'both records kept');
      const seen = (await api(t.url, '/players/dee')).body;
      expect(seen.matches.map((m: { matchID: string }) => m.matchID)).toEqual([vs.matchID, second.matchID]);
      expect(seen.byLevel).toEqual([{ level: 'easy', won: 0, lost: 1 }]);
    });
  });
}

const cluster = twoProcesses();

describe.skipIf(!hasPg)('two processes (PostgreSQL, Redis)', () => {
  it("a line said on one process reaches the seat on the other, never a spectator on either; a spectators' line reaches the spectators only", async () => {
    const [a, b] = (await cluster()).map((p) => p.url);
    const { matchID, creds } = await createAndJoinUnlisted(a);
    const ed = await follow(a, matchID, '0', creds['0']);
    const nx = await follow(b, matchID, '1', creds['1']);
    const watchers = [await follow(a, matchID, null), await follow(b, matchID, null)];
    say(ed.s, matchID, '0', 'across the bus');
    await until(() => nx.chat().length === 1, 'Nixon on the other process heard it');
    // The spectators' room crosses too, to the spectators only.
    watchers[0].s.emit(WATCHERS_SAY, matchID, 'watching from a');
    await until(() => watchers[1].watchers().length === 1, 'the spectator on b heard the one on a');
    const late = await follow(b, matchID, null);
    await grace();
    expect(nx.chat()).toEqual(['across the bus']);
    for (const w of [...watchers, late]) expect(w.chat()).toEqual([]);
    expect(watchers.map((w) => w.watchers().map((l) => l.text))).toEqual([['watching from a'], ['watching from a']]);
    for (const p of [ed, nx, late]) expect(p.watchers()).toEqual([]);
    for (const s of [ed.s, nx.s, late.s, ...watchers.map((w) => w.s)]) s.close();
  }, 180_000);
});
