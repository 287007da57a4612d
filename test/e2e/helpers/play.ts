/** Drives a player's page through the board's own controls, the way a person would. */
import type { Locator, Page } from 'playwright-core';
import type { Session } from './browser';

export interface BoardState {
  round: number;
  phase: string;
  log: number;
  prompt: string | null;
  player: string | null;
  mine: boolean;
}

export async function boardState(page: Page): Promise<BoardState> {
  return page.evaluate(() => {
    const game = document.querySelector('.game') as HTMLElement | null;
    const prompt = document.querySelector('.prompt') as HTMLElement | null;
    return {
      round: Number(game?.dataset.round ?? 0),
      phase: game?.dataset.phase ?? '',
      log: document.querySelectorAll('.record-lines li').length,
      prompt: prompt?.dataset.prompt ?? null,
      player: prompt?.dataset.player ?? null,
      mine: !!prompt?.classList.contains('mine'),
    };
  });
}

const sig = (s: BoardState) => `${s.round}|${s.phase}|${s.log}|${s.prompt}|${s.player}`;

/** Waits until the page shows a different game state than `before`. */
export async function waitForChange(page: Page, before: BoardState, timeout = 15_000): Promise<BoardState> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const now = await boardState(page);
    if (sig(now) !== sig(before)) return now;
    if (Date.now() > deadline) throw new Error(`no change after a move: ${sig(before)}`);
    await page.waitForTimeout(50);
  }
}

/**
 * A click that makes a decision. The board re-renders as soon as the decision is sent; when that removes
 * the target before Playwright has checked that its click landed, Playwright reports it detached and
 * clicks again, waiting for a target the decision took away (microsoft/playwright#4856). So the click is
 * tried in short attempts, and counts as made once the board shows another state.
 */
async function decisive(page: Page, target: Locator, timeout = 30_000): Promise<void> {
  const before = sig(await boardState(page));
  const deadline = Date.now() + timeout;
  for (;;) {
    try {
      await target.click({ timeout: 5_000 });
      return;
    } catch (e) {
      if (sig(await boardState(page)) !== before) return;
      if (Date.now() > deadline) throw e;
    }
  }
}

/**
 * Takes one decision on the page whose prompt is its own. The Editor prefers moving evidence toward
 * himself (asks and face-up tokens), Nixon prefers the initiative and momentum tokens, so evidence
 * ends the round on the Editor's side and the assessment has pins to make.
 * Returns what kind of decision it was.
 */
