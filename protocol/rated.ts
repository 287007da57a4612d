/**
 * Time controls and rated matches (README "Rated matches"). The lobby's create form and "Play now" offer
 * these controls; a rated match may have no other: its settings come from this list, so every rated game
 * on a side was played under rules its opponents could expect. Plain constants and types: no imports.
 */

/**
 * The time controls, each with its clock (time per side, bonus per decision; none: untimed, correspondence)
 * and its abandon-limit floor: in a rated match `abandonMinutes` (after how long away a seat loses) is at
 * least this, so a dropped connection never loses a rated game sooner. An untimed rated match always has
 * an abandon limit (the floor when unset): without a clock it is what makes a silent player's game end.
 */
export const TIME_CONTROLS = {
  none: { clock: null, ratedAbandonFloor: 24 * 60 },
  live: { clock: { initialSeconds: 600, incrementSeconds: 10 }, ratedAbandonFloor: 5 },
  relaxed: { clock: { initialSeconds: 86_400, incrementSeconds: 14_400 }, ratedAbandonFloor: 24 * 60 },
} as const;
export type TimeControl = keyof typeof TIME_CONTROLS;
export const TIME_CONTROL_NAMES = Object.keys(TIME_CONTROLS) as TimeControl[];

/** The control a match's clock setting is (undefined/null: untimed), or null when it is none of the list. */
export function timeControlOf(clock: { initialSeconds?: unknown; incrementSeconds?: unknown } | null | undefined): TimeControl | null {
  if (!clock) return 'none';
  const found = TIME_CONTROL_NAMES.find((n) => {
    const c = TIME_CONTROLS[n].clock;
    return c !== null && c.initialSeconds === clock.initialSeconds && c.incrementSeconds === (clock.incrementSeconds ?? 0);
  });
  return found ?? null;
}
