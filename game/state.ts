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

/** Every rules option and its values, the default first (the lobby's create form is built from this). */
export const OPTION_VALUES: { readonly [K in keyof Options]: readonly Options[K][] } = {
  jokerFallback: ['errata2023', 'rulebook2019'],
  pinImpossible: ['returnToBag', 'removeFromGame'],
};
export const DEFAULT_OPTIONS: Options = { jokerFallback: OPTION_VALUES.jokerFallback[0], pinImpossible: OPTION_VALUES.pinImpossible[0] };

/** Checks setupData from the lobby; returns an error message or undefined. */
export function validateSetupData(data: unknown): string | undefined {
  if (data === undefined || data === null) return undefined;
  if (typeof data !== 'object' || Array.isArray(data)) return 'setupData must be an object';
  for (const [k, v] of Object.entries(data)) {
    const values = Object.hasOwn(OPTION_VALUES, k) ? (OPTION_VALUES as Record<string, readonly string[]>)[k] : undefined;
    if (!values) return `unknown setupData option "${k}"`;
    if (!values.includes(v)) return `${k} must be ${values.map((x) => `"${x}"`).join(' or ')}`;
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
