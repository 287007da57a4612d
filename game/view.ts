/**
 * playerView: each viewer's information state, made by `hide` in game/infostate.ts from the one list of
 * the game's secrets (docs/RULES.md "Who sees what").
 */
export { hide as playerView } from './infostate';
