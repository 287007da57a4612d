/**
 * The one-screen layout at the sizes in between (the long tier; test/e2e/layout-cases.ts says what they
 * check): the game in sight at 1366 × 900, 1920 × 1080 and on an 820 × 1180 tablet, the whole table at 1366 × 768 and
 * 1440 × 900, a card decision on a 360 × 740 phone in English and Portuguese, the tablet's pages.
 */
import { layoutTests } from './layout-cases';

layoutTests('more');
