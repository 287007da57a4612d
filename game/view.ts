/**
 * playerView: the "who sees what" table of RULES.md. Hands, decks and the bag are secret (sizes only);
 * face-down track tokens are anonymous to the Editor and spectators (K3); drawn tokens and a drawn card
 * are seen by their drawer alone.
 */
import { EDITOR, NIXON, type PlayerID, type WatergateState, type WatergateView } from './types';

const seat = (playerID: string | null | undefined): PlayerID | null => (playerID === EDITOR || playerID === NIXON ? playerID : null);

export function playerView(G: WatergateState, playerID: string | null | undefined): WatergateView {
  const viewer = seat(playerID);
  const { hands, decks, bag, track, peek, drawnCard, prompt, tasks, ...open } = G;
  const seesTrack = viewer === NIXON; // only Nixon may look at face-down tokens on the track (R7)
  // Face-down tokens are listed after the face-up ones, without ids, so neither order nor id says anything.
  const evidence = seesTrack
    ? track.evidence.map((t) => ({ ...t }))
    : [
        ...track.evidence.filter((t) => t.up).map((t) => ({ ...t })),
        ...track.evidence.filter((t) => !t.up).map((t) => ({ id: null, pos: t.pos, up: false })),
      ];
  // Tokens kept from a private draw (K3) are named to their drawer alone until pinned: the others see
  // as many empty names ('') as there are tokens.
  const mask = <T extends { player: PlayerID; tokens: string[]; secret?: true }>(x: T): T => (x.secret && x.player !== viewer ? { ...x, tokens: x.tokens.map(() => '') } : x);
  return {
    ...open,
    prompt: prompt?.kind === 'pin' ? mask(prompt) : prompt,
    tasks: tasks.some((t) => t.t === 'pin' && t.secret) ? tasks.map((t) => (t.t === 'pin' ? mask(t) : t)) : tasks,
    viewer,
    hands: { [EDITOR]: viewer === EDITOR ? [...hands[EDITOR]] : null, [NIXON]: viewer === NIXON ? [...hands[NIXON]] : null },
    handSizes: { [EDITOR]: hands[EDITOR].length, [NIXON]: hands[NIXON].length },
    deckSizes: { [EDITOR]: decks[EDITOR].length, [NIXON]: decks[NIXON].length },
    bagSize: bag.length,
    track: { initiative: track.initiative, momentum: track.momentum, evidence },
    peek: peek && { player: peek.player, tokens: viewer === peek.player ? [...peek.tokens] : null, count: peek.tokens.length },
    drawnCard: drawnCard && { player: drawnCard.player, card: viewer === drawnCard.player ? drawnCard.card : null },
  };
}
