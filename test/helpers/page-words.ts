/** For component tests of the lobby's pages (happy-dom): a language's words with the pages' own (English by default), and stubs undone after each test. */
import { afterEach, beforeAll, vi } from 'vitest';
import { cleanup } from '@testing-library/react';
import { initI18n, loadPageWords, setLanguage, type Language } from '../../client/i18n';

export function usePageWords(lang: Language = 'en'): void {
  beforeAll(async () => {
    localStorage.setItem('watergate.lang', lang);
    await initI18n();
    if (lang !== 'en') await setLanguage(lang);
    await loadPageWords();
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });
}
