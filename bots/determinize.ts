/**
 * Determinization (sampling complete states from a seat's view) lives with the rules in
 * game/determinize.ts, where the game interface's `resample` (game/api.ts) uses it too; the bots keep
 * this module's name for it.
 */
export { excludedColours, samplerFor, type Sampler, type ShuffleRng } from '../game';
