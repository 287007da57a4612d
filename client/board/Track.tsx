/**
 * The research track −5…+5, drawn vertically with the viewer's own side nearest to them (at the bottom).
 * The Editor and spectators see face-down tokens as backs; Nixon sees their colours (the view decides).
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { PlayerID, WatergateView } from '../../game';
import { posLabel, roleName, tokenName } from '../i18n/words';
import type { LastMove } from './lastMove';
import { ColourPatterns, EvidenceDisc, InitiativeDisc, MomentumDisc, clickable } from './tokens';

const W = 176;
const ROW = 46;
const TOP = 30;
const LABEL = 34;

interface Piece {
  key: string;
  kind: 'initiative' | 'momentum' | 'evidence';
  id: string | null;
  up: boolean;
}

interface Props {
  view: WatergateView;
  viewer: PlayerID | null;
  /** Legal targets now: 'initiative', 'momentum' or a token id, with what clicking does. */
  targets: Map<string, () => void>;
  /** The opponent's last action: the pieces it moved are marked, with where they came from. */
  last?: LastMove | null;
}

export function Track({ view, viewer, targets, last }: Props): ReactNode {
  const { t } = useTranslation();
  const bottom: PlayerID = viewer === '1' ? '1' : '0';
  const sign = bottom === '0' ? 1 : -1;
  const rowOf = (pos: number) => 5 + sign * pos; // 0 = top row
  const spaces = Array.from({ length: 11 }, (_, i) => i - 5);
  const pieces = new Map<number, Piece[]>();
  const add = (pos: number, p: Piece) => pieces.set(pos, [...(pieces.get(pos) ?? []), p]);
  if (view.track.initiative !== null) add(view.track.initiative, { key: 'initiative', kind: 'initiative', id: null, up: true });
  if (view.track.momentum !== null) add(view.track.momentum, { key: 'momentum', kind: 'momentum', id: null, up: true });
  view.track.evidence.forEach((e, i) => add(e.pos, { key: e.id ?? `hidden-${i}`, kind: 'evidence', id: e.id, up: e.up }));
  const height = TOP * 2 + ROW * 11;
  const top = roleName(t, bottom === '0' ? '1' : '0');
  const moved = (p: Piece) => !!last?.from.has(p.kind === 'evidence' ? (p.id ?? '') : p.kind);
  return (
    <svg className="track" viewBox={`0 0 ${W} ${height}`} role="group" aria-label={t('board.track')}>
      <ColourPatterns prefix="tr" />
      <text x={W / 2} y={TOP - 10} textAnchor="middle" fontSize={15} fontWeight={700} fill="#444">
        ▲ {t('board.sideOf', { role: top })}
      </text>
      <text x={W / 2} y={height - 9} textAnchor="middle" fontSize={15} fontWeight={700} fill="#1d3f6e">
        ▼ {viewer ? t('board.yourSide') : t('board.sideOf', { role: roleName(t, bottom) })}
      </text>
      {spaces.map((pos) => {
        const y = TOP + rowOf(pos) * ROW;
        const here = pieces.get(pos) ?? [];
        const gain = Math.abs(pos) === 5;
        const fill = pos === 0 ? '#f3efe4' : pos > 0 ? (gain ? '#cfe0f5' : '#e6eef8') : gain ? '#e3d4d4' : '#f4eaea';
        const label = `${t('board.trackSpace', { label: posLabel(t, pos) })}: ${
          here
            .map((p) => (p.kind === 'evidence' ? (p.id ? tokenName(t, p.id) : t('board.faceDownToken')) : t(`board.${p.kind}Token`)))
            .join(', ') || t('board.empty')
        }`;
        const n = here.length;
        const perRow = n > 5 ? Math.ceil(n / 2) : n;
        const r = n > 5 ? 9 : 12;
        return (
          <g key={pos} className="track-space" role="img" aria-label={label}>
            <rect x={2} y={y} width={W - 4} height={ROW - 2} rx={6} fill={fill} stroke={pos === 0 ? '#777' : '#bbb'} strokeWidth={pos === 0 ? 2 : 1} />
            <text x={20} y={y + ROW / 2} dy="0.35em" textAnchor="middle" fontSize={16} fontWeight={700} fill={pos === 0 ? '#333' : pos > 0 ? '#1d3f6e' : '#6e1d1d'}>
              {Math.abs(pos)}
            </text>
            {here.map((p, i) => {
              const row = Math.floor(i / perRow);
              const col = i % perRow;
              const cx = LABEL + 14 + col * (r * 2 + 4);
              const cy = n > 5 ? y + 12 + row * 20 : y + ROW / 2 - 1;
              const act = targets.get(p.kind === 'evidence' ? (p.id ?? '') : p.kind);
              const name = p.kind === 'evidence' ? (p.id ? tokenName(t, p.id) : t('board.faceDownToken')) : t(`board.${p.kind}Token`);
              return (
                <g key={p.key} className={act ? 'piece target' : 'piece'} data-piece={p.kind === 'evidence' ? (p.id ?? 'hidden') : p.kind} data-last-move={moved(p) ? 'to' : undefined} {...clickable(name, act)}>
                  <title>{name}</title>
                  {moved(p) && <circle className="last-move-ring" cx={cx} cy={cy} r={r + 4} />}
                  {act && <circle className="halo" cx={cx} cy={cy} r={r + 5} fill="none" stroke="#ff7a00" strokeWidth={3} />}
                  {p.kind === 'initiative' ? (
                    <InitiativeDisc x={cx} y={cy} r={r} />
                  ) : p.kind === 'momentum' ? (
                    <MomentumDisc x={cx} y={cy} r={r} />
                  ) : (
                    <EvidenceDisc id={p.id} up={p.up} x={cx} y={cy} r={r} pat="tr" />
                  )}
                </g>
              );
            })}
          </g>
        );
      })}
      {last && <LastMoveArrows last={last} view={view} rowOf={rowOf} />}
    </svg>
  );
}

/**
 * Where the opponent's moved pieces came from: a dashed outline on the space each left and an arrow down
 * the left edge to where it is now (to its gain space if it was gained and left the track).
 */
function LastMoveArrows({ last, view, rowOf }: { last: LastMove; view: WatergateView; rowOf: (pos: number) => number }): ReactNode {
  const { t } = useTranslation();
  const mid = (pos: number) => TOP + rowOf(pos) * ROW + ROW / 2 - 1;
  const gain = last.player === '0' ? 5 : -5;
  return (
    <g className="last-move-from" aria-hidden="true">
      {[...last.from].map(([piece, from], k) => {
        const now = piece === 'initiative' || piece === 'momentum' ? view.track[piece] : view.track.evidence.find((e) => e.id === piece)?.pos;
        const to = now ?? gain;
        if (to === from) return null;
        const x = 7 + (k % 3) * 4;
        const [y1, y2] = [mid(from), mid(to)];
        const head = y2 > y1 ? -1 : 1;
        return (
          <g key={piece} data-last-move="from" data-from-piece={piece} data-from={from}>
            <title>{t('info.movedFrom')}</title>
            <rect className="last-move-space" x={3} y={TOP + rowOf(from) * ROW + 1} width={W - 6} height={ROW - 4} rx={6} />
            <path className="last-move-arrow" d={`M ${x} ${y1} L ${x} ${y2} M ${x - 4} ${y2 + head * 6} L ${x} ${y2} L ${x + 4} ${y2 + head * 6}`} />
          </g>
        );
      })}
    </g>
  );
}
