/** The client's translations outside the browser (tools/words.ts), for tests that render words. */
export { resources, translator } from '../../tools/words';
