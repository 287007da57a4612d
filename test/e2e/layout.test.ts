/**
 * The one-screen layout, the cases `npm test` runs (test/e2e/layout-cases.ts says what they check): 1280 × 720
 * and 1920 × 1080, 1280 × 720 in Portuguese, the 390 × 844 phone, the tutorial, every page on a phone and a
 * laptop, Chinese and Portuguese, the Debug panel's AI tab. The sizes in between run in the long tier
 * (layout-sizes.test.ts).
 */
import { layoutTests } from './layout-cases';

layoutTests('core');
