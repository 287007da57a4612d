/** Driving boardgame.io's Debug panel as a developer does (the panel listens for its keys on the page). */
import type { Page } from 'playwright-core';

/** Sets one of the AI tab's sliders as a person would drag it. */
export const slider = (page: Page, key: string, value: number) =>
  page.evaluate(
    ([k, v]) => {
      const input = document.getElementById(`ai-option-${k}`) as HTMLInputElement;
      input.value = String(v);
      input.dispatchEvent(new Event('change'));
    },
    [key, value] as const,
  );

/** Presses one of the panel's keys with nothing focused. */
export async function key(page: Page, k: string): Promise<void> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press(k);
}
