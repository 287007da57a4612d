/** Hash routes, so the server only ever serves index.html: #/ lobby, #/match/ID, #/replay/ID, #/local, #/rules, #/tutorial, #/account, #/player/NAME, #/leaderboard. */
import { useEffect, useState } from 'react';

export type Route = { page: 'lobby' } | { page: 'match'; matchID: string } | { page: 'replay'; matchID: string } | { page: 'local' } | { page: 'rules' } | { page: 'tutorial' } | { page: 'account' } | { page: 'player'; username: string } | { page: 'leaderboard' } | { page: 'missing' };

function parseRoute(hash: string): Route {
  const path = hash.replace(/^#/, '') || '/';
  if (path === '/' || path === '') return { page: 'lobby' };
  const m = /^\/(match|replay)\/([A-Za-z0-9_-]{1,64})$/.exec(path);
  if (m) return { page: m[1] as 'match' | 'replay', matchID: m[2] };
  if (path === '/local') return { page: 'local' };
  if (path === '/rules') return { page: 'rules' };
  if (path === '/tutorial') return { page: 'tutorial' };
  if (path === '/account') return { page: 'account' };
  if (path === '/leaderboard') return { page: 'leaderboard' };
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

export function useRoute(): Route {
  const [hash, setHash] = useState(() => window.location.hash);
  useEffect(() => {
    const on = () => setHash(window.location.hash);
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);
  return parseRoute(hash);
}

export const go = (hash: string) => {
  window.location.hash = hash;
};
