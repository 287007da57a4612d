/** For component tests of the lobby's pages (happy-dom): English words with the pages' own, and stubs undone after each test. */
import { afterEach, beforeAll, vi } from 'vitest';
import { cleanup } from '@testing-library/react';
import { initI18n, loadPageWords } from '../../client/i18n';

export function usePageWords(): void {
  beforeAll(async () => {
    localStorage.setItem('watergate.lang', 'en');
    await initI18n();
    await loadPageWords();
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });
}
