/**
 * The one source of the rules' types: the engine, the boardgame.io wrapper, the client, the server and
 * the bots all import from here. State is plain JSON data (boardgame.io stores and diffs it).
 */
import type { LogKey } from './logkeys';

/** Seat "0" is the Editor of the Washington Post, seat "1" the Nixon Administration. */
export type PlayerID = '0' | '1';
export const EDITOR = '0' satisfies PlayerID;
export const NIXON = '1' satisfies PlayerID;

export type Colour = 'blue' | 'yellow' | 'green';
export const COLOURS: readonly Colour[] = ['blue', 'yellow', 'green'];
export type CardColour = Colour | 'joker';
export type CardType = 'CONSPIRATOR' | 'EVENT' | 'JOURNALIST';

export type CardId = string;
export type TokenId = string;
export type SpaceId = string;
export type InformantId = string;

/** R = rulebook, S = low-confidence source, H = review hint, D = designed for this reconstruction. */
export type ProvenanceCode = 'R' | 'S' | 'H' | 'D' | 'R+D';
export interface Provenance {
  name: ProvenanceCode;
  type: ProvenanceCode;
  valueColour: ProvenanceCode;
  effect: ProvenanceCode;
  note?: string;
}

/** Which track tokens an evidence effect may pick, seen from the actor. */
export type Where = 'ANY' | 'NEUTRAL' | 'OWN_SIDE' | 'OPPONENT_SIDE' | 'NOT_OWN_SIDE';
export type TrackMarker = 'initiative' | 'momentum';

/** The primitive vocabulary (docs/COMPONENTS.md "How effects are written"): every card action and momentum ability is a list of these. */
export type Step =
  | { op: 'MOVE_TOKEN'; token: TrackMarker; steps: number }
  | { op: 'SET_TOKEN'; token: TrackMarker; space: number }
  | { op: 'MOVE_EVIDENCE'; mode: 'EACH' | 'TOTAL'; steps: number; maxTokens: number | null; where: Where; colour?: Colour }
  | { op: 'REVEAL_TRACK_EVIDENCE' }
  | { op: 'RETURN_TRACK_EVIDENCE'; count: number; where: Where }
  | { op: 'PIN_FROM_BAG'; draw: number; pin: number; colour?: Colour }
  | { op: 'PIN_INFORMANT'; informant: InformantId | 'CHOICE' }
  | { op: 'FLIP_INFORMANT'; count: number }
  | { op: 'FLIP_BOARD_EVIDENCE'; count: number; colour?: Colour }
  | { op: 'REMOVE_BOARD_EVIDENCE'; count: number; face: 'UP' | 'DOWN' | 'ANY'; colour?: Colour }
  | { op: 'DRAW_AND_PLAY_TOP' }
  | { op: 'RESTRICT_OPPONENT_EVENTS' }
  | { op: 'REPLAY_REMOVED_EVENT' }
  /** Gambit's after-action choice: remove a conspirator from hand to recycle Gambit (docs/COMPONENTS.md, N07). */
  | { op: 'GAMBIT_RECYCLE' };
export type Op = Step['op'];

export type Requirement =
  | { req: 'NOT_FIRST_TURN' }
  | { req: 'OPPONENT_MOMENTUM_AT_LEAST'; n: number }
  | { req: 'HAS_INITIATIVE' };

export type ReactionTrigger = 'OPPONENT_EVENT_ACTION' | 'OPPONENT_CONSPIRATOR_ACTION' | 'OPPONENT_VALUE_MOVES_EVIDENCE';
export type ReactionEffect = 'CANCEL_EVENT_TO_DISCARD' | 'CANCEL_AND_REMOVE_CONSPIRATOR' | 'REDIRECT_EVIDENCE_MOVE';
export interface Reaction {
  trigger: ReactionTrigger;
  effect: ReactionEffect;
  alsoAgainst?: CardId[];
  notAgainst?: CardId[];
}

export interface CardDef {
  id: CardId;
  /** Printed number (only 42 is known; the rest are designed). */
  number: number;
  side: PlayerID;
  name: string;
  type: CardType;
  value: 1 | 2 | 3 | 4;
  colour: CardColour;
  requires: Requirement[];
  steps: Step[];
  /** Where the card goes after its action was used. */
  after: 'DISCARD' | 'REMOVE';
  /** Gambit: may be recycled by removing a conspirator from hand. */
  recycle?: boolean;
  reaction?: Reaction;
  provenance: Provenance;
}

export interface TokenDef {
  id: TokenId;
  colours: Colour[];
  /** Carries the red "1" momentum symbol. */
  momentum: boolean;
  use: 'bag' | 'spare';
}

