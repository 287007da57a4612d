/** SVG pieces shared by the evidence board and the research track: evidence tokens and the two markers. */
import type { ReactNode } from 'react';
import { TOKEN, type Colour } from '../../game';

export const COLOUR_HEX: Record<Colour, string> = { blue: '#2f6db5', yellow: '#e3b62b', green: '#3b8a4c' };

interface DiscProps {
  /** null: a face-down token whose colour this viewer may not see. */
  id: string | null;
  up: boolean;
  x: number;
  y: number;
  r: number;
}

/** An evidence token: its colour(s), the red "1" if it has one; face-down tokens are dark with a dashed rim. */
export function EvidenceDisc({ id, up, x, y, r }: DiscProps): ReactNode {
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
      <circle cx={x} cy={y} r={r} fill={COLOUR_HEX[a]} />
      {b && <path d={`M ${x} ${y - r} A ${r} ${r} 0 0 1 ${x} ${y + r} Z`} fill={COLOUR_HEX[b]} />}
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
