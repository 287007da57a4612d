/**
 * The wide layout's column beside the board (Board.tsx, styles.css "Wide"): it stays in sight as the page
 * scrolls, and is never taller than the part of the screen below its top, so its last parts (the record
 * and the chat) are on screen without scrolling; the record gives up its height first.
 */
import { useEffect, useRef, type ReactNode } from 'react';

export function WideSide({ children }: { children: ReactNode }): ReactNode {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    let frame = 0;
    const fit = () => {
      frame = 0;
      const top = Math.max(el.getBoundingClientRect().top, 0);
      el.style.setProperty('--side-room', `${Math.floor(window.innerHeight - top - 8)}px`);
    };
    const later = () => void (frame ||= requestAnimationFrame(fit));
    fit();
    window.addEventListener('scroll', later, { passive: true });
    window.addEventListener('resize', later);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('scroll', later);
      window.removeEventListener('resize', later);
    };
  }, []);
  return (
    <div ref={box} className="side">
      {children}
    </div>
  );
}
