/**
 * The tutorial's fixed game (client/tutorial/script.ts), replayed through boardgame.io's reducer from the
 * tutorial's seed exactly as the page plays it: every scripted move is legal when its turn comes, and
 * every step finds the situation it explains at the move where it starts.
 */
import { describe, expect, it } from 'vitest';
import type { State } from 'boardgame.io';
import { CARDS, Watergate, type MoveChoice, type PlayArgs, type WatergateState } from '../../game';
import { expectedMove, SCRIPT, stepAt, STEPS, TUTORIAL_SEED, type StepId } from '../../client/tutorial/script';
import { initialState, reducerDriver } from '../../tools/playout';

const key = (m: MoveChoice) => JSON.stringify([m.move, m.args[0]]);

/** Every state of the scripted game: states[n] is the state after n moves. */
function replay(): State<WatergateState>[] {
  const driver = reducerDriver(Watergate);
  const states = [initialState(Watergate, TUTORIAL_SEED)];
  for (const [n, { player, move }] of SCRIPT.entries()) {
    const s = states[n];
    expect(driver.decider(s), `move ${n}: who decides`).toBe(player);
    expect(driver.moves(s, player).map(key), `move ${n} is legal`).toContain(key(move));
    states.push(driver.apply(s, player, move));
  }
  return states;
}

const play = (m: MoveChoice | undefined) => (m?.move === 'play' ? (m.args[0] as PlayArgs) : null);
const logSince = (before: State<WatergateState>, after: State<WatergateState>) => after.G.log.slice(before.G.log.length).map((l) => l.key);

/** What each step explains, checked on the state where it starts and the moves it asks for. */
const SITUATION: Record<StepId, (states: State<WatergateState>[], at: number) => void> = {
  welcome: (s, at) => {
    expect(s[at].G.round).toBe(1);
    expect(s[at].G.prompt).toMatchObject({ kind: 'play', player: '0' });
  },
  value: (s, at) => {
    const p = play(SCRIPT[at].move)!;
    expect(p.as).toBe('value');
    expect(['initiative', 'momentum']).toContain(p.target!.kind);
    expect(s[at + 1].G.track[p.target!.kind as 'momentum']).toBe(CARDS[p.card].value);
  },
  reaction: (s, at) => {
    expect(s[at].G.prompt).toMatchObject({ kind: 'react', player: '0', trigger: 'OPPONENT_VALUE_MOVES_EVIDENCE' });
    expect(SCRIPT[at].move).toEqual({ move: 'react', args: ['E42'] });
    // Once the chain settles, the token Nixon named went the other way.
    const log = logSince(s[at], s[at + 2]);
    expect(log).toContain('cancelled');
    expect(log).toContain('redirect');
  },
  ask: (s, at) => {
    expect(play(SCRIPT[at].move)!.target!.kind).toBe('ask');
    expect(logSince(s[at], s[at + 1])).toEqual(expect.arrayContaining(['ask', 'ask.answer', 'value.evidence']));
  },
  event: (s, at) => {
    const p = play(SCRIPT[at].move)!;
    expect(p.as).toBe('action');
    expect(CARDS[p.card].type).toBe('EVENT');
    // Nixon's reaction window stays unused: the picture is pinned face up.
    expect(s[at + 2].G.informants.I_BUTTERFIELD).toBe('up');
  },
  pin: (s, at) => {
    expect(logSince(s[at], s[at + 1])).toContain('evidence.gain');
    expect(s[at + 1].G.prompt).toMatchObject({ kind: 'pin', player: '0' });
    expect(s[at + 1].G.phase).toBe('cards');
    const { token, space } = SCRIPT[at + 1].move.args[0] as { token: string; space: string };
    expect(s[at + 2].G.board[space]).toEqual({ token, up: true });
  },
  assessment: (s, at) => {
    const pin = SCRIPT.findIndex((m, i) => i >= at && m.player === '0' && m.move.move === 'pin');
    expect(s[pin].G.phase).toBe('assessment');
    expect(s[pin].G.prompt).toMatchObject({ kind: 'pin', player: '0' });
    expect(logSince(s[at], s[pin])).toEqual(expect.arrayContaining(['assessment', 'assess.bag', 'assess.initiative', 'assess.reset']));
  },
  informants: (s, at) => {
    // The end: round 2 has begun, nobody has won; the Editor has a face-up informant and pinned evidence.
    expect(at).toBe(SCRIPT.length);
    expect(s[at].G.round).toBe(2);
    expect(s[at].G.winner).toBeNull();
    expect(Object.values(s[at].G.board).filter((p) => p?.up).length).toBe(2);
  },
  win: (s, at) => expect(s[at].G.winner).toBeNull(),
  done: (_s, at) => expect(at).toBe(SCRIPT.length),
};

describe('the tutorial', () => {
  it('its scripted game is legal move by move from its seed, and each step meets its situation', () => {
    const states = replay();
    // The page knows how far the script has got from boardgame.io's state counter.
    states.forEach((s, n) => expect(s._stateID).toBe(n));
    for (const step of STEPS) SITUATION[step.id](states, step.at);
    expect(new Set(STEPS.map((s) => s.id)).size).toBe(STEPS.length);
  });

  it('shows every step in turn: read steps wait for "Next", the others follow the moves', () => {
    const seen: string[] = [];
    let read = 0;
    for (let made = 0; made <= SCRIPT.length; made++) {
      for (;;) {
        const step = STEPS[stepAt(made, read)];
        if (seen.at(-1) !== step.id) seen.push(step.id);
        if (!step.read) break;
        read++;
      }
    }
    expect(seen).toEqual(STEPS.map((s) => s.id));
    // The player is asked only for the Editor's moves, never Nixon's.
    expect(SCRIPT.filter((_, n) => expectedMove(n) !== null).every((m) => m.player === '0')).toBe(true);
  });
});
