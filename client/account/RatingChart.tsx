/**
 * A player's side ratings over time (uPlot, a small canvas chart): loaded with the profile page only.
 * Each side is its own series, one point per rated game.
 */
import { useEffect, useRef, type ReactNode } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { Profile } from '../../protocol/accounts';

export default function RatingChart({ history, labels }: { history: Profile['history']; labels: { editor: string; nixon: string; title: string } }): ReactNode {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    // One x axis for both sides: the times of every rated game; a side's value is carried from its last game.
    const times = [...new Set([...history.editor, ...history.nixon].map((p) => Math.floor(p.at / 1000)))].sort((a, b) => a - b);
    const series = (side: 'editor' | 'nixon') => times.map((at) => history[side].find((p) => Math.floor(p.at / 1000) === at)?.rating ?? null);
    const width = Math.max(280, Math.min(720, el.clientWidth || 600));
    const plot = new uPlot(
      {
        title: labels.title,
        width,
        height: 220,
        series: [{}, { label: labels.editor, stroke: '#1f5fa8', spanGaps: true, points: { show: true } }, { label: labels.nixon, stroke: '#a8321f', spanGaps: true, points: { show: true } }],
        axes: [{}, { size: 50 }],
      },
      [times, series('editor'), series('nixon')] as uPlot.AlignedData,
      el,
    );
    return () => plot.destroy();
  }, [history, labels]);
  return <div ref={box} className="rating-chart" data-rating-chart role="img" aria-label={labels.title} />;
}
