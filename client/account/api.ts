/**
 * The account API of the server this page came from (same origin, so the HttpOnly session cookie goes
 * along by itself; the page never sees it). A refusal throws AccountError with the server's words.
 */
import type { ClaimRequest, Leaderboard, Me, MyMatches, PairRequest, PairStatus, PasskeyView, Profile } from '../../protocol/accounts';

export class AccountError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly retryAfter: number | null,
  ) {
    super(message);
  }
}

export async function call<T>(path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${window.location.origin}${path}`, body === undefined ? {} : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const data = (await res.json().catch(() => null)) as (T & { error?: string; retryAfter?: number }) | null;
  if (!res.ok) throw new AccountError(res.status, data?.error ?? `HTTP ${res.status}`, data?.retryAfter ?? (Number(res.headers.get('Retry-After')) || null));
  return data as T;
}

/** Who is signed in here (null: nobody), as the server says. */
export const me = async (): Promise<Me | null> => (await call<{ me: Me | null }>('/auth/session')).me;
export const signUp = (username: string, password: string) => call<{ username: string }>('/auth/signup', { username, password });
export const logIn = (username: string, password: string) => call<{ username: string }>('/auth/login', { username, password });
export const logOut = () => call<object>('/auth/logout', {});
export const logOutEverywhere = () => call<object>('/auth/logout-all', {});
export const changePassword = (password: string, newPassword: string, removePasskeys = false) => call<object>('/auth/password', { password, newPassword, ...(removePasskeys ? { removePasskeys: true } : {}) });
export const listPasskeys = async (): Promise<PasskeyView[]> => (await call<{ passkeys: PasskeyView[] }>('/auth/passkeys')).passkeys;
export const removePasskey = async (id: string): Promise<PasskeyView[]> => (await call<{ passkeys: PasskeyView[] }>(`/auth/passkeys/${encodeURIComponent(id)}/delete`, {})).passkeys;
export const deleteAccount = (o: { password?: string; confirm?: string }) => call<object>('/auth/delete', o);
export const setAccountWebhook = (webhook: string | null) => call<{ webhook: string | null }>('/me/settings', { webhook });
export const myMatches = () => call<MyMatches>('/me/matches');
export const claimSeats = (seats: ClaimRequest['seats']) => call<{ claimed: string[] }>('/me/claim', { seats });
export const profile = (username: string) => call<Profile>(`/players/${encodeURIComponent(username)}`);
export const leaderboard = (role: Leaderboard['role']) => call<Leaderboard>(`/leaderboard?role=${role}`);
export const pair = (r: PairRequest) => call<PairStatus>('/pair', r);
export const pollPair = (ticket: string) => call<PairStatus>('/pair/poll', { ticket });
export const cancelPair = (ticket: string) => call<Partial<PairStatus>>('/pair/cancel', { ticket });
