// @vitest-environment happy-dom
/**
 * The level picker of the lobby's "vs computer" and of local mode offers the computer's levels as
 * protocol/ lists them, easiest first, each in the player's words, and reports the one chosen.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { initI18n } from '../../client/i18n';
import { LevelSelect } from '../../client/LevelSelect';
import { LEVEL_NAMES } from '../../protocol/index';

beforeAll(async () => {
  localStorage.setItem('watergate.lang', 'en');
  await initI18n();
});
afterEach(cleanup);

describe('LevelSelect', () => {
  it('offers every level, easiest first, in words, and reports the one chosen', () => {
    const chosen = vi.fn();
    render(<LevelSelect value="normal" onChange={chosen} marker="data-level" />);
    const select = screen.getByRole('combobox') as HTMLSelectElement;
    const options = [...select.options];
    expect(options.map((o) => o.value)).toEqual([...LEVEL_NAMES]);
    expect(options.map((o) => o.textContent)).toEqual(['Easy', 'Normal', 'Hard', 'Expert']);
    expect(select.value).toBe('normal');
    fireEvent.change(select, { target: { value: 'hard' } });
    expect(chosen).toHaveBeenCalledWith('hard');
  });
});
