/**
 * Builds rule scenarios on the pure engine: a seeded new game, then cards, tokens and pictures put
 * exactly where a test needs them (always moved, never created, so every component stays accounted for).
 */
import { expect } from 'vitest';
import { applyMove, newGame } from '../../game/engine';
import { run } from '../../game/flow';
import { CARDS } from '../../game/cards';
import { legalMoves } from '../../game/legal';
import type { CardId, PlayerID, SetupData, SpaceId, TokenId, WatergateState } from '../../game/types';
import { seeded } from './rng';

export const E: PlayerID = '0';
export const N: PlayerID = '1';

/** Removes a card from whichever pile of its side holds it. */
export function takeCard(G: WatergateState, id: CardId): void {
  const side = CARDS[id].side;
  for (const pile of [G.hands[side], G.decks[side], G.discards[side], G.removed[side], G.resolving]) {
    const i = pile.indexOf(id);
    if (i >= 0) {
      pile.splice(i, 1);
      return;
    }
  }
  throw new Error(`card ${id} not found`);
}

/** Removes a token from the bag, the track or the board. */
export function takeToken(G: WatergateState, id: TokenId): void {
  const b = G.bag.indexOf(id);
  if (b >= 0) return void G.bag.splice(b, 1);
  const t = G.track.evidence.findIndex((x) => x.id === id);
  if (t >= 0) return void G.track.evidence.splice(t, 1);
  for (const s of Object.keys(G.board)) if (G.board[s]?.token === id) return void (G.board[s] = null);
  throw new Error(`token ${id} not found`);
}

export class Scenario {
  readonly rng;
  readonly G: WatergateState;
  constructor(seed = 1, setup?: SetupData) {
    this.rng = seeded(seed);
    this.G = newGame(setup, this.rng);
  }

  /** Sets p's hand to exactly these cards; the cards it held go back on top of p's deck. */
  hand(p: PlayerID, cards: CardId[]): this {
    const G = this.G;
    G.decks[p].push(...G.hands[p]);
    G.hands[p] = [];
    for (const c of cards) takeCard(G, c);
    G.hands[p] = [...cards];
    return this;
  }

  /** Puts cards on top of p's deck (last = top). */
  deckTop(p: PlayerID, cards: CardId[]): this {
    for (const c of cards) takeCard(this.G, c);
    this.G.decks[p].push(...cards);
    return this;
  }

  discard(p: PlayerID, cards: CardId[]): this {
    for (const c of cards) takeCard(this.G, c);
    this.G.discards[p].push(...cards);
    return this;
  }

  removed(p: PlayerID, cards: CardId[]): this {
    for (const c of cards) takeCard(this.G, c);
    this.G.removed[p].push(...cards);
    return this;
  }

  /** Replaces all track evidence (the old tokens go back to the bag) with these tokens. */
  track(tokens: { id: TokenId; pos: number; up?: boolean }[]): this {
    const G = this.G;
    G.bag.push(...G.track.evidence.map((t) => t.id));
    G.track.evidence = [];
    for (const t of tokens) {
      takeToken(G, t.id);
      G.track.evidence.push({ id: t.id, pos: t.pos, up: t.up ?? t.pos !== 0 });
    }
    return this;
  }

  markers(initiative: number | null, momentum: number | null): this {
    this.G.track.initiative = initiative;
    this.G.track.momentum = momentum;
    return this;
  }

  pinned(space: SpaceId, token: TokenId, up: boolean): this {
    takeToken(this.G, token);
    this.G.board[space] = { token, up };
    return this;
  }

  informant(id: string, state: 'supply' | 'up' | 'down'): this {
    this.G.informants[id] = state;
    return this;
  }

  /** Momentum tokens on the cards, taken from the supply. */
  momentum(editor: number, nixon: number): this {
    const m = this.G.momentum;
    m.supply += m.cards[E] + m.cards[N] - editor - nixon;
    m.cards[E] = editor;
    m.cards[N] = nixon;
    return this;
  }

  /** Makes it p's turn to play a card (as at the start of a turn). */
  turn(p: PlayerID, turnsBegun = 1): this {
    this.G.prompt = { kind: 'play', player: p };
    this.G.turnPlayer = p;
    this.G.turnsBegun[p] = turnsBegun;
    return this;
  }

  /** Ends the cards phase now: both hands go back on their decks and the engine moves on (assessment). */
  endCards(): this {
    const G = this.G;
    for (const p of [E, N]) {
      G.decks[p].push(...G.hands[p]);
      G.hands[p] = [];
    }
    G.prompt = null;
    G.tasks.push({ t: 'turn', player: E });
    run(G, this.rng);
    return this;
  }

  act(p: PlayerID, move: string, arg?: unknown): this {
    const err = applyMove(this.G, p, move, arg, this.rng);
    if (err) throw new Error(`${move} ${JSON.stringify(arg)} refused: ${err}`);
    return this;
  }

  /** Asserts the move is refused with a reason and changes nothing. */
  refused(p: PlayerID, move: string, arg?: unknown): string {
    const before = structuredClone(this.G);
    const err = applyMove(this.G, p, move, arg, this.rng);
    expect(err, `${move} ${JSON.stringify(arg)} should be refused`).toBeTypeOf('string');
    expect(this.G).toEqual(before);
    return err!;
  }

  /** Plays a card for its value on a target. */
  value(p: PlayerID, card: CardId, target: unknown): this {
    return this.act(p, 'play', { card, as: 'value', target });
  }

  action(p: PlayerID, card: CardId): this {
    return this.act(p, 'play', { card, as: 'action' });
  }

  pass(p: PlayerID): this {
    return this.act(p, 'react', null);
  }

  legal(p: PlayerID) {
    return legalMoves(this.G, p);
  }

  /** Passes every open reaction window and answers nothing else; stops at the first other prompt. */
  passWindows(): this {
    while (this.G.prompt?.kind === 'react') this.pass(this.G.prompt.player);
    return this;
  }

  tokenPos(id: TokenId): number | undefined {
    return this.G.track.evidence.find((t) => t.id === id)?.pos;
  }

  keys(): string[] {
    return this.G.log.map((l) => l.key);
  }
}

/** Butterfield and Dean face up, joined to Nixon by B02(blue)–A1(yellow) and B06(blue)–A3(yellow): only A3 is missing. */
export const nearlyConnected = (seed: number): Scenario =>
  new Scenario(seed)
    .informant('I_BUTTERFIELD', 'up')
    .informant('I_DEAN', 'up')
    .pinned('B02', 'T03', true)
    .pinned('A1', 'T12', true)
    .pinned('B06', 'T05', true);

/** Fills every green slip of the board with green tokens (T18–T24, T28–T30), so no green token can be pinned. */
export function fillGreenSlips(s: Scenario): Scenario {
  const slips = ['A4', 'A6', 'B01', 'B03', 'B05', 'B10', 'B14', 'C2', 'C3', 'C5'];
  const tokens = ['T18', 'T19', 'T20', 'T21', 'T22', 'T23', 'T24', 'T28', 'T29', 'T30'];
  slips.forEach((sp, i) => s.pinned(sp, tokens[i], true));
  return s;
}

export { randomGame } from './rng';