export type JokerFallback = 'errata2023' | 'rulebook2019';
export type PinImpossible = 'returnToBag' | 'removeFromGame';
export interface Options {
  jokerFallback: JokerFallback;
  pinImpossible: PinImpossible;
}
/**
 * How a match is played, beside its rules: a clock (time per side plus a bonus per decision; what happens
 * when it runs out), after how long away a seat may be handed to the computer, and whether "What would
 * the computer do?" hints are offered. Kept by the server and the client; the rules never read them.
 */
export interface ClockSetting {
  initialSeconds: number;
  incrementSeconds: number;
  onTimeout: 'lose' | 'bot';
}
/**
 * Take-backs (game/undo.ts): "off", "consent" (the opponent must accept each one) or "free". Unset: free
 * against the computer, with consent between people; a rated match allows "off" only.
 */
export type TakeBackSetting = 'off' | 'consent' | 'free';
export interface MatchSettings {
  clock?: ClockSetting;
  abandonMinutes?: number;
  hints?: boolean;
  takeBacks?: TakeBackSetting;
}
export type SetupData = Partial<Options> & MatchSettings;

/** An evidence token on the research track. pos is seen from the Editor: +5 Editor's gain space, −5 Nixon's. */
export interface TrackToken {
  id: TokenId;
  pos: number;
  up: boolean;
}
export interface PinnedToken {
  token: TokenId;
  up: boolean;
}
export type InformantState = 'supply' | 'up' | 'down';

/** A card in the public "in play" area, waiting in a reaction chain (K4). */
export interface ChainEntry {
  player: PlayerID;
  card: CardId;
  kind: 'action' | 'value' | 'reaction';
  /** Value play on an evidence token (the trigger of "Follow the money!"). */
  token?: TokenId;
  from?: number;
  /** Set when the reaction above this entry resolved. */
  cancelledBy?: ReactionEffect;
  /** Played through Howard Hunt's draw (it was never in hand). */
  drawn?: boolean;
}

/** How a card is announced on a turn (the `play` move). */
export type ValueTarget =
  | { kind: 'initiative' }
  | { kind: 'momentum' }
  | { kind: 'evidence'; token: TokenId }
  /** The Editor's ask (R12): name a colour of face-down tokens. */
  | { kind: 'ask'; colour: Colour }
  /** Only when no other target exists (K12). */
  | { kind: 'none' };
export interface PlayArgs {
  card: CardId;
  as: 'value' | 'action';
  target?: ValueTarget;
}

/** A reference to a track token in a choice: its id, or for the Editor the k-th face-down token, picked blind. */
export type TokenRef = TokenId | { hidden: number };

/** Answers to the prompts of the primitives (the `choose` move); the shape depends on the step. */
export type ChoiceArgs =
  /** MOVE_EVIDENCE EACH, RETURN_TRACK_EVIDENCE; PIN_FROM_BAG: the drawn tokens to keep (then pinned one by one). */
  | { tokens: TokenRef[] }
  | { split: { token: TokenRef; steps: number }[] } // MOVE_EVIDENCE TOTAL
  | { informants: InformantId[] } // PIN_INFORMANT CHOICE, FLIP_INFORMANT
  | { spaces: SpaceId[] } // FLIP_BOARD_EVIDENCE, REMOVE_BOARD_EVIDENCE
  | { card: CardId | null }; // REPLAY_REMOVED_EVENT, GAMBIT_RECYCLE

/** The decision the game waits for. Every field is public (secrets live in hands, decks, bag, peek). */
export type Prompt =
  | { kind: 'play'; player: PlayerID }
  /** Howard Hunt's DRAW_AND_PLAY_TOP: play the drawn card (in G.drawnCard) at once. */
  | { kind: 'playDrawn'; player: PlayerID }
  /** Nixon picks which face-down token of the named colour answers the Editor's ask (K2). */
  | { kind: 'answer'; player: PlayerID; card: CardId; colour: Colour }
  /** After an ask answered "none": the Editor's value goes to the initiative, momentum or a face-up token of `colour`. */
  | { kind: 'target'; player: PlayerID; card: CardId; colour: Colour | null }
  /** A reaction window (R16). */
  | { kind: 'react'; player: PlayerID; trigger: ReactionTrigger }
  /** A choice inside a card action or a momentum ability. */
  | { kind: 'choose'; player: PlayerID; step: Step; card: CardId | null }
  /**
   * Pin one of the gained evidence tokens (R13, R22, K8). `secret`: they were drawn from the bag for this
   * player alone (PIN_FROM_BAG, K3), so only `player` sees which until each is pinned; the others see ''
   * in place of each id.
   */
  | { kind: 'pin'; player: PlayerID; tokens: TokenId[]; secret?: true };

