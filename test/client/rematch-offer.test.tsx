// @vitest-environment happy-dom
/**
 * The rematch invitation with the server's answers stubbed: a rematch of a rated game that changed a
 * setting says it is unrated and what changed, beside the accept button, in each language; one of an
 * unrated game lists the changes without the word; an unchanged one shows only the offer.
 */
import { describe, expect, it, vi } from 'vitest';
import { render } from '@testing-library/react';
import { setLanguage } from '../../client/i18n';
import AfterTheGame from '../../client/lobby/Rematch';
import type { PublicMatch, SettingChange } from '../../protocol/index';
import { usePageWords } from '../helpers/page-words';

usePageWords();

const LIVE = { initialSeconds: 600, incrementSeconds: 10, onTimeout: 'lose' } as const;
const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

function serve(oldRated: boolean, changed?: SettingChange[]) {
  const next: PublicMatch = { matchID: 'nx', gameName: 'watergate', players: [{ id: 0 }, { id: 1, name: 'Ann' }], createdAt: 1, updatedAt: 1, ...(changed ? { changed } : { rated: oldRated }) };
  const old: PublicMatch = { matchID: 'old', gameName: 'watergate', players: [{ id: 0, name: 'Ann' }, { id: 1, name: 'Bob' }], createdAt: 1, updatedAt: 1, ...(oldRated ? { rated: true } : {}) };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string | URL | Request) => {
      const path = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url).pathname;
      return json(path.endsWith('/nx') ? next : old);
    }),
  );
}

const offer = async () => {
  const { container } = render(<AfterTheGame matchID="old" seat={{ matchID: 'old', playerID: '1', credentials: 'c', name: 'Bob' }} next="nx" />);
  await vi.waitFor(() => expect(container.querySelector('[data-rematch-accept]')).not.toBeNull());
  return container;
};

const CHANGES: SettingChange[] = [
  { setting: 'clock', from: LIVE, to: { initialSeconds: 1, incrementSeconds: 0, onTimeout: 'lose' } },
  { setting: 'hints', from: false, to: true },
];

describe('the rematch invitation', () => {
  it('says a rated game\'s changed rematch is unrated and what changed, in three languages', async () => {
    serve(true, CHANGES);
    let c = await offer();
    expect(c.querySelector('[data-rematch-changes="unrated"]')!.textContent).toMatch(/^Rematch — unrated: clock 1 sec \+ 0 sec instead of 10 min \+ 10 sec; hints on instead of off\.$/);
    expect(c.querySelector('[data-rematch-accept]')!.textContent).toBe('Accept: play Editor');
    for (const [lang, words] of [
      ['pt-BR', /^Revanche — não vale classificação: relógio .* em vez de .*; dicas ativadas em vez de desativadas\.$/],
      ['zh-CN', /^再来一局——不计分：计时为.*（原为.*）；提示为开启（原为关闭）。$/],
    ] as const) {
      await setLanguage(lang, false);
      c.remove();
      c = await offer();
      await vi.waitFor(() => expect(c.querySelector('[data-rematch-changes]')?.textContent).toMatch(words));
    }
    await setLanguage('en', false);
  });

  it('lists an unrated game\'s changes without calling it unrated, and shows nothing more when nothing changed', async () => {
    serve(false, [{ setting: 'abandonMinutes', from: null, to: 15 }]);
    const c = await offer();
    expect(c.querySelector('[data-rematch-changes="changed"]')!.textContent).toBe('Changed for the rematch: hand-over after 15 min instead of never.');
    c.remove();
    serve(true);
    const same = await offer();
    expect(same.querySelector('[data-rematch-changes]')).toBeNull();
  });
});
