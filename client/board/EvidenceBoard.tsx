/**
 * The evidence board in SVG, drawn from the board data (game/board.ts): Nixon's picture, the informant
 * spaces, the evidence spaces with their colour slips and the threads. Threads the Editor has joined to
 * Nixon through face-up evidence are drawn in red as the paths form. Legal pin spaces light up.
 */
import { useEffect, useRef, type ReactNode, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { ADJACENT, INFORMANTS, NODE, SPACES, THREADS, type WatergateView } from '../../game';
import { informantName, spaceName, tokenName } from '../i18n/words';
import { InformantFigure, NixonFigure } from './figures';
import type { LastMove } from './lastMove';
import { ColourPatterns, EvidenceDisc, clickable, colourPaint } from './tokens';

/** Nodes reached from Nixon through face-up evidence (display only: the engine decides the win). */
function reachedFromNixon(view: WatergateView): Set<string> {
  const seen = new Set<string>(['NIXON']);
  const queue = ['NIXON'];
  while (queue.length > 0) {
    const node = queue.pop()!;
    for (const next of ADJACENT[node]) {
      if (seen.has(next)) continue;
      if (next in view.informants) {
        if (node !== 'NIXON' && view.informants[next] === 'up') seen.add(next);
        continue;
      }
      if (view.board[next]?.up) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return seen;
}

interface Props {
  view: WatergateView;
  /** Spaces the player may pin on now, with what clicking does. */
  targets: Map<string, () => void>;
  /** Informant and evidence spaces named by the current choice (highlight only). */
  marked?: Set<string>;
  /** The opponent's last action: the spaces and pictures it changed are marked. */
  last?: LastMove | null;
}

/**
 * A surname shown alone (unzoomed phone board) is drawn at the smallest legible size; one still wider than
 * its frame ("Butterfield", 巴特菲尔德) is drawn narrower to fit (SVG textLength), measured as drawn.
 */
function useFitted(board: RefObject<SVGSVGElement | null>, lang: string): void {
  useEffect(() => {
    const fit = () => {
      for (const text of board.current?.querySelectorAll<SVGTextElement>('text[data-fit]') ?? []) {
        text.removeAttribute('textLength');
        const room = Number(text.dataset.fit);
        if (text.getComputedTextLength() > room) {
          text.setAttribute('textLength', String(room));
          text.setAttribute('lengthAdjust', 'spacingAndGlyphs');
        }
      }
    };
    fit();
    void document.fonts?.ready.then(fit);
    window.addEventListener('resize', fit);
    return () => window.removeEventListener('resize', fit);
  }, [board, lang]);
}

export function EvidenceBoard({ view, targets, marked, last }: Props): ReactNode {
  const { t, i18n } = useTranslation();
  const svg = useRef<SVGSVGElement>(null);
  useFitted(svg, i18n.language);
  const reached = reachedFromNixon(view);
  const connected = new Set(view.connected);
  return (
    <svg ref={svg} className="evidence-board" viewBox="0 0 1000 1000" role="group" aria-label={t('board.evidenceBoard')}>
      <defs>
        <radialGradient id="cork" cx="50%" cy="50%" r="70%">
          <stop offset="0%" stopColor="#efe2c4" />
          <stop offset="100%" stopColor="#d9c59b" />
        </radialGradient>
      </defs>
      <ColourPatterns prefix="eb" />
      <rect x="0" y="0" width="1000" height="1000" rx="28" fill="url(#cork)" />
      <g className="threads">
        {THREADS.map(([a, b]) => {
          const na = NODE[a];
          const nb = NODE[b];
          const live = reached.has(a) && reached.has(b);
          return (
            <line
              key={`${a}-${b}`}
              x1={na.x}
              y1={na.y}
              x2={nb.x}
              y2={nb.y}
              stroke={live ? '#c8251c' : '#8a7554'}
              strokeWidth={live ? 9 : 3}
              strokeLinecap="round"
              opacity={live ? 0.95 : 0.55}
            />
          );
        })}
      </g>
      <g className="nixon" role="img" aria-label={t('board.nixonPicture')}>
        <NixonFigure label={t('info.nixonLabel')} />
      </g>
      {SPACES.map((s) => {
        const pinned = view.board[s.id];
        const act = targets.get(s.id);
        const label = `${spaceName(t, s.id)}: ${
          pinned ? t(pinned.up ? 'board.pinnedUp' : 'board.pinnedDown', { token: tokenName(t, pinned.token) }) : t('board.empty')
        }`;
        const cls = ['space', act ? 'target' : '', marked?.has(s.id) ? 'marked' : '', reached.has(s.id) ? 'reached' : ''].join(' ');
        return (
          <g key={s.id} className={cls} data-space={s.id} data-last-move={last?.spaces.has(s.id) ? 'space' : undefined} {...clickable(label, act)}>
            <title>{label}</title>
            <circle cx={s.x} cy={s.y} r={36} fill="#fbf7ee" stroke={colourPaint(s.colour, 'eb')} strokeWidth={10} />
            {last?.spaces.has(s.id) && <circle className="last-move-ring" cx={s.x} cy={s.y} r={50} />}
            {act && <circle className="halo" cx={s.x} cy={s.y} r={46} fill="none" stroke="#ff7a00" strokeWidth={6} />}
            {pinned ? (
              <EvidenceDisc id={pinned.token} up={pinned.up} x={s.x} y={s.y} r={25} pat="eb" />
            ) : (
              <text className="space-code" x={s.x} y={s.y} dy="0.35em" textAnchor="middle" fontSize={17} fill="#6d5f48">
                {s.id}
              </text>
            )}
          </g>
        );
      })}
      {INFORMANTS.map((i) => {
        const state = view.informants[i.id];
        const name = informantName(t, i.id);
        const label = t(state === 'up' ? 'board.informantUp' : state === 'down' ? 'board.informantDown' : 'board.informantSupply', { name });
        const w = 124;
        const h = 64;
        const x = Math.min(Math.max(i.x, w / 2 + 4), 1000 - w / 2 - 4);
        // Two lines when the name is long: split at the last space, or at "·" in Chinese names.
        const cut = Math.max(name.lastIndexOf(' '), name.lastIndexOf('·'));
        // A Chinese name always: nine characters at its size are wider than the frame.
        const lines = cut > 0 && (name.length > 9 || name[cut] === '·') ? [name.slice(0, name[cut] === '·' ? cut + 1 : cut), name.slice(cut + 1)] : [name];
        const size = Math.max(...lines.map((l) => l.length)) > 7 && /[\u4e00-\u9fff]/.test(name) ? 15 : 18;
        const win = connected.has(i.id) || (state === 'up' && reached.has(i.id));
        return (
          <g key={i.id} className={`informant ${state}${marked?.has(i.id) ? ' marked' : ''}`} role="img" aria-label={label} data-last-move={last?.spaces.has(i.id) ? 'informant' : undefined}>
            <title>{label}</title>
            {last?.spaces.has(i.id) && <rect className="last-move-ring" x={x - w / 2 - 8} y={i.y - h / 2 - 8} width={w + 16} height={h + 16} rx={14} />}
            <rect
              x={x - w / 2}
              y={i.y - h / 2}
              width={w}
              height={h}
              rx={10}
              fill={state === 'up' ? '#fffdf6' : state === 'down' ? '#2d3138' : 'rgba(255,255,255,0.25)'}
              stroke={win ? '#c8251c' : state === 'supply' ? '#8a7554' : '#1c1c1c'}
              strokeWidth={win ? 8 : 3}
              strokeDasharray={state === 'supply' ? '10 7' : undefined}
            />
            <InformantFigure x={x} y={i.y} dark={state === 'down'} />
            <text x={x} y={i.y} textAnchor="middle" fontSize={size} fontWeight={state === 'up' ? 700 : 400} fill={state === 'down' ? '#aab1bb' : state === 'up' ? '#1c1c1c' : '#6d5f48'}>
              {lines.map((line, k) => (
                <tspan key={k} x={x} dy={k === 0 ? (lines.length === 1 ? '0.35em' : '-0.25em') : '1.15em'}>
                  {state === 'down' && k === 0 ? `✕ ${line}` : line}
                </tspan>
              ))}
            </text>
            {/* A name in full does not fit its frame on a phone until the board is zoomed: the surname does
                (drawn narrower when even that is wider than the frame: useFitted). */}
            {cut > 0 && (
              <text
                className="informant-short"
                data-fit={w - 10}
                x={x}
                y={i.y}
                dy="0.35em"
                textAnchor="middle" fontWeight={state === 'up' ? 700 : 400} fill={state === 'down' ? '#aab1bb' : state === 'up' ? '#1c1c1c' : '#6d5f48'}>
                {state === 'down' ? `✕ ${name.slice(cut + 1)}` : name.slice(cut + 1)}
              </text>
            )}
          </g>
        );
      })}
    </svg>
  );
}
