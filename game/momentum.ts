/**
 * The two momentum cards (docs/COMPONENTS.md "Momentum cards"). Nixon's: 5 spaces, no abilities, the 5th token wins
 * (rulebook). The Editor's: 4 spaces, each with an ability resolved when a token lands on it
 * (RECONSTRUCTED, provenance D); a token gained with the card full is removed from the game (rulebook).
 */
import { EDITOR, NIXON, type PlayerID, type Step } from './types';

export interface MomentumCard {
  number: number;
  spaces: number;
  abilities: readonly (readonly Step[])[];
  provenance: string;
}

export const MOMENTUM_CARDS: Readonly<Record<PlayerID, MomentumCard>> = {
  [NIXON]: {
    number: 21,
    spaces: 5,
    abilities: [[], [], [], [], []],
    provenance: 'R: the 5th token wins at once; no printed abilities assumed',
  },
  [EDITOR]: {
    number: 22,
    spaces: 4,
    abilities: [
      [{ op: 'RETURN_TRACK_EVIDENCE', count: 1, where: 'OPPONENT_SIDE' }],
      [{ op: 'FLIP_INFORMANT', count: 1 }],
      [{ op: 'PIN_FROM_BAG', draw: 2, pin: 1 }],
      [{ op: 'REMOVE_BOARD_EVIDENCE', count: 1, face: 'DOWN' }],
    ],
    provenance: 'D: number of spaces and all four abilities designed; full-card removal rule R',
  },
};

/** Nixon wins on placing this many tokens (R25). */
export const NIXON_WINS_AT = 5;
