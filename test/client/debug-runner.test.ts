/**
 * The Debug panel's runner against our bot (client/local/debugAI.ts): a "simulate" run plays the person's
 * seat and ends where it hands the game to the bot — also when the bot answers before the run's next step
 * (100 ms after its move) — while a run whose player decides again goes on, and a later press starts anew.
 * The store is a stand-in holding real states of a seeded game; the clock is the test's.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { State } from 'boardgame.io';
import { Watergate, type PlayerID, type WatergateState } from '../../game';
import { debugRunner, type DebugRunner } from '../../client/local/debugAI';
import type { GameClientInstance } from '../../client/net/GameClient';
import { advanceDriver, initialState, playout, randomChooser } from '../../tools/playout';
import { botRng } from '../../bots/rng';

type S = State<WatergateState>;

/** Three states in a row of one seeded game whose deciders are `who` (e.g. Editor, Nixon, Editor). */
function run(who: [PlayerID, PlayerID, PlayerID]): [S, S, S] {
  for (let g = 0; g < 20; g++) {
    const seen: S[] = [];
    const driver = advanceDriver();
    const end = playout(driver, initialState(Watergate as never, `runner-${g}`), randomChooser(botRng(g)));
    for (const step of end) {
      seen.push(step.state);
      const n = seen.length;
      if (n >= 3 && seen.slice(n - 3).every((s, i) => s.G.prompt?.player === who[i])) return seen.slice(n - 3) as [S, S, S];
    }
  }
  throw new Error(`no three states decided by ${who.join(', ')}`);
}

/**
 * The client's store as the runner sees it: the state now; each change reaches the runner as the local
 * page passes it on (GameClient's one subscription calls onUpdate, which attaches the client).
 */
function store(first: S, runner: DebugRunner) {
  let state = first;
  const client = { store: { getState: () => state } } as unknown as GameClientInstance;
  return {
    client,
    set(next: S) {
      state = next;
      runner.attach(client);
    },
  };
}

let clock = 10_000;
const at = (ms: number) => (clock = ms);

describe("the Debug panel's runner against our bot (Nixon)", () => {
  vi.spyOn(performance, 'now').mockImplementation(() => clock);
  afterEach(() => at(10_000));

  it('ends the run at the bot, even when the bot answered before the run\'s next step; a later press plays again', () => {
    const [editor, nixon, again] = run(['0', '1', '0']);
    const runner = debugRunner(() => '1');
    const s = store(editor, runner);
    runner.attach(s.client);
    at(20_000);
    expect(runner.enumerate(editor.G, editor.ctx, '0').length).toBeGreaterThan(0); // the run's first search
    at(20_050);
    s.set(nixon); // the panel's move: Nixon (the bot) to decide
    expect(runner.enumerate(nixon.G, nixon.ctx, '1')).toEqual([]); // never the bot's seat
    at(20_055);
    s.set(again); // the bot answered at once
    at(20_160); // the run's next step, 110 ms after its move
    expect(runner.enumerate(again.G, again.ctx, '0')).toEqual([]);
    at(25_000); // a press of "play" or "simulate" seconds later
    expect(runner.enumerate(again.G, again.ctx, '0').length).toBeGreaterThan(0);
  });

  it('goes on while the person decides again', () => {
    const [first, second] = run(['0', '0', '0']);
    const runner = debugRunner(() => '1');
    const s = store(first, runner);
    runner.attach(s.client);
    at(20_000);
    expect(runner.enumerate(first.G, first.ctx, '0').length).toBeGreaterThan(0);
    at(20_050);
    s.set(second); // the panel's move: the Editor decides again
    at(20_160);
    expect(runner.enumerate(second.G, second.ctx, '0').length).toBeGreaterThan(0);
  });
});
