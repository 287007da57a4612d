/**
 * "Play now" looks at the open list before it queues: a listed match where a person already sits and
 * waits, on terms this player asked for, is joined at once — so nobody is offered the computer while a
 * human's open match waits in the list. The server still decides (a seat taken meanwhile is refused and
 * Play now then queues as before).
 */
import type { PlayerID } from '../../game';
import { botLevelOf, type PublicMatch } from '../../protocol/index';
import { timeControlOf, type TimeControl } from '../../protocol/rated';

export interface Wish {
  side: 'either' | PlayerID;
  clock: TimeControl;
  rated: boolean;
}

const ROLES: PlayerID[] = ['0', '1'];

/** The longest-waiting open match this wish fits and the seat to take in it, or null. */
export function openMatchFor(matches: readonly PublicMatch[], wish: Wish, mine: ReadonlySet<string>, now = Date.now()): { matchID: string; seat: PlayerID } | null {
  const fits = matches
    .filter((m) => !m.gameover && !mine.has(m.matchID) && !m.unlisted && !!m.rated === wish.rated)
    .filter((m) => timeControlOf((m.setupData as { clock?: { initialSeconds?: unknown; incrementSeconds?: unknown } } | undefined)?.clock) === wish.clock)
    .map((m) => {
      const seated = ROLES.filter((r) => m.players.find((p) => String(p.id) === r)?.name);
      if (seated.length !== 1) return null;
      const host = m.players.find((p) => String(p.id) === seated[0]);
      // A person waiting: not the computer, not a bot account (bots play by challenge).
      if (botLevelOf(host) !== null || host?.account?.bot) return null;
      const seat: PlayerID = seated[0] === '0' ? '1' : '0';
      if (wish.side !== 'either' && wish.side !== seat) return null;
      if (m.kept?.seat === seat && m.kept.until > now) return null;
      return { matchID: m.matchID, seat, createdAt: m.createdAt };
    })
    .filter((x): x is { matchID: string; seat: PlayerID; createdAt: number } => x !== null)
    .sort((a, b) => a.createdAt - b.createdAt);
  return fits[0] ? { matchID: fits[0].matchID, seat: fits[0].seat } : null;
}
