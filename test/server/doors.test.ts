/**
 * The server's doors, tried over HTTP and real sockets against running servers: which browser origins
 * it serves (its own from PUBLIC_URL or the listen address, never from Host, against DNS rebinding) and
 * who may read /metrics (this machine, or the METRICS_TOKEN bearer; behind a trusted proxy the forwarded
 * address counts).
 */
import { request } from 'node:http';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../../server/config';
import { ownOrigins } from '../../server/origins';
import { api, rawSocket, startTestServer, stored, type TestServer } from './helpers';

/** One request with exactly these headers (fetch would not let a test choose Host). */
function raw(url: string, path: string, headers: Record<string, string>, method = 'GET', body?: string): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url + path, { method, headers: body ? { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } : headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const TOKEN = 'metrics-token-for-the-test-0123456789';
const externalIPv4 = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;

describe('the server\'s own origins', () => {
  it('come from PUBLIC_URL when set, else the listen address (wildcards: every interface and the loopback names)', () => {
    expect(ownOrigins({ publicUrl: 'https://watergate.example.org/games', host: '0.0.0.0', port: 8000 })).toEqual(['https://watergate.example.org']);
    expect(ownOrigins({ host: '127.0.0.1', port: 8000 })).toEqual(['http://127.0.0.1:8000', 'http://localhost:8000', 'http://[::1]:8000']);
    expect(ownOrigins({ host: '192.0.2.7', port: 80 })).toEqual(['http://192.0.2.7']);
    const interfaces = () => ['192.0.2.7', 'fd00::7', '127.0.0.1', '::1'];
    expect(ownOrigins({ host: '0.0.0.0', port: 8000, interfaces })).toEqual(['http://192.0.2.7:8000', 'http://127.0.0.1:8000', 'http://localhost:8000', 'http://[::1]:8000']);
    expect(ownOrigins({ host: '::', port: 8000, interfaces })).toContain('http://[fd00::7]:8000');
  });
});

describe('origins on a server listening on 127.0.0.1', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer('embedded', { origins: ['https://*.example.org'] });
  });
  afterAll(async () => t?.stop());
  const port = () => new URL(t.url).port;

  it('prints the address to open as http://localhost:<port>: browsers keep passkeys for names, never for 127.0.0.1', () => {
    const line = t.logs.map((l) => JSON.parse(l) as { msg: string; open?: string }).find((l) => l.msg.startsWith('listening'));
    expect(line?.open).toBe(`http://localhost:${port()}`);
    expect(line?.msg).toBe(`listening: open http://localhost:${port()} in a browser`);
  });

  it('refuses a rebound name (Origin equal to http://<Host>) on the API with 403, and creates nothing', async () => {
    const before = (await api(t.url, '/games/watergate')).body.matches.length;
    for (const evil of [`evil.example:${port()}`, 'evil.example', `127.0.0.1.evil.example:${port()}`]) {
      const r = await raw(t.url, '/games/watergate/create', { Host: evil, Origin: `http://${evil}` }, 'POST', '{}');
      expect(r.status, evil).toBe(403);
      expect(r.headers['access-control-allow-origin'], evil).toBeUndefined();
      expect(JSON.parse(r.text).error).toBe('origin not allowed');
    }
    expect((await api(t.url, '/games/watergate')).body.matches.length).toBe(before);
  });

  it('serves its own origin (whatever Host says), ORIGINS patterns, and requests without Origin', async () => {
    for (const origin of [t.url, `http://localhost:${port()}`, 'https://play.example.org']) {
      const r = await raw(t.url, '/games/watergate', { Host: 'evil.example', Origin: origin });
      expect(r.status, origin).toBe(200);
    }
    expect((await raw(t.url, '/games/watergate', { Host: 'evil.example' })).status).toBe(200); // a CLI
    expect((await raw(t.url, '/games/watergate', { Origin: 'https://deep.play.example.org' })).status).toBe(403); // one label only
  });

  it('never takes a turn-notification link from Host: without Origin the link uses the server\'s own address', async () => {
    const { matchID } = (await api(t.url, '/games/watergate/create', {})).body;
    const webhook = 'https://hooks.example.org/x';
    const body = JSON.stringify({ playerID: '0', playerName: 'Ann', data: { notify: { webhook } } });
    expect((await raw(t.url, `/games/watergate/${matchID}/join`, { Host: 'evil.example' }, 'POST', body)).status).toBe(200);
    expect((await stored(t.store, matchID)).metadata.players[0].data).toEqual({ notify: { webhook } });
    const fromPage = JSON.stringify({ playerID: '1', playerName: 'Ben', data: { notify: { webhook } } });
    expect((await raw(t.url, `/games/watergate/${matchID}/join`, { Host: 'evil.example', Origin: 'https://play.example.org' }, 'POST', fromPage)).status).toBe(200);
    expect((await stored(t.store, matchID)).metadata.players[1].data).toEqual({ notify: { webhook, base: 'https://play.example.org' } });
  });

  it('refuses the socket handshake from a rebound name, admits its own origin, patterns and no Origin', async () => {
    await expect(rawSocket(t.url, { Host: `evil.example:${port()}`, Origin: `http://evil.example:${port()}` })).rejects.toThrow();
    const poll = await raw(t.url, '/socket.io/?EIO=4&transport=polling', { Host: `evil.example:${port()}`, Origin: `http://evil.example:${port()}` });
    expect(poll.status).toBeGreaterThanOrEqual(400);
    expect(poll.headers['access-control-allow-origin']).toBeUndefined();
    for (const headers of <Record<string, string>[]>[{ Origin: t.url }, { Host: 'evil.example', Origin: `http://localhost:${port()}` }, { Origin: 'https://play.example.org' }, {}]) (await rawSocket(t.url, headers)).close();
    expect(t.logs.some((l) => l.includes('request refused') && l.includes('"type":"origin"') && l.includes('evil.example'))).toBe(true);
  });
});

