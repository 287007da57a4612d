/**
 * A signed-in player's seats belong to the account: the seat's metadata carries the account's mark
 * (`data.account`: id, username, both side ratings when they sat down — only the username and that side's
 * rating are public, lobby/public.ts) and the same transaction links the seat to the account
 * (storage/accounts.ts SeatLink), which `GET /me/matches` lists on any device.
 */
import type Koa from 'koa';
import { NAME_REGISTERED, nameKey } from '../../protocol/accounts';
import { seatAccount, type Account, type AccountStore, type SeatLink } from '../storage/accounts';
import { HttpError } from '../storage/errors';
import { isProvisional, type Side } from '../ratings/rules';
import { atTime, GLICKO } from '../ratings/glicko';

export interface AccountMark {
  id: string;
  username: string;
  ratings: Record<Side, number>;
  /** The sides whose rating was provisional when they sat down (shown with "?"). */
  provisional?: Side[];
  /** A bot account (server/bots/api/): rated only against bots (ratings/rules.ts unratedBecause). */
  bot?: true;
}

/** The signed-in account's mark for a seat it takes now, or null for a guest. */
export async function accountMark(ctx: Koa.Context, accounts: AccountStore): Promise<AccountMark | null> {
  const a = ctx.state.account as Account | undefined;
  if (!a) return null;
  const r = (await accounts.ratings([a.id])).get(a.id);
  const at = (s: Side) => Math.round(r?.[s]?.rating ?? GLICKO.rating);
  const now = Date.now();
  const provisional = (['0', '1'] as const).filter((s) => { const x = r?.[s]; return !x || isProvisional(atTime(x, now).rd); });
  return { id: a.id, username: a.username, ratings: { '0': at('0'), '1': at('1') }, provisional, ...(a.bot ? { bot: true as const } : {}) };
}

/** A seat's data with the account's mark (or without any, for a guest). */
export const markedData = (data: Record<string, unknown> | undefined, mark: AccountMark | null): Record<string, unknown> | undefined =>
  mark ? { ...data, account: mark } : data;

export const linkOf = (matchID: string, seat: string, mark: AccountMark | null): SeatLink[] => (mark ? [{ matchID, seat: seat as Side, accountID: mark.id }] : []);

/** Seat data a client sends may not carry what only the server sets. */
export function refuseServerFields(data: Record<string, unknown> | null | undefined): void {
  if (data && 'bot' in data) throw new HttpError(400, 'data.bot is set by the server for its own seats');
  if (data && 'account' in data) throw new HttpError(400, 'data.account is set by the server for signed-in players');
}

/** Whether a name is a registered player's username (compared as usernames are). */
export const isAccountName = async (accounts: AccountStore, name: string): Promise<boolean> => (await accounts.byKey(nameKey(name))) !== undefined;

const accountNameRefused = () => new HttpError(403, NAME_REGISTERED);

/**
 * A seat's new name. A seat an account holds shows the account's username, beside its rating: renamed to
 * anything else, it would pass for another player with a rating to prove it. A guest's seat may not take
 * a registered player's username (`registered`: isAccountName of the new name), as on joining.
 */
export function refuseRename(seat: { data?: unknown }, newName: string | undefined, registered: boolean): void {
  const account = seatAccount(seat);
  if (account && newName !== undefined && newName !== account.username) throw new HttpError(400, `newName: a signed-in player's seat carries the account's username (${account.username})`);
  if (!account && registered) throw accountNameRefused();
}

/**
 * A guest's seat name may not be a registered player's username: the lobby, the board and the record
 * would show the guest under that player's name. The player signs in to sit under it; signed-in players
 * always sit under their own username (the routes see to it).
 */
export async function refuseAccountName(accounts: AccountStore, name: string, mark: AccountMark | null): Promise<void> {
  if (!mark && (await isAccountName(accounts, name))) throw accountNameRefused();
}

/** The account mark a seat already carries (kept when its player changes the seat's data). */
export const keptMark = (data: unknown): { account?: unknown } => {
  const a = (data as { account?: unknown } | undefined)?.account;
  return a === undefined ? {} : { account: a };
};
