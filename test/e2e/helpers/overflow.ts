/**
 * Labels that do not fit their boxes, as a person would see them: a piece of text drawn past the edge of the
 * element that holds it (HTML), or an informant's name drawn past its picture's frame (SVG). Text inside a
 * box that scrolls (the record, the hand's strip) is judged against its own element, not the scroller; a
 * line cut with an ellipsis (the folded sources note) is a fold, not a fault.
 */
import type { Page } from 'playwright-core';

export function overflowingLabels(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const visible = (el: Element) => {
      const r = el.getBoundingClientRect();
      return r.width > 1 && r.height > 1 && el.checkVisibility({ visibilityProperty: true, opacityProperty: true });
    };
    const name = (el: Element) => `${el.tagName.toLowerCase()}.${el.getAttribute('class') ?? ''} "${(el.textContent ?? '').trim().slice(0, 30)}"`;
    for (const el of document.querySelectorAll('body *')) {
      if (el instanceof SVGElement || !visible(el) || el.closest('.sr-only, section.debug-panel')) continue;
      const texts = [...el.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim() !== '');
      if (texts.length === 0) continue;
      // A line folded on purpose (ellipsis: the sources note, a chat line) shows where it is cut.
      const style = getComputedStyle(el);
      if (style.textOverflow === 'ellipsis' && style.overflowX === 'hidden') continue;
      const box = el.getBoundingClientRect();
      const range = document.createRange();
      for (const n of texts) {
        range.selectNodeContents(n);
        const r = range.getBoundingClientRect();
        if (r.width === 0) continue;
        if (r.left < box.left - 1 || r.right > box.right + 1) out.push(`${name(el)}: text ${r.left.toFixed(0)}–${r.right.toFixed(0)}, box ${box.left.toFixed(0)}–${box.right.toFixed(0)}`);
      }
      // Text cut off by the box itself (hidden overflow) is a label that does not fit either.
      if (style.overflowX === 'hidden' && el.scrollWidth > el.clientWidth + 1) out.push(`${name(el)}: cut at ${el.clientWidth}px of ${el.scrollWidth}px`);
    }
    // Informant names inside their frames on the evidence board.
    for (const g of document.querySelectorAll('.evidence-board .informant')) {
      const frame = g.querySelector('rect:not(.last-move-ring)');
      if (!frame || !visible(frame)) continue;
      const f = frame.getBoundingClientRect();
      for (const text of g.querySelectorAll('text')) {
        if (!visible(text)) continue;
        const r = text.getBoundingClientRect();
        if (r.left < f.left - 1 || r.right > f.right + 1 || r.top < f.top - 1 || r.bottom > f.bottom + 1)
          out.push(`informant "${text.textContent}": ${r.left.toFixed(0)}–${r.right.toFixed(0)} × ${r.top.toFixed(0)}–${r.bottom.toFixed(0)} in frame ${f.left.toFixed(0)}–${f.right.toFixed(0)} × ${f.top.toFixed(0)}–${f.bottom.toFixed(0)}`);
      }
    }
    return out;
  });
}
