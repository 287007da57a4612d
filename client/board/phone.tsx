/**
 * The board's phone layout (the looks are in the phone section of styles.css): the evidence
 * board fits the screen's width and zooms on a tap, and a dock fixed at the bottom keeps the prompt and
 * the hand (a drawer) in reach while the board stays in sight. On wider screens both are plain boxes.
 */
import { useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Whether the phone layout is in force, as styles.css decides it: its phone query sets `--layout: phone`,
 * so the width is written once, in the stylesheet, and a script can never disagree with what is drawn.
 */
const layoutNow = (): string => (typeof document === 'undefined' ? '' : getComputedStyle(document.documentElement).getPropertyValue('--layout').trim());
const isPhone = (): boolean => layoutNow() === 'phone';
/** Whether the wide layout (hand always shown, no drawer) is in force. */
export const wideNow = (): boolean => layoutNow() === 'wide';

/**
 * The layout in force (`phone`, `wide` or '' for the widths between), as styles.css sets --layout, kept
 * current as the window is resized: the wide layout arranges the board's parts differently (Board.tsx).
 */
export function useLayout(): string {
  const [layout, setLayout] = useState(layoutNow);
  useEffect(() => {
    const check = () => setLayout(layoutNow());
    check();
    window.addEventListener('resize', check);
    return () => window.removeEventListener('resize', check);
  }, []);
  return layout;
}

/** The board's width (px) under which its labels would be drawn under 11 px at their own size. */
const COMPACT_BELOW = 650;

/**
 * The board doubled inside a box the player pans (by touch or scroll bars), centred where they tapped.
 * A tap on a target plays it instead; the +/− button zooms without aiming, and back out.
 */
export function BoardZoom({ children }: { children: ReactNode }): ReactNode {
  const { t } = useTranslation();
  const pan = useRef<HTMLDivElement>(null);
  const [zoomed, setZoomed] = useState(false);
  // Drawn narrower than its labels need (a phone, a short wide screen): the labels grow, informants by surname.
  const [compact, setCompact] = useState(false);
  useEffect(() => {
    const el = pan.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(() => {
      const width = el.getBoundingClientRect().width;
      setCompact(width < COMPACT_BELOW);
      // The labels' size in the board's units: 30, or more on a board drawn so small that 30 is under 11 px.
      if (width > 0) el.style.setProperty('--board-label', `${Math.max(30, Math.ceil((11.3 * 1000) / width))}px`);
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  const zoomAt = (fx: number, fy: number) => {
    setZoomed(true);
    requestAnimationFrame(() => {
      const b = pan.current;
      b?.scrollTo(fx * b.scrollWidth - b.clientWidth / 2, fy * b.scrollHeight - b.clientHeight / 2);
    });
  };
  return (
    <div className="board-zoom" data-zoomed={zoomed || undefined} data-compact={compact || undefined}>
      <div
        ref={pan}
        className="board-pan"
        onClick={(e) => {
          if (zoomed || !isPhone() || (e.target as Element).closest('[role="button"]')) return;
          const r = e.currentTarget.getBoundingClientRect();
          zoomAt((e.clientX - r.left) / r.width, (e.clientY - r.top) / r.height);
        }}
      >
        {children}
      </div>
      <button type="button" className="zoom-toggle" aria-pressed={zoomed} aria-label={t('board.zoom')} onClick={() => (zoomed ? setZoomed(false) : zoomAt(0.5, 0.5))}>
        {zoomed ? '−' : '+'}
      </button>
    </div>
  );
}

/** Keeps the page's `name` CSS variable at the element's height; the returned function stops it. */
function watchHeight(el: HTMLElement, name: string): () => void {
  if (typeof ResizeObserver === 'undefined') return () => {};
  const root = document.documentElement.style;
  const ro = new ResizeObserver(() => root.setProperty(name, `${el.offsetHeight}px`));
  ro.observe(el);
  return () => {
    ro.disconnect();
    root.removeProperty(name);
  };
}

/** Keeps the page's `name` CSS variable at the element's height (the page leaves that much room for it). */
export function useHeightVar(box: RefObject<HTMLElement | null>, name: string): void {
  useEffect(() => (box.current ? watchHeight(box.current, name) : undefined), [box, name]);
}

/**
 * The same for an element drawn later or elsewhere (the tutorial's step, drawn by the board once it is
 * loaded, in one place or another as the layout changes): give the returned function as its `ref`.
 */
export function useHeightVarRef(name: string): (el: HTMLElement | null) => void {
  const [el, setEl] = useState<HTMLElement | null>(null);
  useEffect(() => (el ? watchHeight(el, name) : undefined), [el, name]);
  return setEl;
}

/**
 * The prompt, resign and hand; on a phone fixed at the bottom (one line while the decision is on the
 * board), with the page keeping that much room below its content. Opening the hand there (or a new decision with it open) brings the board to the top of the
 * screen, in sight above the dock.
 * The dock scrolls inside itself when it is full (a hand drawer scrolled to its last card): a new
 * decision (`at`) or the drawer opening or closing brings it back to its top, where the prompt is.
 */
export function Dock({ handOpen, at, onBoard = false, children }: { handOpen: boolean; at: string; onBoard?: boolean; children: ReactNode }): ReactNode {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  // A decision made on the board (a space to pin, a token on the track): the dock folds to one line (the
  // prompt's words, and its marked option if a step or a hint marks one) and the board comes into sight;
  // the player may unfold it for this decision.
  const [unfolded, setUnfolded] = useState<string | null>(null);
  // Only the phone layout folds the dock (styles.css): elsewhere it is a plain box, and saying it is folded
  // there would offer an unfold button nobody sees.
  const phone = useLayout() === 'phone';
  const folded = phone && onBoard && unfolded !== at;
  useEffect(() => {
    if (!folded || !isPhone()) return;
    const target = document.querySelector('.prompt[data-prompt="pin"]') ? '.board-zoom' : '.track';
    document.querySelector(target)?.scrollIntoView({ block: target === '.track' ? 'nearest' : 'start' });
  }, [folded, at]);
  useEffect(() => {
    // On each card decision too: what stands above the board may have grown meanwhile ("Take back").
    if (handOpen && isPhone()) document.querySelector('.board-zoom')?.scrollIntoView({ block: 'start' });
  }, [handOpen, at]);
  useEffect(() => {
    if (box.current) box.current.scrollTop = 0;
  }, [handOpen, at]);
  useHeightVar(box, '--dock');
  return (
    <div ref={box} className="dock" data-hand={handOpen ? 'open' : 'closed'} data-folded={folded || undefined}>
      {children}
      {folded && (
        <button type="button" className="dock-unfold" aria-label={t('board.unfoldPrompt')} onClick={() => setUnfolded(at)}>
          ▲
        </button>
      )}
    </div>
  );
}

/**
 * On a phone, once a game is under way for a seated player, the board is brought to the top of the screen
 * (once per page): the match bar and the players above it are a scroll away, the board and the dock in sight.
 */
export function useBoardInSight(active: boolean): void {
  const done = useRef(false);
  useEffect(() => {
    if (!active || done.current || !isPhone()) return;
    done.current = true;
    document.querySelector('.board-zoom')?.scrollIntoView({ block: 'start' });
  }, [active]);
}
