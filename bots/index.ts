/**
 * Watergate's bots. Ours (`think`) plays from its own seat's view only; boardgame.io's MCTSBot is
 * configured in bgio.ts. Off the main thread: pool.ts (Node worker threads) and browser.ts (Web Worker).
 *
 * The folder's entries — the only files code outside bots/ (tests aside) imports, checked by
 * test/architecture.test.ts: this one (the search and its levels), `browser.ts` (the browser's Web
 * Worker bot), `pool.ts` (worker threads for a server), `bgio.ts` (boardgame.io Bot classes) and `arena.ts`
 * (headless matches between bots).
 */
export { think, LEVELS, type BotConfig, type Level } from './levels';
export type { Decision, RootStat } from './ismcts';
export type { Thinker } from './bgio';
export { editorWinChance, connectionCost } from './evaluate';
export { botRng, seedFrom, type BotRng } from './rng';
export { analyse, review, sameMove, ANALYSIS, type Analysis, type MoveValue, type Review } from './analyse';
