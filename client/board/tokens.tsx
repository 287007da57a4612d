/** SVG pieces shared by the evidence board and the research track: evidence tokens and the two markers. */
import type { ReactNode } from 'react';
import { TOKEN, type Colour } from '../../game';

export const COLOUR_HEX: Record<Colour, string> = { blue: '#2f6db5', yellow: '#e3b62b', green: '#3b8a4c' };

/**
 * Colour-blind safe: each evidence colour also has its own pattern (blue: level stripes, yellow: dots,
 * green: diagonal hatching), drawn over the colour so the three are told apart without hue. Each SVG
 * defines them once under its own prefix (an SVG hidden by the layout would take its patterns with it).
 */
export function ColourPatterns({ prefix }: { prefix: string }): ReactNode {
  const tile = (c: Colour, marks: ReactNode) => (
    <pattern id={`${prefix}-${c}`} width={1} height={1} patternContentUnits="objectBoundingBox">
      <rect width={1} height={1} fill={COLOUR_HEX[c]} />
      {marks}
    </pattern>
  );
  return (
    <defs>
      {tile('blue', <path d="M0 .2H1M0 .4H1M0 .6H1M0 .8H1" stroke="#fff" strokeWidth={0.07} opacity={0.75} />)}
      {tile('yellow', <path d="M.25 .25h0M.75 .25h0M.5 .5h0M.25 .75h0M.75 .75h0M0 .5h0M1 .5h0M.5 0h0M.5 1h0" stroke="#4a3b00" strokeWidth={0.12} strokeLinecap="round" />)}
      {tile('green', <path d="M-.25 .25L.25 -.25M-.25 .75L.75 -.25M0 1L1 0M.25 1.25L1.25 .25M.75 1.25L1.25 .75" stroke="#fff" strokeWidth={0.08} opacity={0.8} />)}
    </defs>
  );
}

/** The paint of a colour: its pattern from `ColourPatterns` in this SVG, the plain colour if it is missing. */
export const colourPaint = (c: Colour, prefix?: string): string => (prefix ? `url(#${prefix}-${c}) ${COLOUR_HEX[c]}` : COLOUR_HEX[c]);

interface DiscProps {
  /** null: a face-down token whose colour this viewer may not see. */
  id: string | null;
  up: boolean;
  x: number;
  y: number;
  r: number;
  /** The prefix of this SVG's ColourPatterns (none: plain colours). */
  pat?: string;
}

/** An evidence token: its colour(s), the red "1" if it has one; face-down tokens are dark with a dashed rim. */
export function EvidenceDisc({ id, up, x, y, r, pat }: DiscProps): ReactNode {
  if (id === null || !TOKEN[id])
    return (
      <g className="token back" aria-hidden="true">
        <circle cx={x} cy={y} r={r} fill="#3a3f47" stroke="#15181c" strokeWidth={r * 0.12} />
        <text x={x} y={y} dy="0.35em" textAnchor="middle" fontSize={r * 1.1} fill="#c9ced6" fontWeight="700">
          ?
        </text>
      </g>
    );
  const t = TOKEN[id];
  const [a, b] = t.colours;
  return (
    <g className={up ? 'token up' : 'token down'} aria-hidden="true">
      <circle cx={x} cy={y} r={r} fill={colourPaint(a, pat)} />
      {b && <path d={`M ${x} ${y - r} A ${r} ${r} 0 0 1 ${x} ${y + r} Z`} fill={colourPaint(b, pat)} />}
      {/* Face down (seen by those allowed to): the colours stay readable, a dashed dark rim and a
          small eye-slash mark say the token lies face down. */}
      <circle cx={x} cy={y} r={r} fill="none" stroke="#1b1b1b" strokeWidth={up ? r * 0.12 : r * 0.2} strokeDasharray={up ? undefined : `${r * 0.3} ${r * 0.2}`} />
      {!up && <circle cx={x} cy={y} r={r * 0.72} fill="none" stroke="rgba(255,255,255,0.85)" strokeWidth={r * 0.1} />}
      {t.momentum && (
        <text x={x} y={y} dy="0.36em" textAnchor="middle" fontSize={r * 1.25} fontWeight="800" fill="#d3261f" stroke="#fff" strokeWidth={r * 0.08} paintOrder="stroke">
          1
        </text>
      )}
    </g>
  );
}

export function InitiativeDisc({ x, y, r }: { x: number; y: number; r: number }): ReactNode {
  return (
    <g aria-hidden="true">
      <circle cx={x} cy={y} r={r} fill="#fbfaf5" stroke="#222" strokeWidth={r * 0.12} />
      <path
        d={`M ${x} ${y - r * 0.6} L ${x + r * 0.18} ${y - r * 0.15} L ${x + r * 0.6} ${y - r * 0.15} L ${x + r * 0.25} ${y + r * 0.12} L ${x + r * 0.38} ${y + r * 0.58} L ${x} ${y + r * 0.3} L ${x - r * 0.38} ${y + r * 0.58} L ${x - r * 0.25} ${y + r * 0.12} L ${x - r * 0.6} ${y - r * 0.15} L ${x - r * 0.18} ${y - r * 0.15} Z`}
        fill="#222"
      />
    </g>
  );
}

export function MomentumDisc({ x, y, r }: { x: number; y: number; r: number }): ReactNode {
  return (
    <g aria-hidden="true">
      <circle cx={x} cy={y} r={r} fill="#c8312a" stroke="#5c0f0b" strokeWidth={r * 0.12} />
      <circle cx={x} cy={y} r={r * 0.45} fill="none" stroke="#ffd9d4" strokeWidth={r * 0.12} />
    </g>
  );
}

/** Makes an SVG element act as a button for mouse, touch and keyboard. */
export function clickable(label: string, onActivate: (() => void) | undefined) {
  if (!onActivate) return { 'aria-label': label, role: 'img' as const };
  return {
    'aria-label': label,
    role: 'button' as const,
    tabIndex: 0,
    onClick: onActivate,
    onKeyDown: (e: React.KeyboardEvent) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        onActivate();
      }
    },
  };
}
