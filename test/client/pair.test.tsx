// @vitest-environment happy-dom
/**
 * A paired deal's line above the board (client/lobby/Pair.tsx, from the server's MatchStatus.pair): game 1
 * says the same deal comes next with sides swapped; game 2 links game 1 and gives the pair's score so far
 * by name — the first game's winner sits on the other seat now — with the event's page when it is one.
 * Words in the three languages.
 */
import { describe, expect, it } from 'vitest';
import { render } from '@testing-library/react';
import Pair from '../../client/lobby/Pair';
import { resources } from '../helpers/i18n';
import { usePageWords } from '../helpers/page-words';

usePageWords();

describe('a paired deal above the board', () => {
  it('game 1 of 2: the same deal comes next, with sides swapped, and the event is linked', () => {
    const { container } = render(<Pair pair={{ game: 1, event: 'ev1' }} names={['Ann', 'Bo']} />);
    expect(container.textContent).toContain('Game 1 of 2 of a paired deal: the same deal comes next, with sides swapped.');
    expect(container.querySelector('a')!.getAttribute('href')).toBe('#/events/ev1');
  });

  it("game 2 of 2: game 1's replay and the score so far, naming game 1's winner (now on the other seat)", () => {
    // Here Bo is the Editor (seat 0) and Ann Nixon; in game 1 Ann was the Editor and won.
    const { container } = render(<Pair pair={{ game: 2, first: { matchID: 'g1', winner: 'editor' } }} names={['Bo', 'Ann']} />);
    expect(container.textContent).toContain('Game 2 of 2 of a paired deal');
    expect(container.textContent).toContain('Pair score so far: Ann 1 – 0 Bo');
    const links = [...container.querySelectorAll('a')].map((a) => a.getAttribute('href'));
    expect(links).toEqual(['#/replay/g1']); // a challenge's pair: no event page
  });

  it('game 2 after a game 1 nobody won: 0 – 0', () => {
    const { container } = render(<Pair pair={{ game: 2, first: { matchID: 'g1', winner: null } }} names={['Bo', 'Ann']} />);
    expect(container.textContent).toContain('Pair score so far: 0 – 0 (nobody won game 1)');
  });

  it.each(['en', 'pt-BR', 'zh-CN'] as const)('%s words every line', (lng) => {
    const words = (resources[lng].translation as unknown as { pair: Record<string, string> }).pair;
    for (const k of ['first', 'second', 'firstGame', 'soFar', 'soFarNone', 'event', 'game', 'score']) expect(words?.[k]?.trim(), `${lng} ${k}`).toBeTruthy();
    for (const k of ['soFar', 'score']) expect(words[k]).toMatch(/\{\{/);
  });
});
