/**
 * Above the board of a paired deal's game (docs/EVENTS.md "Paired deals"; protocol MatchPair from the
 * server's status): which game of the pair this is — the first says the same deal comes next with sides
 * swapped; the second links the first and gives the pair's score so far (games won). The names are the
 * seats' (the second game's Editor was the first's Nixon). Nothing of the deal itself: the server sends none.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { MatchPair } from '../../protocol/index';

export default function Pair({ pair, names }: { pair: MatchPair; names: [string | undefined, string | undefined] }): ReactNode {
  const { t } = useTranslation();
  const event = pair.event ? (
    <>
      {' '}
      <a href={`#/events/${encodeURIComponent(pair.event)}`}>{t('pair.event')}</a>
    </>
  ) : null;
  if (pair.game === 1 || !pair.first)
    return (
      <p className="hint pair" data-pair="1">
        {t('pair.first')}
        {event}
      </p>
    );
  // This game's seats swapped: the first game's Editor sits at seat 1 here, its Nixon at seat 0.
  const [editor1, nixon1] = [names[1] ?? t('role.1'), names[0] ?? t('role.0')];
  const w = pair.first.winner;
  const soFar = w === null ? t('pair.soFarNone') : t('pair.soFar', { leader: w === 'editor' ? editor1 : nixon1, other: w === 'editor' ? nixon1 : editor1 });
  return (
    <p className="hint pair" data-pair="2">
      {t('pair.second')} <a href={`#/replay/${pair.first.matchID}`}>{t('pair.firstGame')}</a> · {soFar}
      {event}
    </p>
  );
}
