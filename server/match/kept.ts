/**
 * What a served match keeps in memory only for boardgame.io's sync and the rare rule that reads it — the
 * match's log (every move's entries; the abort rule asks whether both sides decided) and its initial state
 * (the Debug panel replays the log from it) — kept as JSON text. As objects, a game's log at its middle was
 * about 31 KB of small objects a match (69 moves; 17 KB as text), and the initial state 4 KB, parsed apart from the
 * current state so it shared nothing with it: all of it traced again by every collection of the old
 * generation, whose marking stalled the server's loop at 5,000 matches (docs/LOAD.md "The stall once a
 * window at 5,000"). A string has nothing inside it to trace. Each read parses afresh: the caller owns
 * what it gets.
 */
import type { LogEntry, State } from 'boardgame.io';

export class KeptLog {
  /** One JSON array per move (or per batch loaded from storage), in order. */
  private readonly parts: string[] = [];

  constructor(entries: readonly LogEntry[] = []) {
    this.push(entries);
  }

  push(entries: readonly LogEntry[]): void {
    if (entries.length > 0) this.parts.push(JSON.stringify(entries));
  }

  entries(): LogEntry[] {
    return this.parts.flatMap((p) => JSON.parse(p) as LogEntry[]);
  }
}

/** A state kept as its JSON text. */
export class KeptState {
  private readonly text: string;

  constructor(state: State) {
    this.text = JSON.stringify(state);
  }

  get(): State {
    return JSON.parse(this.text) as State;
  }
}
