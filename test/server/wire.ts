/**
 * The wire spoken by hand, for sending what no real client would: raw TCP (node:net), websocket frames
 * built byte by byte, engine.io/socket.io packets as text, and a seeded source of junk.
 */
import { randomBytes } from 'node:crypto';
import net from 'node:net';

const target = (url: string) => {
  const u = new URL(url);
  return { host: u.hostname, port: Number(u.port) };
};

export interface TcpResult {
  /** Everything the server sent back. */
  text: string;
  /** The server closed the connection (rather than our timeout or reset). */
  closedByServer: boolean;
}

/**
 * Sends `chunks` on a fresh connection, `gapMs` apart; then waits up to `ms` for the server to close.
 * With `reset`, the connection is reset (RST) right after the last chunk instead of waiting.
 */
export function tcp(url: string, chunks: (string | Buffer)[], o: { ms?: number; gapMs?: number; reset?: boolean } = {}): Promise<TcpResult> {
  return new Promise((resolve) => {
    const s = net.connect(target(url));
    const got: Buffer[] = [];
    let settled = false;
    const done = (closedByServer: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      s.destroy();
      resolve({ text: Buffer.concat(got).toString('latin1'), closedByServer });
    };
    const timer = setTimeout(() => done(false), o.ms ?? 3_000);
    s.on('data', (d) => got.push(d));
    s.on('error', () => done(true));
    s.on('close', () => done(true));
    s.on('connect', async () => {
      for (const c of chunks) {
        if (s.destroyed) return;
        s.write(c);
        if (o.gapMs) await new Promise((r) => setTimeout(r, o.gapMs));
      }
      if (o.reset) {
        s.resetAndDestroy();
        done(false);
      }
    });
  });
}

/** One websocket frame, client to server (masked unless told otherwise). */
export function frame(opcode: number, payload: Buffer | string, o: { fin?: boolean; rsv?: number; mask?: boolean; claimedLength?: number } = {}): Buffer {
  const data = Buffer.isBuffer(payload) ? payload : Buffer.from(payload);
  const len = o.claimedLength ?? data.length;
  const mask = o.mask ?? true;
  const head: number[] = [((o.fin ?? true) ? 0x80 : 0) | ((o.rsv ?? 0) << 4) | (opcode & 0x0f)];
  const m = mask ? 0x80 : 0;
  if (len < 126) head.push(m | len);
  else if (len < 65536) head.push(m | 126, len >> 8, len & 0xff);
  else {
    const b = Buffer.alloc(8);
    b.writeBigUInt64BE(BigInt(len));
    head.push(m | 127, ...b);
  }
  if (!mask) return Buffer.concat([Buffer.from(head), data]);
  const key = randomBytes(4);
  const masked = Buffer.from(data.map((byte, i) => byte ^ key[i % 4]));
  return Buffer.concat([Buffer.from(head), key, masked]);
}

/** A websocket to engine.io spoken by hand: text messages received, frames sent as given. */
export interface RawWs {
  /** Text messages the server sent (engine.io packets). */
  messages: string[];
  send(text: string): void;
  sendRaw(bytes: Buffer): void;
  readonly open: boolean;
  /** The server sent a close frame (it ends the connection; its TCP close may follow later). */
  readonly closing: boolean;
  closed: Promise<void>;
  reset(): void;
  close(): void;
}

export function rawWs(url: string, path = '/socket.io/?EIO=4&transport=websocket', headers: Record<string, string> = {}): Promise<RawWs> {
  return new Promise((resolve, reject) => {
    const s = net.connect(target(url));
    const messages: string[] = [];
    let buf = Buffer.alloc(0);
    let upgraded = false;
    let open = true;
    let closing = false;
    let closedResolve!: () => void;
    const closed = new Promise<void>((r) => (closedResolve = r));
    s.on('error', () => undefined);
    s.on('close', () => {
      open = false;
      closedResolve();
      if (!upgraded) reject(new Error('closed before the upgrade'));
    });
    s.on('connect', () => {
      const extra = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('');
      s.write(`GET ${path} HTTP/1.1\r\nHost: ${target(url).host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n${extra}\r\n`);
    });
    s.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      if (!upgraded) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buf.subarray(0, end).toString('latin1');
        buf = buf.subarray(end + 4);
        if (!head.startsWith('HTTP/1.1 101')) return reject(new Error(`no upgrade: ${head.split('\r\n')[0]}`));
        upgraded = true;
        resolve(ws);
      }
      // Server frames: unmasked, unfragmented text (and control) frames.
      while (buf.length >= 2) {
        let len = buf[1] & 0x7f;
        let at = 2;
        if (len === 126) {
          if (buf.length < 4) return;
          len = buf.readUInt16BE(2);
          at = 4;
        } else if (len === 127) {
          if (buf.length < 10) return;
          len = Number(buf.readBigUInt64BE(2));
          at = 10;
        }
        if (buf.length < at + len) return;
        if ((buf[0] & 0x0f) === 1) messages.push(buf.subarray(at, at + len).toString('utf8'));
        if ((buf[0] & 0x0f) === 8) closing = true;
        buf = buf.subarray(at + len);
      }
    });
    const ws: RawWs = {
      messages,
      send: (text) => open && s.write(frame(1, text)),
      sendRaw: (bytes) => open && s.write(bytes),
      get open() {
        return open;
      },
      get closing() {
        return closing;
      },
      closed,
      reset: () => s.resetAndDestroy(),
      close: () => s.destroy(),
    };
  });
}

