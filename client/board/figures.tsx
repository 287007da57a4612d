/**
 * Simple drawn figures for the evidence board (our own shapes, no period photographs or game art):
 * Nixon at the centre and a faint head-and-shoulders behind each informant's name.
 */
import type { ReactNode } from 'react';

/** Nixon: a suited bust with a tie in the centre disc, and his name in the player's language. */
export function NixonFigure({ label }: { label: string }): ReactNode {
  return (
    <>
      <circle cx={500} cy={500} r={72} fill="#2b2b2b" stroke="#111" strokeWidth={6} />
      <path d="M 448 540 Q 452 505 500 500 Q 548 505 552 540 Z" fill="#4a4f58" />
      <path d="M 492 502 L 500 530 L 508 502 Z" fill="#f3ead7" />
      <path d="M 497 506 L 500 528 L 503 506 Z" fill="#8b1c1c" />
      <ellipse cx={500} cy={474} rx={21} ry={25} fill="#d8cdb8" />
      <path d="M 479 466 Q 482 446 500 446 Q 520 446 521 466 Q 512 456 500 457 Q 486 458 479 466 Z" fill="#5b5348" />
      <ellipse cx={478} cy={476} rx={4} ry={7} fill="#cbbfa8" />
      <ellipse cx={522} cy={476} rx={4} ry={7} fill="#cbbfa8" />
      <text x={500} y={555} textAnchor="middle" fontSize={17} fontWeight={700} fill="#f3ead7" letterSpacing={2}>
        {label}
      </text>
    </>
  );
}

/** A faint bust behind an informant's name: the box reads as a picture, the name stays legible. */
export function InformantFigure({ x, y, dark }: { x: number; y: number; dark: boolean }): ReactNode {
  return (
    <g className="informant-figure" aria-hidden="true" opacity={dark ? 0.22 : 0.13} fill={dark ? '#fff' : '#1c1c1c'}>
      <circle cx={x} cy={y - 9} r={11} />
      <path d={`M ${x - 24} ${y + 29} Q ${x - 22} ${y + 4} ${x} ${y + 4} Q ${x + 22} ${y + 4} ${x + 24} ${y + 29} Z`} />
    </g>
  );
}
