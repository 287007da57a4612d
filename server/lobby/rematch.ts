/**
 * "Play again" (protocol PlayAgainResponse). The first asker's change to the old match creates the next
 * match with the asker already seated — in the other role unless `swap: false`, under the same name,
 * with fresh credentials — and the computer, if it played, opposite its human at the same level. A later
 * asker (the opponent accepting) takes the seat left. The next match remembers which old seat each of
 * its seats went to (`seatedFrom`, never shown: lobby/public.ts), so asking twice never gives two seats.
 *
 * Settings: the asker may send another setup; each setting that then differs from the old match's is
 * listed in the next match (`changed`, public) and a rematch of a rated match stays rated only when none
 * does (README "Rated matches"): the opponent accepts knowing what changed, and nobody re-rates a game by
 * asking for a one-minute abandon limit or hints. The seat left is kept for the old opponent (`kept`) for
 * REMATCH_SEAT_KEPT_MS: a plain join of it is refused (keptSeatRefusal), and through "play again" only the
 * player who still holds the old match's other seat — its credentials or its account (holderOf) — takes it.
 */
import type { Game } from 'boardgame.io';
import { optionsFrom, OPTION_VALUES, settingsFrom, validateSetupData, type Options, type SetupData } from '../../game/index';
import { botLevelOf, openSeat, REMATCH_SEAT_KEPT_MS, type SettingChange, type SettingName } from '../../protocol/index';
import { otherSeat, roleText, seatEntry, setSeatEntry } from '../../protocol/index';
import { generateCredentials } from '../auth';
import { HttpError } from '../storage/errors';
import type { MatchData, NewMatch } from '../storage/types';
import { buildMatch, newMatchID, seatBot } from './matches';
import { keptMark, markedData, type AccountMark } from '../accounts/seat';
import { hashOf } from '../accounts/session';
import { takeBackMode } from '../match/undo';
import { ratedSetupData } from './validate';

export type SeatID = '0' | '1';

/**
 * A next match's metadata: which seat of the old match each of its seats was given to, what its settings
 * changed, and the seat kept for the old opponent (`holder`: who held the old seat, never shown).
 */
export type NextMetadata = MatchData & {
  seatedFrom?: Partial<Record<SeatID, SeatID>>;
  changed?: SettingChange[];
  kept?: { seat: SeatID; from: SeatID; until: number; holder: string[] };
};

export interface Seated {
  playerID: SeatID;
  playerCredentials: string;
}

/**
 * Who holds a seat of the old match: its credentials (hashed: they are kept in another match) and its
 * account if any. Either one still the same is the same player — a guest who has since given the seat to
 * an account, or an account whose seat credentials were renewed — while someone who took the seat after
 * its player left it has neither.
 */
export function holderOf(old: MatchData, seat: SeatID): string[] {
  const entry = seatEntry(old.players, seat);
  const account = (keptMark(entry?.data).account as AccountMark | undefined)?.id;
  return [`credentials:${hashOf(entry?.credentials ?? '')}`, ...(account ? [`account:${account}`] : [])];
}

/** Each setting as it applies in a match of `old`'s kind (its bot, its ratedness) with this setup. */
function applied(old: MatchData, setup: SetupData | undefined): Record<SettingName, SettingChange['from']> {
  const s = settingsFrom(setup);
  const options = optionsFrom(setup);
  return {
    clock: s.clock,
    abandonMinutes: s.abandonMinutes,
    hints: s.hints && s.clock === null,
    takeBacks: s.takeBacks ?? (old.rated ? 'off' : takeBackMode({ ...old, setupData: setup })),
    ...(Object.fromEntries((Object.keys(OPTION_VALUES) as (keyof Options)[]).map((k) => [k, options[k]])) as Record<keyof Options, string>),
  };
}

/** The settings of `setup` that differ from the old match's. */
export function settingChanges(old: MatchData, setup: unknown): SettingChange[] {
  const [from, to] = [applied(old, old.setupData as SetupData | undefined), applied(old, setup as SetupData | undefined)];
  return (Object.keys(from) as SettingName[]).filter((k) => JSON.stringify(from[k]) !== JSON.stringify(to[k])).map((setting) => ({ setting, from: from[setting], to: to[setting] }));
}

