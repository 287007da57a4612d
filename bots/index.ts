/**
 * Watergate's bots. Ours (`think`) plays from its own seat's view only; boardgame.io's MCTSBot is
 * configured in bgio.ts. Off the main thread: pool.ts (Node worker threads) and browser.ts (Web Worker).
 */
export { think, LEVELS, isLevel, type BotConfig, type Level } from './levels';
export type { Decision } from './ismcts';
export { editorWinChance, connectionCost } from './evaluate';