/** A small seeded PRNG (mulberry32): the same junk on every run, a new seed to explore. */
export function seeded(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)];
  return { next, int, pick };
}
export type Rng = ReturnType<typeof seeded>;

const KEYS = ['type', 'payload', 'args', 'playerID', 'credentials', 'id', 'sender', '__proto__', 'constructor', 'toString', 'valueOf', 'toJSON', 'length', '_placeholder', 'num', ''];
const STRINGS = ['', 'sync', 'update', 'chat', '0', '1', '2', 'MAKE_MOVE', 'GAME_EVENT', 'UNDO', 'play', 'pin', 'resign', 'timeout', 'forfeit', 'abort', '\u202e\u0000', '../../etc/passwd', '{"a":1}', '%s%n'];

/** A random JSON value of any type, nested at most `depth` deep. */
export function jsonValue(r: Rng, depth = 3): unknown {
  const kind = r.int(depth > 0 ? 9 : 6);
  switch (kind) {
    case 0:
      return null;
    case 1:
      return r.next() < 0.5;
    case 2:
      return r.pick([0, -1, 1, 2, 1.5, 1e308, -1e308, 2 ** 53 + 1, r.int(1000)]);
    case 3:
      return r.pick(STRINGS);
    case 4:
      return 'x'.repeat(r.pick([1, 40, 201, 3000]));
    case 5:
      return String.fromCharCode(...Array.from({ length: r.int(20) }, () => r.int(0xffff)));
    case 6:
    case 7:
      return Array.from({ length: r.int(4) }, () => jsonValue(r, depth - 1));
    default: {
      const o: Record<string, unknown> = {};
      for (let i = r.int(4); i > 0; i--) Object.defineProperty(o, r.pick(KEYS), { value: jsonValue(r, depth - 1), enumerable: true, configurable: true, writable: true });
      return o;
    }
  }
}

/** An event name of any JSON type (strings both known and not). */
export function eventName(r: Rng): unknown {
  return r.next() < 0.5 ? r.pick(['sync', 'update', 'chat', 'connect', 'disconnect', 'error', 'newListener', 'connect_error', 'disconnecting']) : jsonValue(r, 1);
}

/** Sometimes the real thing, sometimes any JSON value. */
const maybe = (r: Rng, real: unknown) => (r.next() < 0.6 ? real : jsonValue(r, 2));

/**
 * Arguments shaped like boardgame.io's own (so that they get past the first checks and reach the deeper
 * ones), with any field replaced by junk now and then.
 */
export function plausibleEvent(r: Rng, matchID: string): unknown[] {
  const seat = () => maybe(r, r.pick(['0', '1', null]));
  const id = () => maybe(r, r.next() < 0.7 ? matchID : 'NoSuchMatch');
  switch (r.pick(['sync', 'update', 'chat', 'other'])) {
    case 'sync':
      return ['sync', id(), seat(), maybe(r, 'x'.repeat(32)), maybe(r, 2)];
    case 'update': {
      const p = seat();
      const payload = maybe(r, { type: maybe(r, r.pick(['play', 'pin', 'resign', 'timeout', 'forfeit', 'abort', 'cheat'])), args: maybe(r, [jsonValue(r, 2)]), playerID: r.next() < 0.7 ? p : seat(), credentials: maybe(r, 'forged') });
      return ['update', maybe(r, { type: maybe(r, 'MAKE_MOVE'), payload }), maybe(r, r.int(5)), id(), p];
    }
    case 'chat':
      return ['chat', id(), maybe(r, { id: maybe(r, `c${r.int(1000)}`), sender: seat(), payload: maybe(r, 'hello') })];
    default:
      return [r.pick(['hack', 'matchData', 'patch', 'watergate:error', '__proto__', 'constructor', '']), ...Array.from({ length: r.int(3) }, () => jsonValue(r))];
  }
}

/** A socket.io packet as text: mostly well-formed events (on `/` or the game), sometimes any shape. */
export function socketIoPacket(r: Rng, matchID: string): string {
  const nsp = r.pick(['', '/watergate,', '/watergate,', '/', '/other,', '/watergate']);
  const roll = r.next();
  if (roll < 0.5) return `2/watergate,${JSON.stringify(plausibleEvent(r, matchID))}`;
  if (roll < 0.6) {
    const args = Array.from({ length: r.int(5) }, () => (r.next() < 0.2 ? matchID : jsonValue(r)));
    const ack = r.next() < 0.2 ? String(r.int(100)) : '';
    return `2${nsp}${ack}${JSON.stringify([eventName(r), ...args])}`;
  }
  if (roll < 0.75) return `${r.int(10)}${nsp}${JSON.stringify(jsonValue(r))}`;
  if (roll < 0.85) return `5${r.int(3)}-${nsp}${JSON.stringify(['update', { _placeholder: true, num: r.int(3) }])}`;
  return String.fromCharCode(...Array.from({ length: r.int(30) }, () => r.int(128)));
}

/** An engine.io packet carrying socket.io junk, or an engine.io packet of another type. */
export function engineIoPacket(r: Rng, matchID: string): string {
  const roll = r.next();
  if (roll < 0.75) return `4${socketIoPacket(r, matchID)}`;
  if (roll < 0.85) return `${r.pick(['0', '1', '2', '3', '5', '6', '7', 'b', 'x', ''])}${r.pick(['', 'probe', '{}', JSON.stringify(jsonValue(r, 1))])}`;
  return socketIoPacket(r, matchID);
}
