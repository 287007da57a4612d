/** Bot accounts, NDJSON streams and a bot that plays random legal actions, for the challenge and event-stream tests. */
import { expect } from 'vitest';
import { api, until } from './helpers';
import { signUp, type Signed } from './account-helpers';

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A new account made a bot account, with its `bot` token (and the token's id, to revoke it). */
export async function botAccount(url: string, name: string): Promise<{ who: Signed; token: string; id: string; username: string }> {
  const who = await signUp(url, name);
  const t = await who.call('/auth/tokens', { name: 'kit', scopes: ['bot'] });
  expect(t.status).toBe(200);
  const up = await api(url, '/api/bot/upgrade', {}, bearer(t.body.token));
  expect(up.status, JSON.stringify(up.body)).toBe(200);
  return { who, token: t.body.token, id: t.body.id, username: name };
}

/** An open NDJSON stream: its response, its parsed lines (empty keep-alive lines counted apart; a refusal's body as its one line), whether it ended, and a way to close it. */
export function ndjson(url: string, path: string, headers: Record<string, string>) {
  const ac = new AbortController();
  const lines: any[] = [];
  let blanks = 0;
  let ended = false;
  let status = 0;
  const res = fetch(url + path, { headers, signal: ac.signal });
  const done = (async () => {
    try {
      const r = await res;
      status = r.status;
      if (r.status !== 200) {
        lines.push(await r.json().catch(() => null));
        return;
      }
      const reader = r.body!.getReader();
      const dec = new TextDecoder();
      let buf = '';
      for (;;) {
        const { done: end, value } = await reader.read();
        if (end) break;
        buf += dec.decode(value, { stream: true });
        for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
          const l = buf.slice(0, i);
          buf = buf.slice(i + 1);
          if (l.trim()) lines.push(JSON.parse(l));
          else blanks++;
        }
      }
    } catch {
      /* aborted */
    } finally {
      ended = true;
    }
  })();
  return { res, lines, blanks: () => blanks, status: () => status, ended: () => ended, done, close: () => ac.abort() };
}
export type Ndjson = ReturnType<typeof ndjson>;

/** Waits for a line of `type` (matching `pick`) on the stream. */
export async function lineOf(s: Ndjson, type: string, pick: (l: any) => boolean = () => true, ms = 20_000): Promise<any> {
  await until(() => s.lines.some((l) => l?.type === type && pick(l)), `a ${type} line`, ms);
  return s.lines.find((l) => l?.type === type && pick(l));
}

/** Plays the bot's seat of a match through its game stream with random legal actions until the game ends. */
export async function playOut(url: string, token: string, matchID: string, rng: () => number): Promise<any> {
  const s = ndjson(url, `/api/bot/game/stream/${matchID}`, bearer(token));
  let i = 0;
  try {
    for (;;) {
      await until(() => s.lines.length > i || s.ended(), 'a game line', 60_000);
      if (s.lines.length <= i) return s.lines.at(-1);
      const line = s.lines[i++];
      if (line.type === 'gameFinish') return line;
      if (s.lines.length > i || !line.legal?.length) continue; // the newest line only
      const a = line.legal[Math.floor(rng() * line.legal.length)];
      const r = await api(url, `/api/bot/game/${matchID}/move`, { stateID: line.stateID, action: a.id }, bearer(token));
      expect([200, 409], JSON.stringify(r.body)).toContain(r.status);
    }
  } finally {
    s.close();
  }
}
