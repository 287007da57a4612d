/**
 * The wide layout's table (Board.tsx, styles.css "Wide"): the board, the track and the hand on the left,
 * the prompt, the last move, the record and the chat in a column beside them, all of it as tall as the
 * screen below the table's top, so nothing the player needs is below the fold (docs/ARCHITECTURE.md
 * "The client: playing online", "At a glance"). The room is measured here (what stands above the table
 * varies: the match bar, a clock, the tutorial's step); the stylesheet shares it out.
 */
import { useEffect, useRef, type ReactNode } from 'react';

/** Keeps `--table-room` at the height from the element's top (with the page at its top) to the screen's bottom. */
function useTableRoom(): React.RefObject<HTMLDivElement | null> {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    let frame = 0;
    const fit = () => {
      frame = 0;
      const top = el.getBoundingClientRect().top + window.scrollY;
      const room = `${Math.floor(window.innerHeight - top - 8)}px`;
      if (el.style.getPropertyValue('--table-room') !== room) el.style.setProperty('--table-room', room);
    };
    const later = () => void (frame ||= requestAnimationFrame(fit));
    fit();
    // What stands above the table changes its top (a notice folded, a clock shown): the page's size tells.
    const ro = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(later);
    ro?.observe(document.body);
    window.addEventListener('resize', later);
    return () => {
      cancelAnimationFrame(frame);
      ro?.disconnect();
      window.removeEventListener('resize', later);
    };
  }, []);
  return box;
}

/** The wide table: `board` (board, track, open cards, hand) and `side` (prompt, record, chat). */
export function WideTable({ board, side }: { board: ReactNode; side: ReactNode }): ReactNode {
  const box = useTableRoom();
  return (
    <div ref={box} className="game-main wide">
      <div className="board-col">{board}</div>
      <div className="side">{side}</div>
    </div>
  );
}
