/** Hash routes, so the server only ever serves index.html: #/ lobby, #/match/ID, #/replay/ID, #/replay-file, #/local, #/rules, #/tutorial, #/account, #/player/NAME, #/leaderboard, #/events, #/events/ID, #/seasons, #/seasons/ID, #/reset/TOKEN, #/verify-email/TOKEN. */
import { useSyncExternalStore } from 'react';

export type Route = { page: 'lobby' } | { page: 'match'; matchID: string } | { page: 'replay'; matchID: string } | { page: 'replayFile' } | { page: 'local' } | { page: 'rules' } | { page: 'tutorial' } | { page: 'account' } | { page: 'player'; username: string } | { page: 'leaderboard' } | { page: 'events' } | { page: 'event'; id: string } | { page: 'seasons'; id?: string } | { page: 'reset'; token: string } | { page: 'verify-email'; token: string } | { page: 'missing' };

function parseRoute(hash: string): Route {
  const path = hash.replace(/^#/, '') || '/';
  if (path === '/' || path === '') return { page: 'lobby' };
  const m = /^\/(match|replay)\/([A-Za-z0-9_-]{1,64})$/.exec(path);
  if (m) return { page: m[1] as 'match' | 'replay', matchID: m[2] };
  if (path === '/replay-file') return { page: 'replayFile' };
  if (path === '/local') return { page: 'local' };
  if (path === '/rules') return { page: 'rules' };
  if (path === '/tutorial') return { page: 'tutorial' };
  if (path === '/account') return { page: 'account' };
  if (path === '/leaderboard') return { page: 'leaderboard' };
  if (path === '/events') return { page: 'events' };
  if (path === '/seasons') return { page: 'seasons' };
  const season = /^\/seasons\/(\d{4}-Q[1-4])$/.exec(path);
  if (season) return { page: 'seasons', id: season[1] };
  const event = /^\/events\/([A-Za-z0-9_-]{1,32})$/.exec(path);
  if (event) return { page: 'event', id: event[1] };
  // E-mail links (server/mail/routes.ts): the token is 32 random bytes in base64url.
  const mailed = /^\/(reset|verify-email)\/([A-Za-z0-9_-]{43})$/.exec(path);
  if (mailed) return { page: mailed[1] as 'reset' | 'verify-email', token: mailed[2] };
  const player = /^\/player\/([^/]{1,200})$/.exec(path);
  if (player) {
    try {
      return { page: 'player', username: decodeURIComponent(player[1]) };
    } catch {
      return { page: 'missing' };
    }
  }
  return { page: 'missing' };
}

const onHashChange = (on: () => void) => {
  window.addEventListener('hashchange', on);
  return () => window.removeEventListener('hashchange', on);
};
const currentHash = () => window.location.hash;

/**
 * The page's route, read as an external store: the address may change between the first render and the
 * moment the listener is attached after it (a link followed, or a script navigating, just as the page
 * first draws: its hashchange event then reaches nobody), and the store reads the hash again once it
 * listens, so that change is not lost.
 */
export function useRoute(): Route {
  return parseRoute(useSyncExternalStore(onHashChange, currentHash));
}

export const go = (hash: string) => {
  window.location.hash = hash;
};
