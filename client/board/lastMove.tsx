/**
 * The opponent's last action, read from the public record only (G.log): the lines the other side wrote
 * since the viewer's own last line. A spectator sees the last side to act, since the other side's last
 * line. The board marks what those lines name (data-last-move): track pieces moved (from → to), evidence
 * spaces and informant pictures changed, and the cards played (shown in full by LastMovePanel).
 */
import type { LogEntry, PlayerID } from '../../game';

export interface LastMove {
  player: PlayerID;
  lines: LogEntry[];
  /** Cards played (for value, action or reaction), in order. */
  cards: string[];
  /** Track pieces moved ('initiative', 'momentum' or a token id) → where each stood before (Editor's numbering). */
  from: Map<string, number>;
  /** Evidence spaces pinned, turned or emptied, and informant pictures pinned or turned. */
  spaces: Set<string>;
}

const CARD_KEYS = new Set(['value.marker', 'value.evidence', 'value.name', 'value.none', 'ask', 'play.action', 'react.play', 'step.replay']);
const SPACE_KEYS = new Set(['pin.up', 'pin.down', 'board.flip', 'board.remove']);
const INFORMANT_KEYS = new Set(['informant.recruit', 'informant.discredit', 'informant.flip']);
/** Bookkeeping the rules do for a side, not something it chose: left out of "the last move". */
const ROUTINE = new Set(['draw.cards', 'draw.tokens', 'reshuffle', 'assess.initiative']);

export function lastMove(log: readonly LogEntry[], me: PlayerID | null): LastMove | null {
  let actor: PlayerID | null = me === '0' ? '1' : me === '1' ? '0' : null;
  for (let i = log.length - 1; actor === null && i >= 0; i--) actor = log[i].player;
  if (actor === null) return null;
  let start = log.length;
  while (start > 0 && log[start - 1].player !== (actor === '0' ? '1' : '0')) start--;
  const lines = log.slice(start).filter((e) => e.player === actor && !ROUTINE.has(e.key));
  if (lines.length === 0) return null;
  const last: LastMove = { player: actor, lines, cards: [], from: new Map(), spaces: new Set() };
  for (const { key, params } of lines) {
    if (CARD_KEYS.has(key) && params.card !== undefined && !last.cards.includes(String(params.card))) last.cards.push(String(params.card));
    if (params.from !== undefined) {
      const piece = key === 'pin.momentum' ? 'momentum' : String(params.token);
      if (!last.from.has(piece)) last.from.set(piece, Number(params.from));
    }
    if (SPACE_KEYS.has(key)) last.spaces.add(String(params.space));
    if (INFORMANT_KEYS.has(key)) last.spaces.add(String(params.informant));
  }
  return last;
}
