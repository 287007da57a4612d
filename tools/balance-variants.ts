/**
 * Balance proposals for `npm run bench:bots -- --only balance|self --variant NAME`: each one changes only
 * components that are not printed in the rulebook (provenance other than R, docs/COMPONENTS.md), by patching
 * the component data in the benchmark's own process. Nothing here changes the game: an adopted proposal
 * is made in game/ by its owner, and the balance table then shows it without --variant.
 */
import { CARDS, MOMENTUM_CARDS, type Step } from '../game';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const sirica3 = () => void ((CARDS.E38 as Mutable<(typeof CARDS)['E38']>).value = 3);
const momentum1Draw = () => void ((MOMENTUM_CARDS['0'].abilities as Step[][])[0] = [{ op: 'PIN_FROM_BAG', draw: 2, pin: 1 }]);

export const VARIANTS: Record<string, { describe: string; apply(): void }> = {
  'sirica-3': { describe: 'Judge John Sirica (E38, value D) worth 3 instead of 2', apply: sirica3 },
  'editor-momentum-1-draw': {
    describe: "Editor momentum space 1 (ability D): draw 2 tokens from the bag and pin 1, instead of returning 1 token from Nixon's side",
    apply: momentum1Draw,
  },
  // Both levers at once, in the order the reconstruction's design notes advised (values first, then Editor momentum
  // space 1): one of them alone moved the design simulation by about 2.5 points, less than 100 games at
  // level hard can detect.
  'editor-boost': {
    describe: 'sirica-3 and editor-momentum-1-draw together',
    apply: () => (sirica3(), momentum1Draw()),
  },
};

export function applyVariant(name: string): string {
  const v = VARIANTS[name];
  if (!v) throw new Error(`unknown --variant "${name}"; known: ${Object.keys(VARIANTS).join(', ')}`);
  v.apply();
  return v.describe;
}
