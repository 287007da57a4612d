/** Tests drive the pure engine with the bots' seeded PRNG (boardgame.io's own PRNG drives real matches). */
export { botRng as seeded } from '../../bots/rng';
