/**
 * The 36 evidence tokens: 30 go in the bag, 6 spares stay in the box. RECONSTRUCTED (provenance D)
 * from docs/COMPONENTS.md "Evidence tokens": the rulebook gives the count (36, 30 in the bag) but not the mix.
 */
import type { TokenDef, TokenId } from './types';

export const TOKENS: readonly TokenDef[] = [
  { id: 'T01', colours: ["blue"], momentum: true, use: 'bag' },
  { id: 'T02', colours: ["blue"], momentum: false, use: 'bag' },
  { id: 'T03', colours: ["blue"], momentum: false, use: 'bag' },
  { id: 'T04', colours: ["blue"], momentum: false, use: 'bag' },
  { id: 'T05', colours: ["blue"], momentum: false, use: 'bag' },
  { id: 'T06', colours: ["blue"], momentum: false, use: 'bag' },
  { id: 'T07', colours: ["blue"], momentum: false, use: 'bag' },
  { id: 'T08', colours: ["blue"], momentum: false, use: 'bag' },
  { id: 'T09', colours: ["yellow"], momentum: true, use: 'bag' },
  { id: 'T10', colours: ["yellow"], momentum: false, use: 'bag' },
  { id: 'T11', colours: ["yellow"], momentum: false, use: 'bag' },
  { id: 'T12', colours: ["yellow"], momentum: false, use: 'bag' },
  { id: 'T13', colours: ["yellow"], momentum: false, use: 'bag' },
  { id: 'T14', colours: ["yellow"], momentum: false, use: 'bag' },
  { id: 'T15', colours: ["yellow"], momentum: false, use: 'bag' },
  { id: 'T16', colours: ["yellow"], momentum: false, use: 'bag' },
  { id: 'T17', colours: ["green"], momentum: true, use: 'bag' },
  { id: 'T18', colours: ["green"], momentum: false, use: 'bag' },
  { id: 'T19', colours: ["green"], momentum: false, use: 'bag' },
  { id: 'T20', colours: ["green"], momentum: false, use: 'bag' },
  { id: 'T21', colours: ["green"], momentum: false, use: 'bag' },
  { id: 'T22', colours: ["green"], momentum: false, use: 'bag' },
  { id: 'T23', colours: ["green"], momentum: false, use: 'bag' },
  { id: 'T24', colours: ["green"], momentum: false, use: 'bag' },
  { id: 'T25', colours: ["blue", "yellow"], momentum: true, use: 'bag' },
  { id: 'T26', colours: ["blue", "yellow"], momentum: false, use: 'bag' },
  { id: 'T27', colours: ["yellow", "green"], momentum: true, use: 'bag' },
  { id: 'T28', colours: ["yellow", "green"], momentum: false, use: 'bag' },
  { id: 'T29', colours: ["green", "blue"], momentum: true, use: 'bag' },
  { id: 'T30', colours: ["green", "blue"], momentum: false, use: 'bag' },
  { id: 'T31', colours: ["blue"], momentum: false, use: 'spare' },
  { id: 'T32', colours: ["blue"], momentum: false, use: 'spare' },
  { id: 'T33', colours: ["yellow"], momentum: false, use: 'spare' },
  { id: 'T34', colours: ["yellow"], momentum: false, use: 'spare' },
  { id: 'T35', colours: ["green"], momentum: false, use: 'spare' },
  { id: 'T36', colours: ["green"], momentum: false, use: 'spare' },];

export const TOKEN: Readonly<Record<TokenId, TokenDef>> = Object.fromEntries(TOKENS.map((t) => [t.id, t]));
export const BAG_TOKENS: readonly TokenId[] = TOKENS.filter((t) => t.use === 'bag').map((t) => t.id);
export const SPARE_TOKENS: readonly TokenId[] = TOKENS.filter((t) => t.use === 'spare').map((t) => t.id);
export const MOMENTUM_TOKENS = 9;
