/**
 * Wrong passwords (docs/SECURITY.md "Accounts"): counted per (username, address) with an exponential
 * slowdown (limits.ts loginGuess, GUESS_WAIT), and per username from every address under a high ceiling
 * (loginName). A guesser elsewhere slows only itself: the owner, from their own address, is not locked
 * out by someone else's wrong guesses unless many addresses guess together past the ceiling.
 */
import { GUESS_WAIT, TooManyRequests, type Limiter } from '../limits';

const pair = (nameKey: string, address: string) => `${nameKey}\n${address}`;

/** Throws TooManyRequests (429, Retry-After) while this address must wait before guessing this username again. */
export async function mayGuess(limiter: Limiter, nameKey: string, address: string): Promise<void> {
  const mine = await limiter.held('loginGuess', pair(nameKey, address));
  if (mine > 0) throw new TooManyRequests('loginGuess', mine);
  const all = await limiter.spent('loginName', nameKey);
  if (all > 0) throw new TooManyRequests('loginName', all);
}

/** A wrong password: counted for both; past the free ones, this address waits twice as long as after the last. */
export async function wrongGuess(limiter: Limiter, nameKey: string, address: string): Promise<void> {
  const n = await limiter.count('loginGuess', pair(nameKey, address));
  const beyond = n - limiter.limits.loginGuess.points;
  if (beyond > 0) await limiter.hold('loginGuess', pair(nameKey, address), Math.min(GUESS_WAIT.maxSeconds, GUESS_WAIT.firstSeconds * 2 ** Math.min(beyond - 1, 30)) * 1000);
  await limiter.count('loginName', nameKey);
}

/** The right password: this address's wrong guesses at this username are forgotten. */
export const rightGuess = (limiter: Limiter, nameKey: string, address: string): Promise<void> => limiter.forget('loginGuess', pair(nameKey, address));
