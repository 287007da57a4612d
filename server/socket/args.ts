/** Shape checks for socket payloads: anything else is answered with an error and goes no further. */
import { SERVER_MOVES, Watergate } from '../../game/index';

export { isSeat } from '../../protocol/index';

// The server's own moves (a clock running out) are never a client's to send.
const MOVE_NAMES = Object.keys(Watergate.moves ?? {}).filter((m) => !(SERVER_MOVES as readonly string[]).includes(m));

const ID = /^[A-Za-z0-9_-]{1,64}$/;
export const isMatchID = (v: unknown): v is string => typeof v === 'string' && ID.test(v);
export const isCredentials = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= 200;

export interface MoveAction {
  type: 'MAKE_MOVE';
  payload: { type: string; args: unknown[]; playerID: string; credentials: string };
}

/** Why this is not a move a client may send, or null. Events, undo/redo and plugin actions are not. */
export function checkAction(action: unknown): string | null {
  if (!action || typeof action !== 'object' || Array.isArray(action)) return 'the action must be an object';
  const a = action as { type?: unknown; payload?: unknown };
  if (a.type !== 'MAKE_MOVE') return `only moves may be sent, not "${String(a.type).slice(0, 40)}"`;
  const p = a.payload as Record<string, unknown> | null;
  if (!p || typeof p !== 'object') return 'the move has no payload';
  if (typeof p.type !== 'string' || !MOVE_NAMES.includes(p.type)) return `unknown move "${String(p.type).slice(0, 40)}"`;
  if (p.args !== undefined && p.args !== null && (!Array.isArray(p.args) || p.args.length > 1)) return 'a move takes exactly one argument';
  return null;
}
