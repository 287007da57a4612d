/**
 * Turn notifications (server/notify): a seat with a webhook and no socket connected gets one POST
 * `{"content"}` with the match link when a decision becomes its own (and when the game starts with its
 * decision); a connected seat gets none; a failing webhook is retried; loopback and private addresses are
 * refused unless allowed; bad addresses get 400; the address never reaches anyone else. The second game
 * of a paired challenge reaches both players' account webhooks when it is made.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlayerID } from '../../game/index';
import { configFromEnv } from '../../server/config';
import { isPublicAddress, webhookProblem } from '../../server/notify/webhook';
import { api, player, startTestServer, stored, until, type TestServer } from './helpers';
import { signUp } from './account-helpers';
import { resign, seatOf } from './event-helpers';
import { playUntil } from './helpers';

/** A webhook receiver on loopback: records each POST; `answers[path]` lists statuses to give first (then 204; 0: no answer). */
async function receiver() {
  const got: { path: string; body: any; type?: string }[] = [];
  const answers: Record<string, number[]> = {};
  const server: Server = createServer((req: IncomingMessage, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      got.push({ path: req.url!, body: JSON.parse(raw), type: req.headers['content-type'] });
      const status = answers[req.url!]?.shift() ?? 204;
      if (status === 0) return;
      res.statusCode = status;
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return { got, answers, port, url: (path: string) => `http://127.0.0.1:${port}${path}`, to: (path: string) => got.filter((g) => g.path === path), close: () => new Promise((r) => server.close(r)) };
}

let hooks: Awaited<ReturnType<typeof receiver>>;
let t: TestServer;
beforeAll(async () => {
  hooks = await receiver();
  t = await startTestServer('embedded', { webhooks: { allowLocal: true, retryDelayMs: 50, timeoutMs: 400 }, origins: ['https://play.example'] });
});
afterAll(async () => {
  await t?.stop();
  await hooks?.close();
});

const settle = () => new Promise((r) => setTimeout(r, 400));

/** A match with both seats taken, each with its own webhook path (or none). */
async function match(s: TestServer, webhooks: Partial<Record<PlayerID, string>>) {
  const { matchID } = (await api(s.url, '/games/watergate/create', {})).body;
  const creds = {} as Record<PlayerID, string>;
  for (const seat of ['0', '1'] as const) {
    const data = webhooks[seat] ? { notify: { webhook: webhooks[seat] } } : undefined;
    const r = await api(s.url, `/games/watergate/${matchID}/join`, { playerID: seat, playerName: seat === '0' ? 'Ann' : 'Bob', data });
    expect(r.status).toBe(200);
    creds[seat] = r.body.playerCredentials;
  }
  return { matchID: matchID as string, creds };
}


const presence = async (s: TestServer, matchID: string, seat: PlayerID) => (await api(s.url, `/games/watergate/${matchID}`)).body.players[Number(seat)].isConnected === true;
const counted = async (s: TestServer, result: string) => {
  const text = await s.server.metrics.registry.getSingleMetricAsString('wg_webhooks_total');
  return Number(text.match(new RegExp(`result="${result}"\\} (\\d+)`))?.[1] ?? 0);
};

describe('the address check', () => {
  it('refuses loopback, private, link-local, unique-local, unspecified and IPv4-mapped private addresses', () => {
    for (const ip of ['10.1.2.3', '192.168.0.10', '172.16.5.4', '127.0.0.1', '::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '169.254.169.254', 'fc00::1', 'fe80::1', '0.0.0.0', '::', '100.64.0.1', '224.0.0.1', 'not an ip'])
      expect(isPublicAddress(ip), ip).toBe(false);
    for (const ip of ['93.184.216.34', '8.8.8.8', '2001:4860:4860::8888', '::ffff:8.8.8.8']) expect(isPublicAddress(ip), ip).toBe(true);
  });
  it('accepts http(s) URLs only, without credentials, of reasonable length', () => {
    expect(webhookProblem('https://discord.com/api/webhooks/1/abc')).toBeNull();
    for (const bad of ['ftp://example.org/x', 'javascript:alert(1)', 'example.org/hook', 'https://user:pw@example.org/x', `https://example.org/${'a'.repeat(600)}`, 42])
      expect(webhookProblem(bad), String(bad)).not.toBeNull();
  });
});

describe('turn notifications', () => {
  it('an absent seat gets one POST when the game starts with its decision and one when its turn comes; a connected seat none', async () => {
    const { matchID, creds } = await match(t, { '0': hooks.url('/ann'), '1': hooks.url('/bob') });
    const link = `${t.url}/#/match/${matchID}`;
    // The Editor decides first and is not connected: told when Bob's join starts the game.
    await until(() => hooks.to('/ann').length === 1, 'the start notification');
    expect(hooks.to('/ann')[0]).toMatchObject({ type: 'application/json', body: { content: expect.stringContaining(link) } });
    expect(hooks.to('/ann')[0].body.content).toMatch(/first decision is yours \(the Editor\)/);
    expect(Object.keys(hooks.to('/ann')[0].body)).toEqual(['content']);

    // Bob watches his board: the Editor's decisions passing to him send nothing.
    const bob = player(t.url, matchID, '1', creds['1']);
    await until(() => presence(t, matchID, '1'), 'Bob connected');
    await playUntil(t, matchID, '1');
    // Ann, still away, is told when the decision comes back to her: once.
    await playUntil(t, matchID, '0');
    await until(() => hooks.to('/ann').length === 2, "Ann's turn notification");
    await settle();
    expect(hooks.to('/bob')).toHaveLength(0);
    expect(hooks.to('/ann')).toHaveLength(2);
    expect(hooks.to('/ann')[1].body.content).toBe(`Watergate: it is your turn (the Editor) in match ${matchID}. ${link}`);

    // Bob closes his board; his next turn reaches his webhook.
    bob.stop();
    await until(async () => !(await presence(t, matchID, '1')), 'Bob gone');
    await playUntil(t, matchID, '1');
    await until(() => hooks.to('/bob').length === 1, "Bob's turn notification");
    await settle();
    expect(hooks.to('/bob')).toHaveLength(1);
    expect(hooks.to('/bob')[0].body.content).toContain(`(Nixon) in match ${matchID}. ${link}`);
    // Nobody else ever saw the addresses: Bob's socket, the match and the list.
    const seen = [JSON.stringify(bob.received), JSON.stringify((await api(t.url, `/games/watergate/${matchID}`)).body), JSON.stringify((await api(t.url, '/games/watergate')).body)];
    for (const text of seen) {
      expect(text).not.toContain(`127.0.0.1:${hooks.port}`);
      expect(text).not.toContain('notify');
    }
  });

  it("the second game of a paired challenge is posted to both players' account webhooks, naming the match and each one's side", async () => {
    const [cat, dan] = [await signUp(t.url, 'HookCat'), await signUp(t.url, 'HookDan')];
    expect((await cat.call('/me/settings', { webhook: hooks.url('/cat') })).status).toBe(200);
    expect((await dan.call('/me/settings', { webhook: hooks.url('/dan') })).status).toBe(200);
    const id = (await cat.call('/api/challenge/HookDan', { paired: true, side: 'editor', clock: 'none' })).body.id as string;
    const acc = await dan.call(`/api/challenge/${id}/accept`, {});
    expect(acc.status, JSON.stringify(acc.body)).toBe(200);
    const first = acc.body.matchID as string;
    const s1 = await seatOf(dan, first);
    await resign(t.url, first, s1.playerID, s1.playerCredentials);
    await until(async () => (await cat.call(`/api/challenge/${id}`)).body.pair.games.length === 2, 'the second game of the pair');
    const second = (await cat.call(`/api/challenge/${id}`)).body.pair.games[1].matchID as string;
    const pairPosts = (path: string) => hooks.to(path).filter((g) => /second game of your pair/.test(g.body.content));
    await until(() => pairPosts('/cat').length === 1 && pairPosts('/dan').length === 1, 'both pair webhooks');
    const link = `${t.url}/#/match/${second}`;
    expect(pairPosts('/cat')[0].body.content).toBe(`Watergate: the second game of your pair has started (the same deal, sides swapped); it is match ${second} (Nixon). ${link}`);
    expect(pairPosts('/dan')[0].body.content).toBe(`Watergate: the second game of your pair has started (the same deal, sides swapped); it is match ${second} (the Editor). ${link}`);
    await settle();
    expect([pairPosts('/cat').length, pairPosts('/dan').length]).toEqual([1, 1]);
  });

  it('retries a webhook that answers 500, with a pause, and counts the result', async () => {
    hooks.answers['/flaky'] = [500];
    const before = await counted(t, 'sent');
    const { matchID } = await match(t, { '1': hooks.url('/flaky') });
    await playUntil(t, matchID, '1');
    await until(() => hooks.to('/flaky').length === 2, 'the retry');
    expect(hooks.to('/flaky')[1].body).toEqual(hooks.to('/flaky')[0].body);
    await until(async () => (await counted(t, 'sent')) === before + 1, 'the counter');
    await settle();
    expect(hooks.to('/flaky')).toHaveLength(2);
  });

  it('a webhook that never answers does not slow the move: three attempts, each given up after its timeout', async () => {
    hooks.answers['/silent'] = [0, 0, 0];
    const before = await counted(t, 'failed');
    const { matchID } = await match(t, { '1': hooks.url('/silent') });
    await t.server.service.current(matchID);
    // The moves up to Bob's decision return at once, while his webhook is being called.
    const started = Date.now();
    await playUntil(t, matchID, '1');
    // Sooner than one attempt's timeout (400 ms), and with the sending still under way.
    expect(Date.now() - started).toBeLessThan(400);
    expect(await counted(t, 'failed')).toBe(before);
    await until(() => hooks.to('/silent').length >= 1, 'the first attempt');
    await until(async () => (await counted(t, 'failed')) === before + 1, 'the failure counted', 10_000);
    expect(hooks.to('/silent')).toHaveLength(3);
    expect(t.logs.join('\n')).toMatch(/"reasons":\["ETIMEDOUT","ETIMEDOUT","ETIMEDOUT"\]/);
  });

  it('does not retry a webhook that answers 404 (it will not come back)', async () => {
    hooks.answers['/gone'] = [404, 404, 404];
    const before = await counted(t, 'failed');
    const { matchID } = await match(t, { '1': hooks.url('/gone') });
    await playUntil(t, matchID, '1');
    await until(async () => (await counted(t, 'failed')) === before + 1, 'the failure counted');
    expect(hooks.to('/gone')).toHaveLength(1);
  });

  it('registers, replaces and removes a webhook from the board; refuses bad addresses and wrong credentials', async () => {
    const { matchID, creds } = await match(t, {});
    const route = (body: object) => api(t.url, `/games/watergate/${matchID}/notify`, body);
    for (const webhook of ['ftp://example.org/x', 'https://u:p@example.org/x', 'no url', 7]) {
      const r = await route({ playerID: '1', credentials: creds['1'], webhook });
      expect(r.status, String(webhook)).toBe(400);
      expect(r.body.error).toMatch(/^webhook /);
    }
    expect((await route({ playerID: '1', credentials: creds['0'], webhook: hooks.url('/x') })).status).toBe(403);
    expect((await api(t.url, '/games/watergate/nosuchmatch/notify', { playerID: '1', credentials: creds['1'], webhook: hooks.url('/x') })).status).toBe(404);
    expect((await route({ playerID: '1', credentials: creds['1'], webhook: hooks.url('/x') })).body).toEqual({ webhook: true });
    // Registered from a page on another allowed origin: the link points there.
    const fromPage = await api(t.url, `/games/watergate/${matchID}/notify`, { playerID: '1', credentials: creds['1'], webhook: hooks.url('/later') }, { origin: 'https://play.example' });
    expect(fromPage.body).toEqual({ webhook: true });
    expect((await stored(t.store, matchID)).metadata.players[1].data).toEqual({ notify: { webhook: hooks.url('/later'), base: 'https://play.example' } });
    await playUntil(t, matchID, '1');
    await until(() => hooks.to('/later').length === 1, 'the registered webhook');
    expect(hooks.to('/later')[0].body.content).toContain(`https://play.example/#/match/${matchID}`);
    expect(hooks.to('/x')).toHaveLength(0);
    expect((await route({ playerID: '1', credentials: creds['1'], webhook: null })).body).toEqual({ webhook: false });
    expect((await stored(t.store, matchID)).metadata.players[1].data).toBeUndefined();
    await playUntil(t, matchID, '1');
    await settle();
    expect(hooks.to('/later')).toHaveLength(1);
  });

  it('checks data.notify when joining: 400 naming the field', async () => {
    const { matchID } = (await api(t.url, '/games/watergate/create', {})).body;
    const join = (data: unknown) => api(t.url, `/games/watergate/${matchID}/join`, { playerID: '0', playerName: 'Ann', data });
    for (const [data, field] of [
      [{ notify: { webhook: 'gopher://example.org' } }, 'data.notify.webhook'],
      [{ notify: { webhook: '' } }, 'data.notify.webhook'],
      [{ notify: 'https://example.org' }, 'data.notify'],
      [{ notify: { webhook: 'https://example.org', base: 'https://evil.example' } }, 'data.notify.base'],
    ] as const) {
      const r = await join(data);
      expect(r.status).toBe(400);
      expect(r.body.error).toContain(field);
    }
    expect((await stored(t.store, matchID)).metadata.players[0].name).toBeUndefined();
  });
});

describe('configuration', () => {
  it('reads ALLOW_LOCAL_WEBHOOKS (off by default) and PUBLIC_URL, refusing bad values by name', () => {
    expect(configFromEnv({})).toMatchObject({ allowLocalWebhooks: false, publicUrl: undefined });
    expect(configFromEnv({ ALLOW_LOCAL_WEBHOOKS: '1', PUBLIC_URL: 'https://watergate.example.org/' })).toMatchObject({ allowLocalWebhooks: true, publicUrl: 'https://watergate.example.org' });
    expect(() => configFromEnv({ ALLOW_LOCAL_WEBHOOKS: 'yes' })).toThrow(/ALLOW_LOCAL_WEBHOOKS/);
    expect(() => configFromEnv({ PUBLIC_URL: 'ftp://example.org' })).toThrow(/PUBLIC_URL/);
  });

  it('links to PUBLIC_URL when it is set, whatever page registered the webhook', async () => {
    const s = await startTestServer('embedded', { webhooks: { allowLocal: true }, publicUrl: 'https://watergate.example.org/games' });
    try {
      const { matchID } = await match(s, { '1': hooks.url('/public') });
      await playUntil(s, matchID, '1');
      await until(() => hooks.to('/public').length === 1, 'the notification');
      expect(hooks.to('/public')[0].body.content).toContain(`https://watergate.example.org/games/#/match/${matchID}`);
    } finally {
      await s.stop();
    }
  });
});

describe('without ALLOW_LOCAL_WEBHOOKS', () => {
  let strict: TestServer;
  beforeAll(async () => {
    strict = await startTestServer('embedded', { webhooks: { retryDelayMs: 50 } });
  });
  afterAll(async () => strict?.stop());

  it('refuses loopback webhooks, as an address or as a name that resolves to one: nothing reaches them', async () => {
    const before = await counted(strict, 'refused');
    const { matchID } = await match(strict, { '0': hooks.url('/literal'), '1': `http://localhost:${hooks.port}/named` });
    await playUntil(strict, matchID, '1');
    await playUntil(strict, matchID, '0');
    // The start (Ann's decision) and Bob's and Ann's turns: three refusals, no request.
    await until(async () => (await counted(strict, 'refused')) === before + 3, 'the refusals');
    await settle();
    expect(hooks.to('/literal')).toHaveLength(0);
    expect(hooks.to('/named')).toHaveLength(0);
    expect(strict.logs.join('\n')).not.toContain('/named');
  });
});
