/** Where the swing marks sit on the win-chance chart (chart.ts): plain numbers, tested on their own. */

/** A mark's size and a little air: two marks closer than this on both axes would overlap. */
export const MARK_GAP = 28;

/**
 * Where each mark sits: on its point, unless an earlier one (a bigger swing) is there already — then
 * moved up (or down, near the top) by whole gaps until it is clear. Swings of adjacent decisions lie a
 * few pixels apart on a long game; moved, each still stands at its decision's x.
 */
export function spread(points: readonly { x: number; y: number }[], height: number): { x: number; y: number }[] {
  const placed: { x: number; y: number }[] = [];
  const clash = (x: number, y: number) => placed.some((q) => Math.abs(q.x - x) < MARK_GAP && Math.abs(q.y - y) < MARK_GAP);
  for (const p of points) {
    let y = p.y;
    for (let k = 1; clash(p.x, y) && k <= points.length * 2; k++) {
      const up = p.y - MARK_GAP * Math.ceil(k / 2);
      const down = p.y + MARK_GAP * Math.ceil(k / 2);
      y = k % 2 === 1 ? (up >= MARK_GAP / 2 ? up : down) : down <= height - MARK_GAP / 2 ? down : up;
    }
    placed.push({ x: p.x, y });
  }
  return placed;
}
