/**
 * Watergate as a boardgame.io Game. The rules live in the pure engine (game/engine.ts); this file maps
 * its prompts onto boardgame.io phases (setup → cards → assessment), turns (driven by the initiative)
 * and stages (every decision that interrupts a turn), and adds the player view and ai.enumerate.
 */
import type { Ctx, Game, Move } from 'boardgame.io';
import { INVALID_MOVE } from 'boardgame.io/core';
import { activePlayersFor, REDACTED_MOVES } from './advance';
import { applyMove, MOVE_NAMES, newGame, SERVER_MOVES, type MoveName, type ServerMove } from './engine';
import { legalMoves, legalMovesOfView } from './legal';
import { validateSetupData } from './state';
import { playerView } from './view';
import { gameoverOf } from './track';
import type { MoveChoice, Phase, SetupData, WatergateState, WatergateView } from './types';

type EventsAPI = { setActivePlayers(arg: unknown): void; endTurn(): void };

/** Only the player the engine waits for is active, in the stage named after the move that answers. */
function activate(G: WatergateState, ctx: Ctx, events: EventsAPI): void {
  if (!G.prompt) return;
  const value = activePlayersFor(G.prompt);
  const active = ctx.activePlayers;
  const [[player, stage]] = Object.entries(value);
  if (active && active[player] === stage && Object.keys(active).length === 1) return; // already so: no event needed
  events.setActivePlayers({ value });
}

function engineMove(name: MoveName | ServerMove): Move<WatergateState> {
  return {
    move: ({ G, ctx, playerID, events, random }, arg?: unknown) => {
      const turn = G.turnSeq;
      const error = applyMove(G, playerID as '0' | '1', name, arg, random);
      if (error) return INVALID_MOVE; // the engine's checkMove says why; nothing was changed
      if (G.turnSeq !== turn) events.endTurn();
      else activate(G, ctx, events as EventsAPI);
    },
    // Every move may draw or shuffle (a new round, Hunt's draw, PIN_FROM_BAG): only the server runs them (K3).
    client: false,
    redact: REDACTED_MOVES.includes(name),
  };
}

const moves = Object.fromEntries([...MOVE_NAMES, ...SERVER_MOVES].map((m) => [m, engineMove(m)])) as Record<MoveName | ServerMove, Move<WatergateState>>;
// Resigning (and the server's `timeout`, which the rules allow only to the player who owes the decision)
// is open in every stage: the engine decides who may; boardgame.io's client looks a move up in the
// player's stage and would log "disallowed move" for the player who is deciding. A resignation made while
// the other player decides is the server's to apply (game/advance.ts): boardgame.io has no active
// player for it.
const stages = Object.fromEntries(MOVE_NAMES.map((m) => [m, { moves: { [m]: moves[m], resign: moves.resign, ...Object.fromEntries(SERVER_MOVES.map((s) => [s, moves[s]])) } }]));
// boardgame.io's turn order asks for a position in the play order: the engine's `turnPlayer` says whose turn it is.
const turnPlayerPos = ({ G, ctx }: { G: WatergateState; ctx: Ctx }) => ctx.playOrder.indexOf(G.turnPlayer);

const turn = {
  order: { first: turnPlayerPos, next: turnPlayerPos },
  onBegin: ({ G, ctx, events }: { G: WatergateState; ctx: Ctx; events: EventsAPI }) => activate(G, ctx, events),
  stages,
};
const phase = (name: Phase, start = false) => ({
  start,
  endIf: ({ G }: { G: WatergateState }) => G.phase !== name,
  next: ({ G }: { G: WatergateState }) => (G.phase === 'gameover' ? undefined : G.phase),
  turn,
});

/**
 * ai.enumerate: the moves of `playerID`. boardgame.io's clients hold a player view, not the state: a client
 * without a player id holds the spectator's view yet its Debug panel asks for the current player's moves.
 * A view answers for its own seat only (from what that seat sees), and nothing for another seat or none.
 */
function enumerate(G: WatergateState, _ctx: Ctx, playerID: string | null | undefined): MoveChoice[] {
  if (playerID !== '0' && playerID !== '1') return [];
  return 'viewer' in G ? legalMovesOfView(G as unknown as WatergateView, playerID) : legalMoves(G, playerID);
}

export const Watergate: Game<WatergateState, Record<string, unknown>, SetupData> = {
  name: 'watergate',
  minPlayers: 2,
  maxPlayers: 2,
  setup: ({ random }, setupData) => newGame(setupData, random),
  validateSetupData: (setupData, numPlayers) =>
    numPlayers !== undefined && numPlayers !== 2 ? 'Watergate is a game for exactly 2 players' : validateSetupData(setupData),
  moves,
  // No undo (K3: moves draw and reveal); without this boardgame.io also keeps copies of G for it in every
  // state, three to four times the state's size.
  disableUndo: true,
  phases: { setup: phase('setup', true), cards: phase('cards'), assessment: phase('assessment') },
  endIf: ({ G }) => gameoverOf(G),
  playerView: ({ G, playerID }) => playerView(G, playerID) as unknown as WatergateState,
  ai: { enumerate },
};

export * from './types';
export { CARDS, DECKS } from './cards';
export { NODES, THREADS, SPACES, INFORMANTS, NODE, ADJACENT } from './board';
export { TOKENS, TOKEN, BAG_TOKENS, SPARE_TOKENS } from './tokens';
export { MOMENTUM_CARDS } from './momentum';
export { legalMoves, legalMovesOfView } from './legal';
export { playerView } from './view';
export { hide, refill, refiller, secretsOf, SECRETS, EMPTY, type Filler } from './infostate';
export { LOG_KEYS, type LogKey } from './logkeys';
export { newGame, applyMove, checkMove, legalOption, MOVE_NAMES, SERVER_MOVES, FORFEIT_REASONS, type ForfeitReason } from './engine';
export { isOver } from './track';
export { advance, advanceMove, activePlayersFor, type MoveAction } from './advance';
export { OPTION_VALUES, DEFAULT_OPTIONS, SETTING_LIMITS, ABANDON_CHOICES, TAKE_BACK_SETTINGS, settingsFrom, optionsFrom, validateSetupData } from './state';
export { connectedInformants, pinSpaces } from './pinning';
export { excludedColours, samplerFor, type Sampler, type ShuffleRng } from './determinize';
