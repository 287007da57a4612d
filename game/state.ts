/** Small helpers over the state, and the initial state (R1–R5). */
import type { LogKey } from './logkeys';
import { DECKS } from './cards';
import { SPACE_IDS, INFORMANT_IDS } from './board';
import { BAG_TOKENS, MOMENTUM_TOKENS } from './tokens';
import { EDITOR, NIXON, type CardId, type Options, type PlayerID, type Rng, type SetupData, type TokenId, type WatergateState } from './types';

export const other = (p: PlayerID): PlayerID => (p === EDITOR ? NIXON : EDITOR);
/** +1 moves toward the Editor's space 5, −1 toward Nixon's. */
export const toward = (p: PlayerID): 1 | -1 => (p === EDITOR ? 1 : -1);
export const ROLE: Readonly<Record<PlayerID, string>> = { [EDITOR]: 'Editor', [NIXON]: 'Nixon' };

export function record(G: WatergateState, player: PlayerID | null, key: LogKey, params: Record<string, string | number> = {}): void {
  G.log.push({ round: G.round, player, key, params });
}

export const DEFAULT_OPTIONS: Options = { jokerFallback: 'errata2023', pinImpossible: 'returnToBag' };

/** Checks setupData from the lobby; returns an error message or undefined. */
export function validateSetupData(data: unknown): string | undefined {
  if (data === undefined || data === null) return undefined;
  if (typeof data !== 'object' || Array.isArray(data)) return 'setupData must be an object';
  for (const [k, v] of Object.entries(data)) {
    if (k === 'jokerFallback') {
      if (v !== 'errata2023' && v !== 'rulebook2019') return 'jokerFallback must be "errata2023" or "rulebook2019"';
    } else if (k === 'pinImpossible') {
      if (v !== 'returnToBag' && v !== 'removeFromGame') return 'pinImpossible must be "returnToBag" or "removeFromGame"';
    } else return `unknown setupData option "${k}"`;
  }
  return undefined;
}

export function optionsFrom(data: SetupData | undefined): Options {
  return { ...DEFAULT_OPTIONS, ...(data ?? {}) };
}

/** R1–R5: decks shuffled, the Editor holds the initiative, 1 momentum token on 0, 8 in supply, 30 tokens in the bag. */
export function initialState(options: Options, rng: Rng): WatergateState {
  return {
    options,
    round: 0,
    phase: 'setup',
    initiative: EDITOR,
    leader: EDITOR,
    turnPlayer: EDITOR,
    turnSeq: 0,
    turnsBegun: { [EDITOR]: 0, [NIXON]: 0 },
    eventsRestricted: false,
    track: { initiative: 0, momentum: 0, evidence: [] },
    bag: rng.Shuffle([...BAG_TOKENS]),
    board: Object.fromEntries(SPACE_IDS.map((s) => [s, null])),
    informants: Object.fromEntries(INFORMANT_IDS.map((i) => [i, 'supply'])),
    momentum: { supply: MOMENTUM_TOKENS - 1, removed: 0, cards: { [EDITOR]: 0, [NIXON]: 0 } },
    hands: { [EDITOR]: [], [NIXON]: [] },
    decks: { [EDITOR]: rng.Shuffle([...DECKS[EDITOR]]), [NIXON]: rng.Shuffle([...DECKS[NIXON]]) },
    discards: { [EDITOR]: [], [NIXON]: [] },
    removed: { [EDITOR]: [], [NIXON]: [] },
    removedTokens: [],
    chain: [],
    resolving: [],
    peek: null,
    drawnCard: null,
    tasks: [{ t: 'round' }],
    prompt: null,
    log: [],
    winner: null,
    endReason: null,
    connected: [],
  };
}

/** Draws one card; an empty deck is first refilled by shuffling the discard pile (R6), even mid-draw. */
export function drawCard(G: WatergateState, p: PlayerID, rng: Rng): CardId | undefined {
  if (G.decks[p].length === 0 && G.discards[p].length > 0) {
    G.decks[p] = rng.Shuffle(G.discards[p]);
    G.discards[p] = [];
    record(G, p, 'reshuffle', { count: G.decks[p].length });
  }
  return G.decks[p].pop();
}

/** Draws up to n tokens from the bag at random (fewer if the bag holds fewer). */
export function drawTokens(G: WatergateState, n: number, rng: Rng): TokenId[] {
  if (n <= 0 || G.bag.length === 0) return [];
  G.bag = rng.Shuffle(G.bag);
  return G.bag.splice(Math.max(0, G.bag.length - n));
}
