/**
 * Passwords, hashed with node:crypto's scrypt (memory-hard) at OWASP's "N=2^15, r=8, p=3" point: 32 MiB
 * and about 0.1–0.4 s of one thread per hash on a 2-core server (docs/SECURITY.md "Accounts"). The
 * parameters are stored with each hash, so they can be raised later without invalidating old ones; the
 * work of new hashes (log2 of N, PASSWORD_COST) is 15 unless a server is told otherwise — the tests' own
 * servers use 10, where nothing is worth stealing and a hash costs a thirtieth.
 * At most HASHING.concurrent hashes run at once (memory stays bounded under a burst of logins). Those
 * waiting queue per client (an address), and a freed place goes to the clients in turn (round robin),
 * so an address flooding sign-ins waits behind its own hashes, not everyone else's: another address
 * waits for at most one hash per other address waiting. One client has at most HASHING.perClient hashes
 * running or waiting (past that: 429 at once); beyond HASHING.queue waiting in all, "busy" (503).
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { ServerBusyError } from '../storage/errors';

export const KDF = { r: 8, p: 3, keyLength: 32, saltLength: 16 } as const;
/** log2 of scrypt's N for new hashes: OWASP's point by default; never below 10 or above 20. */
export const PASSWORD_COST = { default: 15, min: 10, max: 20 } as const;
export const HASHING = { concurrent: 2, queue: 64, perClient: 8 } as const;

/** 1–200 characters, at least 8: longer pass phrases are welcome, longer bodies are not. */
export const PASSWORD = { min: 8, max: 200 } as const;

let running = 0;
let queued = 0;
/** Waiting hashes by client, in the order the clients take turns (a client served goes to the back). */
const waiting = new Map<string, (() => void)[]>();
/** Hashes running or waiting, by client. */
const inFlight = new Map<string, number>();

/** Too many logins in flight at once: nothing was checked, try again shortly (503 with Retry-After). */
export class HashingBusy extends ServerBusyError {
  constructor() {
    super('the server is busy checking passwords: try again in a moment');
  }
}

/** This client's own passwords are still being checked: nothing was checked, try again shortly (429 with Retry-After). */
export class ClientHashingBusy extends Error {
  readonly status = 429;
  readonly expose = true;
  readonly retryAfterSeconds = 1;
  constructor() {
    super('busy checking your earlier passwords: try again in a moment');
  }
}

/** The next client's turn: its oldest waiting hash starts, and the client goes to the back of the line. */
function nextTurn(): boolean {
  const first = waiting.entries().next();
  if (first.done) return false;
  const [client, queue] = first.value;
  const go = queue.shift()!;
  waiting.delete(client);
  if (queue.length > 0) waiting.set(client, queue);
  queued--;
  go();
  return true;
}

async function slot<T>(client: string | undefined, fn: () => Promise<T>): Promise<T> {
  const key = client ?? '';
  const mine = inFlight.get(key) ?? 0;
  if (client !== undefined && mine >= HASHING.perClient) throw new ClientHashingBusy();
  if (running >= HASHING.concurrent && queued >= HASHING.queue) throw new HashingBusy();
  inFlight.set(key, mine + 1);
  try {
    if (running >= HASHING.concurrent) {
      queued++;
      await new Promise<void>((r) => {
        const q = waiting.get(key);
        if (q) q.push(r);
        else waiting.set(key, [r]);
      });
    } else running++;
    try {
      return await fn();
    } finally {
      // The place passes to the next client's turn, or is given back.
      if (!nextTurn()) running--;
    }
  } finally {
    const left = (inFlight.get(key) ?? 1) - 1;
    if (left > 0) inFlight.set(key, left);
    else inFlight.delete(key);
  }
}

const derive = (client: string | undefined, password: string, salt: Buffer, N: number, r: number, p: number, len: number) =>
  slot(
    client,
    () =>
      new Promise<Buffer>((resolve, reject) =>
        scrypt(password.normalize('NFC'), salt, len, { N, r, p, maxmem: 256 * N * r + 1024 * 1024 }, (e, key) => (e ? reject(e) : resolve(key))),
      ),
  );

/** `scrypt$N$r$p$salt$hash` (base64url); `client` (its address) is held to HASHING.perClient at once. */
export async function hashPassword(password: string, client?: string, cost: number = PASSWORD_COST.default): Promise<string> {
  const salt = randomBytes(KDF.saltLength);
  const N = 2 ** cost;
  const key = await derive(client, password, salt, N, KDF.r, KDF.p, KDF.keyLength);
  return ['scrypt', N, KDF.r, KDF.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/**
 * A hash of nothing anyone knows, at the cost new hashes are made at: checked against when the account
 * does not exist, so both answers take as long.
 */
const decoys = new Map<number, Promise<string>>();
function decoy(cost: number): Promise<string> {
  let d = decoys.get(cost);
  if (!d) decoys.set(cost, (d = hashPassword(randomBytes(24).toString('base64url'), undefined, cost)));
  return d;
}

/**
 * Whether `password` matches `stored`; with no stored hash (unknown account, passkey only) a decoy made
 * at `cost` is checked and false returned.
 */
export async function checkPassword(password: string, stored: string | null, client?: string, cost: number = PASSWORD_COST.default): Promise<boolean> {
  const known = stored !== null;
  const [kind, n, r, p, salt, hash] = (stored ?? (await decoy(cost))).split('$');
  if (kind !== 'scrypt') return false;
  const want = Buffer.from(hash, 'base64url');
  const got = await derive(client, password, Buffer.from(salt, 'base64url'), Number(n), Number(r), Number(p), want.length);
  return timingSafeEqual(got, want) && known;
}