/** Whether the rematch of a rated match is rated: no setting changed, and the old setup is still one a rated match may have. */
function staysRated(old: MatchData, changed: SettingChange[]): boolean {
  if (!old.rated || changed.length > 0) return false;
  try {
    ratedSetupData(old.setupData);
    return true;
  } catch {
    return false;
  }
}

/** The next match for the first asker (created in the same transaction that links it to the old one). */
export function firstAsker(
  game: Game,
  old: MatchData,
  asker: SeatID,
  o: { swap: boolean; setupData: unknown; unlisted: boolean; mark?: AccountMark | null },
): { create: NewMatch; seated: Seated } {
  // Checked before it is compared: a setup that is no setup is a 400, never "nothing changed".
  const why = validateSetupData(o.setupData);
  if (why) throw new HttpError(400, `invalid setupData: ${why}`);
  const changed = settingChanges(old, o.setupData);
  // Unchanged: the old match's own setup (the same settings, however the asker wrote them).
  const { initialState, metadata } = buildMatch(game, changed.length === 0 ? old.setupData : o.setupData, o.unlisted);
  const next = metadata as NextMetadata;
  if (staysRated(old, changed)) next.rated = true;
  if (changed.length > 0) next.changed = changed;
  const seat = o.swap ? otherSeat(asker) : asker;
  const credentials = generateCredentials();
  const data = markedData(undefined, o.mark ?? null);
  setSeatEntry(metadata.players, seat, { ...seatEntry(metadata.players, seat), name: seatEntry(old.players, asker).name, credentials, ...(data ? { data } : {}) });
  const bot = (['0', '1'] as const).map((id) => botLevelOf(seatEntry(old.players, id))).find((level) => level !== null);
  if (bot) seatBot(metadata, otherSeat(seat), bot);
  else next.kept = { seat: otherSeat(seat), from: otherSeat(asker), until: Date.now() + REMATCH_SEAT_KEPT_MS, holder: holderOf(old, otherSeat(asker)) };
  next.seatedFrom = { [seat]: asker };
  return { create: { matchID: newMatchID(), initialState, metadata }, seated: { playerID: seat, playerCredentials: credentials } };
}

/** The refusal of a plain join of a rematch's seat while it is kept for the old opponent (null: it may be taken). */
export function keptSeatRefusal(m: MatchData, seat: string, now = Date.now()): HttpError | null {
  const kept = (m as NextMetadata).kept;
  if (!kept || kept.seat !== seat || now >= kept.until) return null;
  return new HttpError(409, `seat ${seat} (${roleText(seat)}) is kept for the rematch's old opponent until ${new Date(kept.until).toISOString()}: they take it through "play again"`);
}

/**
 * The next match with a later asker in the seat left; a 409 when they already sit there, none is left, or
 * the seat is kept for the old opponent and the asker (`holder` of the old seat `asker`) is not them.
 */
export function laterAsker(next: MatchData, nextMatchID: string, asker: SeatID, name: string | undefined, mark: AccountMark | null, holder: string[]): { metadata: MatchData; seated: Seated } {
  const n = next as NextMetadata;
  const from = n.seatedFrom ?? {};
  // A seat counts as theirs while it is still taken (they may have left it since).
  const mine = (['0', '1'] as const).find((id) => from[id] === asker && seatEntry(next.players, id).name);
  if (mine) throw new HttpError(409, `you already have a seat in the next match ${nextMatchID}: ${roleText(mine)}`);
  const free = openSeat(Object.values(next.players));
  if (!free) {
    const wanted = (['0', '1'] as const).find((id) => from[id] === undefined) ?? otherSeat(asker);
    throw new HttpError(409, `seat ${wanted} (${roleText(wanted)}) in the next match ${nextMatchID} is already taken`);
  }
  const kept = n.kept && n.kept.seat === free && Date.now() < n.kept.until ? n.kept : null;
  if (kept && (kept.from !== asker || !kept.holder.some((h) => holder.includes(h)))) throw keptSeatRefusal(next, free)!;
  const playerCredentials = generateCredentials();
  const metadata: NextMetadata = {
    ...next,
    players: { ...next.players, [free]: { ...seatEntry(next.players, free), name, credentials: playerCredentials, ...(mark ? { data: markedData(undefined, mark) } : {}) } },
    seatedFrom: { ...from, [free]: asker },
    updatedAt: Date.now(),
  };
  // Taken: nothing is kept any more.
  delete metadata.kept;
  return { metadata, seated: { playerID: free, playerCredentials } };
}