/** The engine's continuation stack: work still to do, top of the stack last. All public data. */
export type Task =
  | { t: 'turn'; player: PlayerID }
  | { t: 'step'; actor: PlayerID; step: Step; card: CardId | null }
  | { t: 'dispose'; player: PlayerID; card: CardId; to: 'DISCARD' | 'REMOVE' }
  | { t: 'pin'; player: PlayerID; tokens: TokenId[]; secret?: true }
  | { t: 'ability'; space: number }
  | { t: 'assess'; step: 1 | 2 | 3 | 4 | 5 }
  | { t: 'assessPins'; player: PlayerID }
  | { t: 'round' };

export type Phase = 'setup' | 'cards' | 'assessment' | 'gameover';
/**
 * How a game ended. The last three are the server's (a match's exits, server/match/ending.ts): a player
 * left the match or deleted their account (`left`), was away past the match's abandon limit
 * (`abandoned`), or the game stopped before both sides had decided anything (`aborted`: no winner).
 */
export type EndReason = 'connected' | 'momentum' | 'supply' | 'resigned' | 'time' | 'left' | 'abandoned' | 'aborted';

/** One line of the public game record: a message key and its public parameters (the client words it). */
export interface LogEntry {
  round: number;
  player: PlayerID | null;
  key: LogKey;
  params: Record<string, string | number>;
}

export interface WatergateState {
  options: Options;
  round: number;
  phase: Phase;
  /** Who the initiative card points at now (K11: turns at once when the token is gained). */
  initiative: PlayerID;
  /** Who held the initiative when this round began (R19, K11). */
  leader: PlayerID;
  /** Whose turn it is, and a counter that changes with every new turn (drives boardgame.io turns). */
  turnPlayer: PlayerID;
  turnSeq: number;
  /** Turns begun by each player in this round's cards phase (NOT_FIRST_TURN). */
  turnsBegun: Record<PlayerID, number>;
  /** A brilliant mood: the Editor's events are value-only until the end of this cards phase. */
  eventsRestricted: boolean;
  track: {
    /** null: gained this round, off the track. */
    initiative: number | null;
    momentum: number | null;
    evidence: TrackToken[];
  };
  /** Secret: the bag's tokens (unordered in meaning; drawn with the PRNG). */
  bag: TokenId[];
  board: Record<SpaceId, PinnedToken | null>;
  informants: Record<InformantId, InformantState>;
  momentum: { supply: number; removed: number; cards: Record<PlayerID, number> };
  /** Secret: hands and draw decks (top of deck = last element). */
  hands: Record<PlayerID, CardId[]>;
  decks: Record<PlayerID, CardId[]>;
  discards: Record<PlayerID, CardId[]>;
  removed: Record<PlayerID, CardId[]>;
  /** Tokens that could not be pinned under pinImpossible = removeFromGame. */
  removedTokens: TokenId[];
  /** The reaction chain: cards in play waiting to resolve (public). */
  chain: ChainEntry[];
  /** Cards whose action is resolving (public "in play" area). */
  resolving: CardId[];
  /** Secret to everyone but `player`: tokens drawn by PIN_FROM_BAG, until pinned or returned. */
  peek: { player: PlayerID; tokens: TokenId[] } | null;
  /** Secret to everyone but `player`: the card drawn by DRAW_AND_PLAY_TOP, until played. */
  drawnCard: { player: PlayerID; card: CardId } | null;
  tasks: Task[];
  prompt: Prompt | null;
  log: LogEntry[];
  winner: PlayerID | null;
  endReason: EndReason | null;
  /** An aborted game (no winner): the side that had not made its first decision. */
  aborted?: PlayerID;
  /** For the game-over screen: the connected informants (R26). */
  connected: InformantId[];
}

/** A track token as a viewer sees it: face-down tokens are anonymous for the Editor and spectators (K3). */
export interface ViewTrackToken {
  id: TokenId | null;
  pos: number;
  up: boolean;
}

/** What `playerView` sends: the state without what docs/RULES.md "Who sees what" hides from this viewer. */
export interface WatergateView
  extends Omit<WatergateState, 'hands' | 'decks' | 'bag' | 'track' | 'peek' | 'drawnCard'> {
  viewer: PlayerID | null;
  hands: Record<PlayerID, CardId[] | null>;
  handSizes: Record<PlayerID, number>;
  deckSizes: Record<PlayerID, number>;
  bagSize: number;
  track: { initiative: number | null; momentum: number | null; evidence: ViewTrackToken[] };
  peek: { player: PlayerID; tokens: TokenId[] | null; count: number } | null;
  drawnCard: { player: PlayerID; card: CardId | null } | null;
}

/** Randomness the engine needs; boardgame.io's `random` API satisfies it. */
export interface Rng {
  Shuffle<T>(deck: T[]): T[];
}

/** A legal move as `ai.enumerate` returns it. */
export interface MoveChoice {
  move: 'play' | 'answer' | 'target' | 'react' | 'choose' | 'pin' | 'resign';
  args: unknown[];
}
