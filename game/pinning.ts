/** The evidence board: pinning (R23), informant pictures, and the Editor's connection win (R26). */
import { ADJACENT, SPACE_COLOUR, SPACE_IDS } from './board';
import { TOKEN } from './tokens';
import { record } from './state';
import { moveMarker, win } from './track';
import { EDITOR, type InformantId, type PlayerID, type SpaceId, type TokenId, type WatergateState } from './types';

/** Empty spaces whose slip matches either colour of the token. */
export function pinSpaces(G: WatergateState, token: TokenId): SpaceId[] {
  const colours = TOKEN[token].colours;
  return SPACE_IDS.filter((s) => G.board[s] === null && colours.includes(SPACE_COLOUR[s]));
}

export const canPin = (G: WatergateState, token: TokenId, space: SpaceId): boolean =>
  G.board[space] === null && SPACE_COLOUR[space] !== undefined && TOKEN[token].colours.includes(SPACE_COLOUR[space]);

/** R23: Editor face up, Nixon face down; a red "1" moves the momentum token 1 step toward the pinner if it is on the track. */
export function pin(G: WatergateState, p: PlayerID, token: TokenId, space: SpaceId): void {
  const up = p === EDITOR;
  G.board[space] = { token, up };
  record(G, p, up ? 'pin.up' : 'pin.down', { token, space });
  checkConnection(G);
  if (G.winner === null && TOKEN[token].momentum) {
    if (G.track.momentum !== null) record(G, p, 'pin.momentum', { from: G.track.momentum });
    moveMarker(G, 'momentum', 1, p); // nothing when the momentum token is gained (G3)
  }
}

/** A gained token that cannot be pinned goes back to the bag, or out of the game (K16 pinImpossible). */
export function unpinnable(G: WatergateState, p: PlayerID, tokens: readonly TokenId[]): void {
  if (tokens.length === 0) return;
  if (G.options.pinImpossible === 'removeFromGame') G.removedTokens.push(...tokens);
  else G.bag.push(...tokens);
  record(G, p, G.options.pinImpossible === 'removeFromGame' ? 'pin.impossible.removed' : 'pin.impossible', { tokens: tokens.join(',') });
}

/** "Pin a picture": from the supply onto its space, face up for the Editor, face down for Nixon. */
export function pinInformant(G: WatergateState, p: PlayerID, id: InformantId): void {
  if (G.informants[id] !== 'supply') {
    record(G, p, 'informant.onBoard', { informant: id });
    return;
  }
  G.informants[id] = p === EDITOR ? 'up' : 'down';
  record(G, p, p === EDITOR ? 'informant.recruit' : 'informant.discredit', { informant: id });
  checkConnection(G);
}

/** Face-up informants joined to Nixon's picture through face-up evidence only (R26). */
export function connectedInformants(G: WatergateState): InformantId[] {
  const seen = new Set<string>(['NIXON']);
  const queue: string[] = ['NIXON'];
  const found: InformantId[] = [];
  while (queue.length > 0) {
    const node = queue.pop()!;
    for (const next of ADJACENT[node]) {
      if (seen.has(next)) continue;
      if (next in G.informants) {
        // Informants end a path: they join only to evidence spaces, never onward.
        if (node !== 'NIXON' && G.informants[next] === 'up') {
          seen.add(next);
          found.push(next);
        }
        continue;
      }
      const pinned = G.board[next];
      if (pinned && pinned.up) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return found;
}

/** K1: checked after every change to the board or the pictures. */
export function checkConnection(G: WatergateState): void {
  if (G.winner !== null) return;
  const found = connectedInformants(G);
  if (found.length >= 2) {
    G.connected = found.sort();
    win(G, EDITOR, 'connected');
  }
}
