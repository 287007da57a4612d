/**
 * Passwords, hashed with node:crypto's scrypt (memory-hard) at OWASP's "N=2^15, r=8, p=3" point: 32 MiB
 * and about 0.1–0.4 s of one thread per hash on a 2-core server (docs/SECURITY.md "Accounts"). The
 * parameters are stored with each hash, so they can be raised later without invalidating old ones.
 * At most HASHING.concurrent hashes run at once (memory stays bounded under a burst of logins); beyond
 * HASHING.queue waiting, a login is answered "busy" (503) instead of piling up.
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { StorageUnavailableError } from '../storage/errors';

export const KDF = { N: 2 ** 15, r: 8, p: 3, keyLength: 32, saltLength: 16 } as const;
export const HASHING = { concurrent: 2, queue: 32 } as const;

/** 1–200 characters, at least 8: longer pass phrases are welcome, longer bodies are not. */
export const PASSWORD = { min: 8, max: 200 } as const;

let running = 0;
const waiting: (() => void)[] = [];

/** Too many logins in flight at once: nothing was checked, try again shortly (503 with Retry-After). */
export class HashingBusy extends StorageUnavailableError {
  override message = 'the server is busy checking passwords: try again in a moment';
}

async function slot<T>(fn: () => Promise<T>): Promise<T> {
  if (running >= HASHING.concurrent) {
    if (waiting.length >= HASHING.queue) throw new HashingBusy();
    await new Promise<void>((r) => waiting.push(r));
  } else running++;
  try {
    return await fn();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

const derive = (password: string, salt: Buffer, N: number, r: number, p: number, len: number) =>
  slot(
    () =>
      new Promise<Buffer>((resolve, reject) =>
        scrypt(password.normalize('NFC'), salt, len, { N, r, p, maxmem: 256 * N * r + 1024 * 1024 }, (e, key) => (e ? reject(e) : resolve(key))),
      ),
  );

/** `scrypt$N$r$p$salt$hash` (base64url). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(KDF.saltLength);
  const key = await derive(password, salt, KDF.N, KDF.r, KDF.p, KDF.keyLength);
  return ['scrypt', KDF.N, KDF.r, KDF.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** A hash of nothing anyone knows: checked against when the account does not exist, so both answers take as long. */
const DECOY = hashPassword(randomBytes(24).toString('base64url'));

/** Whether `password` matches `stored`; with no stored hash (unknown account, passkey only) a decoy is checked and false returned. */
export async function checkPassword(password: string, stored: string | null): Promise<boolean> {
  const known = stored !== null;
  const [kind, n, r, p, salt, hash] = (stored ?? (await DECOY)).split('$');
  if (kind !== 'scrypt') return false;
  const want = Buffer.from(hash, 'base64url');
  const got = await derive(password, Buffer.from(salt, 'base64url'), Number(n), Number(r), Number(p), want.length);
  return timingSafeEqual(got, want) && known;
}
