import { describe, expect, it } from 'vitest';
import { benchEvent, eventTables, paceOf } from '../../tools/load/event-bench';

// The events benchmark (tools/bench-events.ts, docs/LOAD.md "Events"), small: a Swiss whose games the
// bots play to their end through the server's move path, every game with the server's result.
describe('events benchmark', () => {
  const base = { players: 8, rounds: 2, background: 1, backend: 'embedded', play: 'bots', pace: paceOf('flat'), clock: 'live' } as const;

  for (const paired of [false, true]) {
    it(`a ${paired ? 'paired ' : ''}8-player, 2-round Swiss played move by move by bots completes, each game ended by the rules, with a line per round`, async () => {
      const r = await benchEvent({ ...base, paired });
      const games = 2 * 4 * (paired ? 2 : 1);
      expect(r.status).toBe('finished');
      expect(r.gamesExpected).toBe(games);
      expect(r.gamesWithResult).toBe(games);
      // Played out, not resigned or flagged: every ending is one of the game's own (connected, momentum, supply).
      expect(Object.values(r.endings).reduce((s, n) => s + n, 0)).toBe(games);
      for (const why of Object.keys(r.endings)) expect(['connected', 'momentum', 'supply']).toContain(why);
      // A random game is dozens of decisions a side: the moves were made and timed one by one.
      expect(r.moves.event.during.n + r.moves.event.rest.n).toBeGreaterThan(games * 30);
      expect(r.refusals).toBe(0);
      expect(r.rounds.map((x) => x.round)).toEqual([1, 2]);
      for (const x of r.rounds) {
        expect(x.games).toBe(4 * (paired ? 2 : 1));
        expect(x.startMs).toBeGreaterThanOrEqual(0);
        expect(x.durationMs).toBeGreaterThan(0);
      }
      const text = eventTables(r, 'test machine', '2026-12-04');
      expect(text.split('\n').filter((l) => /^\| \d+ \|/.test(l))).toHaveLength(2);
      expect(text).toContain(`${games} of ${games} games with a result`);
    });
  }

  it('a pace is a name or MIN-MAX ms, nothing else', () => {
    expect(paceOf('person')).toEqual([1000, 4000]);
    expect(paceOf('50-300')).toEqual([50, 300]);
    expect(() => paceOf('300-50')).toThrow();
    expect(() => paceOf('fast')).toThrow();
  });
});