export async function decide(page: Page, role: '0' | '1'): Promise<string> {
  // Offline (a socket dropped on a busy machine) nothing can be chosen: wait until the page is back.
  await page.locator('[data-offline]').waitFor({ state: 'detached', timeout: 30_000 });
  const state = await boardState(page);
  const prompt = page.locator('.prompt.mine');
  switch (state.prompt) {
    case 'play': {
      // Where the hand is a drawer (phone, tablet), open it first.
      const drawer = page.locator('.hand-toggle');
      if ((await drawer.isVisible()) && (await drawer.getAttribute('aria-expanded')) !== 'true') await drawer.click();
      const cards = page.locator('.hand-cards button.card');
      await cards.first().waitFor();
      const n = await cards.count();
      const [best, next] = role === '0' ? ['ask', 'evidence'] : ['initiative', 'momentum'];
      const playAs = async (kind: string) => {
        // Markers are clicked on the track itself: legal targets light up there.
        if (kind === 'initiative' || kind === 'momentum') await decisive(page, page.locator(`.track [data-piece="${kind}"].target`));
        else await decisive(page, prompt.locator(`.option[data-kind="${kind}"]`).first());
        return `play:${kind}`;
      };
      // One pass over the hand (a click on a card shows its options; on the card already picked, puts it
      // back): the first card that offers the best kind is played so at once; otherwise the first that
      // offered the next one, or else the first card's first option.
      let picked = -1;
      const pick = async (i: number) => {
        if (picked !== i) await cards.nth(i).click();
        picked = i;
      };
      let fallback = -1;
      for (let i = 0; i < n; i++) {
        await pick(i);
        if ((await prompt.locator(`.option[data-kind="${best}"]`).count()) > 0) return playAs(best);
        if (fallback < 0 && (await prompt.locator(`.option[data-kind="${next}"]`).count()) > 0) fallback = i;
      }
      if (fallback >= 0) {
        await pick(fallback);
        return playAs(next);
      }
      await pick(0);
      await decisive(page, prompt.locator('.option').first());
      return 'play:first';
    }
    case 'playDrawn':
      await decisive(page, prompt.locator('.option').first());
      return 'playDrawn';
    case 'answer':
      await decisive(page, page.locator('.track .piece.target').first());
      return 'answer';
    case 'target': {
      // On the track, as a player does where the phone's dock folds to one line for it.
      const piece = page.locator('.track .piece.target').first();
      await decisive(page, (await piece.count()) > 0 ? piece : prompt.locator('.option').last());
      return 'target';
    }
    case 'react':
      await decisive(page, prompt.locator('.option[data-kind="pass"]'));
      return 'react';
    case 'pin':
      await decisive(page, page.locator('.evidence-board .space.target').first());
      return state.phase === 'assessment' ? 'pin:assessment' : 'pin';
    default:
      await decisive(page, prompt.locator('.option').last());
      return state.prompt ?? 'none';
  }
}

/** "Play vs computer" from the lobby, as the Editor against the easy computer: the match's ID once its board shows. */
export async function startVsComputer(page: Page, url: string, name = 'Ben'): Promise<string> {
  await page.goto(`${url}/#/`);
  await page.getByLabel('Your name').fill(name);
  const vs = page.getByRole('group', { name: 'Play vs computer' });
  await vs.getByLabel('Your role').selectOption({ label: 'Editor' });
  await vs.getByLabel('Level').selectOption({ label: 'Easy' });
  await vs.locator('[data-vs-computer]').click();
  await page.waitForURL(/#\/match\//);
  await page.locator('.game').waitFor();
  return page.url().split('/match/')[1];
}

/** `count` of the Editor's decisions on `page` (the computer answers in between), then the Editor resigns. */
export async function playThenResign(page: Page, count: number): Promise<void> {
  for (let mine = 0; mine < count; ) {
    const s = await boardState(page);
    if (!s.mine) {
      await page.waitForTimeout(100);
      continue;
    }
    await decide(page, '0');
    mine++;
    await waitForChange(page, s);
  }
  await page.locator('[data-resign]').click();
  await page.locator('[data-resign-confirm]').click();
  await page.locator('.gameover').waitFor();
}

/**
 * Two browsers: one creates a match from the lobby as the Editor (after `form` has set the create
 * form's own choices, if given), the other joins it as Nixon from the lobby list.
 */
export async function twoPlayers(session: Session, url: string, form?: (page: Page) => Promise<void>) {
  const [editorCtx, nixonCtx] = [await session.context(), await session.context()];
  const [editor, nixon] = [await editorCtx.newPage(), await nixonCtx.newPage()];
  await editor.goto(`${url}/#/`);
  await editor.getByLabel('Your name').fill('Ann');
  await form?.(editor);
  await editor.locator('[data-create="0"]').click();
  await editor.waitForURL(/#\/match\//);
  const matchID = editor.url().split('/match/')[1];
  await nixon.goto(`${url}/#/`);
  await nixon.getByLabel('Your name').fill('Bob');
  await nixon.locator(`[data-match="${matchID}"] [data-join="1"]`).click();
  await nixon.locator('.game').waitFor();
  await editor.locator('.game').waitFor();
  return { matchID, editor, nixon, close: async () => Promise.all([editorCtx.close(), nixonCtx.close()]) };
}
