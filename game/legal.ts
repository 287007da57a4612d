/** Every legal move of a player, with its arguments: ai.enumerate for boardgame.io's bots, and the board's choices. */
import { CARDS } from './cards';
import { actionBlocked, fallbackTargets, legalReactions, playableCards, valueTargets } from './play';
import { pinSpaces } from './pinning';
import { stepOptions } from './primitives';
import { faceDownOnTrack, matchesColour } from './track';
import type { MoveChoice, PlayerID, WatergateState } from './types';

export function legalMoves(G: WatergateState, p: PlayerID): MoveChoice[] {
  const pr = G.prompt;
  if (G.winner !== null || !pr || pr.player !== p) return [];
  switch (pr.kind) {
    case 'play':
    case 'playDrawn': {
      const out: MoveChoice[] = [];
      for (const card of playableCards(G, p)) {
        const c = CARDS[card];
        for (const target of valueTargets(G, p, c)) out.push({ move: 'play', args: [{ card, as: 'value', target }] });
        if (!actionBlocked(G, p, c)) out.push({ move: 'play', args: [{ card, as: 'action' }] });
      }
      return out;
    }
    case 'answer':
      return faceDownOnTrack(G)
        .filter((t) => matchesColour(t.id, pr.colour))
        .map((t) => ({ move: 'answer', args: [t.id] }));
    case 'target':
      return fallbackTargets(G, pr.colour).map((target) => ({ move: 'target', args: [target] }));
    case 'react':
      return [null, ...legalReactions(G, p)].map((card) => ({ move: 'react', args: [card] }));
    case 'choose':
      return stepOptions(G, p, pr.step).map((choice) => ({ move: 'choose', args: [choice] }));
    case 'pin':
      return pr.tokens.flatMap((token) => pinSpaces(G, token).map((space) => ({ move: 'pin' as const, args: [{ token, space }] })));
  }
}