describe('origins with PUBLIC_URL', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer('embedded', { publicUrl: 'https://watergate.example.org' });
  });
  afterAll(async () => t?.stop());

  it('serve the public address only: the listen address is then a back door no browser should use', async () => {
    expect((await raw(t.url, '/games/watergate', { Origin: 'https://watergate.example.org' })).status).toBe(200);
    expect((await raw(t.url, '/games/watergate', { Origin: t.url })).status).toBe(403);
    (await rawSocket(t.url, { Origin: 'https://watergate.example.org' })).close();
    await expect(rawSocket(t.url, { Origin: t.url })).rejects.toThrow();
  });
});

describe('/metrics', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer('embedded', { metricsToken: TOKEN, trustProxy: true });
  });
  afterAll(async () => t?.stop());
  const metrics = (headers: Record<string, string>) => raw(t.url, '/metrics', headers);

  it('answers a client on this machine', async () => {
    const r = await metrics({});
    expect(r.status).toBe(200);
    expect(r.text).toContain('wg_moves_total');
  });

  it('behind the trusted proxy, refuses a forwarded public address without the token and admits it with the token', async () => {
    const off = await metrics({ 'X-Forwarded-For': '203.0.113.9' });
    expect(off.status).toBe(403);
    expect(off.text).not.toContain('wg_');
    // A client cannot make itself local by sending its own X-Forwarded-For: the proxy appends the real one.
    expect((await metrics({ 'X-Forwarded-For': '127.0.0.1, 203.0.113.9' })).status).toBe(403);
    expect((await metrics({ 'X-Forwarded-For': '203.0.113.9', Authorization: 'Bearer wrong-token-of-the-same-size-01234' })).status).toBe(403);
    expect((await metrics({ 'X-Forwarded-For': '203.0.113.9', Authorization: TOKEN })).status).toBe(403); // no scheme
    const ok = await metrics({ 'X-Forwarded-For': '203.0.113.9', Authorization: `Bearer ${TOKEN}` });
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('wg_moves_total');
    expect((await metrics({ 'X-Forwarded-For': '127.0.0.1' })).status).toBe(200); // the monitor on the proxy's machine
    expect(t.logs.join('\n')).not.toContain(TOKEN);
  });

  it.skipIf(!externalIPv4)('refuses a peer off this machine without the token (server on every interface)', async () => {
    const s = await startTestServer('embedded', { host: '0.0.0.0', metricsToken: TOKEN });
    try {
      const url = `http://${externalIPv4}:${s.server.port}`;
      expect((await raw(url, '/metrics', {})).status).toBe(403);
      expect((await raw(url, '/metrics', { Authorization: `Bearer ${TOKEN}` })).status).toBe(200);
      // Without TRUST_PROXY a forwarded address is the client's own claim: it opens nothing.
      expect((await raw(url, '/metrics', { 'X-Forwarded-For': '127.0.0.1' })).status).toBe(403);
      // Listening on every interface, the interface's address is an own origin too.
      expect((await raw(url, '/games/watergate', { Origin: url })).status).toBe(200);
      expect((await raw(url, '/games/watergate', { Host: 'evil.example', Origin: 'http://evil.example' })).status).toBe(403);
    } finally {
      await s.stop();
    }
  });

  it('reads METRICS_TOKEN, refusing a short one without repeating it', () => {
    expect(configFromEnv({}).metricsToken).toBeUndefined();
    expect(configFromEnv({ METRICS_TOKEN: TOKEN }).metricsToken).toBe(TOKEN);
    expect(() => configFromEnv({ METRICS_TOKEN: 'short-secret' })).toThrow(/METRICS_TOKEN must be 24/);
    expect(() => configFromEnv({ METRICS_TOKEN: 'short-secret' })).not.toThrow(/short-secret/);
  });
});
