/** Small helpers over the state, and the initial state (R1–R5). */
import type { LogKey } from './logkeys';
import { DECKS } from './cards';
import { SPACE_IDS, INFORMANT_IDS } from './board';
import { BAG_TOKENS, MOMENTUM_TOKENS } from './tokens';
import { EDITOR, NIXON, type CardId, type ClockSetting, type MatchSettings, type Options, type PlayerID, type Rng, type SetupData, type TakeBackSetting, type TokenId, type WatergateState } from './types';

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

/** The take-back settings (MatchSettings.takeBacks), as the create form lists them. */
export const TAKE_BACK_SETTINGS: readonly TakeBackSetting[] = ['off', 'consent', 'free'];

/** Limits of the match settings (MatchSettings): a clock of up to 30 days a side, a bonus up to a day. */
export const SETTING_LIMITS = { initialSeconds: [1, 30 * 86_400], incrementSeconds: [0, 86_400], abandonMinutes: [1, 7 * 24 * 60] } as const;

/** The create form's choices of how long a seat may be away before the opponent may hand it to the computer. */
export const ABANDON_CHOICES = [5, 15, 60, 1440] as const;

const wholeIn = (v: unknown, [lo, hi]: readonly [number, number]) => Number.isInteger(v) && (v as number) >= lo && (v as number) <= hi;

function validateClock(c: unknown): string | undefined {
  if (typeof c !== 'object' || c === null || Array.isArray(c)) return 'clock must be an object { initialSeconds, incrementSeconds, onTimeout }';
  for (const k of Object.keys(c)) if (!['initialSeconds', 'incrementSeconds', 'onTimeout'].includes(k)) return `unknown clock field "${k}"`;
  const { initialSeconds, incrementSeconds, onTimeout } = c as Record<string, unknown>;
  const [a, b] = SETTING_LIMITS.initialSeconds;
  if (!wholeIn(initialSeconds, SETTING_LIMITS.initialSeconds)) return `clock.initialSeconds must be a whole number of seconds from ${a} to ${b}`;
  const [c0, c1] = SETTING_LIMITS.incrementSeconds;
  if (incrementSeconds !== undefined && !wholeIn(incrementSeconds, SETTING_LIMITS.incrementSeconds)) return `clock.incrementSeconds must be a whole number of seconds from ${c0} to ${c1}`;
  if (onTimeout !== undefined && onTimeout !== 'lose' && onTimeout !== 'bot') return 'clock.onTimeout must be "lose" or "bot"';
  return undefined;
}

/** Checks setupData from the lobby; returns an error message naming the field, or undefined. */
export function validateSetupData(data: unknown): string | undefined {
  if (data === undefined || data === null) return undefined;
  if (typeof data !== 'object' || Array.isArray(data)) return 'setupData must be an object';
  for (const [k, v] of Object.entries(data)) {
    if (k === 'clock') {
      const why = validateClock(v);
      if (why) return why;
      continue;
    }
    if (k === 'abandonMinutes') {
      const [lo, hi] = SETTING_LIMITS.abandonMinutes;
      if (!wholeIn(v, SETTING_LIMITS.abandonMinutes)) return `abandonMinutes must be a whole number of minutes from ${lo} to ${hi}`;
      continue;
    }
    if (k === 'hints') {
      if (typeof v !== 'boolean') return 'hints must be true or false';
      continue;
    }
    if (k === 'takeBacks') {
      if (!(TAKE_BACK_SETTINGS as readonly unknown[]).includes(v)) return `takeBacks must be ${TAKE_BACK_SETTINGS.map((x) => `"${x}"`).join(', ').replace(/, ([^,]*)$/, ' or $1')}`;
      continue;
    }
    const values = Object.hasOwn(OPTION_VALUES, k) ? (OPTION_VALUES as Record<string, readonly string[]>)[k] : undefined;
    if (!values) return `unknown setupData option "${k}"`;
    if (!values.includes(v)) return `${k} must be ${values.map((x) => `"${x}"`).join(' or ')}`;
  }
  const d = data as MatchSettings;
  if (d.hints === true && d.clock) return 'hints are offered only in untimed matches: leave out clock or hints';
  return undefined;
}

/** The rules options of a match (the engine's G.options): only the rules keys of setupData. */
export function optionsFrom(data: SetupData | undefined): Options {
  const out: Options = { ...DEFAULT_OPTIONS };
  for (const k of Object.keys(OPTION_VALUES) as (keyof Options)[]) if (data?.[k] !== undefined) (out as unknown as Record<string, unknown>)[k] = data[k];
  return out;
}

/**
 * The match settings of setupData with their defaults: no clock, no hand-over, no hints; take-backs null
 * when unset (the server's default then depends on the match: server/match/undo.ts).
 */
export function settingsFrom(data: SetupData | undefined): { clock: ClockSetting | null; abandonMinutes: number | null; hints: boolean; takeBacks: TakeBackSetting | null } {
  const c = data?.clock;
  return {
    clock: c ? { initialSeconds: c.initialSeconds, incrementSeconds: c.incrementSeconds ?? 0, onTimeout: c.onTimeout ?? 'lose' } : null,
    abandonMinutes: data?.abandonMinutes ?? null,
    hints: data?.hints ?? false,
    takeBacks: data?.takeBacks ?? null,
  };
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
