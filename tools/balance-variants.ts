/**
 * Balance proposals for `npm run bench:bots -- --only balance|self --variant NAME`: each one changes only
 * components that are not printed in the rulebook (provenance other than R, docs/COMPONENTS.md), by patching
 * the component data in the benchmark's own process. Nothing here changes the game: an adopted proposal is
 * made in game/, and the balance tables then show it without --variant.
 *
 * Adopted so far: Judge John Sirica (E38) worth 3 (2026-12-01, docs/BALANCE.md). `sirica-2` plays the
 * components as they were before, so the paired before/after tables can be rebuilt and extended.
 */
import { CARDS, MOMENTUM_CARDS, type Step } from '../game';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

export const VARIANTS: Record<string, { describe: string; apply(): void }> = {
  'sirica-2': {
    describe: 'the components before 2026-12-01: Judge John Sirica (E38) worth 2',
    apply: () => void ((CARDS.E38 as Mutable<(typeof CARDS)['E38']>).value = 2),
  },
  'editor-momentum-1-draw': {
    describe: "Editor momentum space 1 (ability D): draw 2 tokens from the bag and pin 1, instead of returning 1 token from Nixon's side",
    apply: () => void ((MOMENTUM_CARDS['0'].abilities as Step[][])[0] = [{ op: 'PIN_FROM_BAG', draw: 2, pin: 1 }]),
  },
};

export function applyVariant(name: string): string {
  const v = VARIANTS[name];
  if (!v) throw new Error(`unknown --variant "${name}"; known: ${Object.keys(VARIANTS).join(', ')}`);
  v.apply();
  return v.describe;
}
