/**
 * Blocking a player (docs/ARCHITECTURE.md "Blocks and challenges"): `POST /api/block/:username` blocks,
 * `DELETE` unblocks, `GET /api/block` lists whom the caller blocks. Signed in by the session cookie or by
 * a `bot`-scoped API token. A block works both ways and says nothing: neither account can challenge the
 * other (server/challenges/: refused as "not accepting challenges from you", never "blocked"), and quick
 * pairing never seats them together (storage/social.ts notBlocked in the pairing query). Nobody is told
 * they were blocked, and nobody but the blocker can list a block.
 *
 * `caller` and `accountByName` are for other social routes too (follows, friends).
 */
import type Router from '@koa/router';
import type Koa from 'koa';
import { nameKey, USERNAME } from '../../protocol/accounts';
import { signedIn } from '../accounts/session';
import { bearer, type Bearer } from '../bots/api/tokens';
import { enforce, type Limiter } from '../limits';
import type { Account, AccountStore } from '../storage/accounts';
import { HttpError } from '../storage/errors';
import type { SocialRows } from '../storage/social';

export const BLOCKS = {
  /** Players one account may block at once. */
  maxPerAccount: 500,
};

/** The caller's account: a bearer token (scope `bot`) when the request carries one, else the session. */
export async function caller(ctx: Koa.Context, accounts: AccountStore): Promise<{ account: Account; bearer: Bearer | null }> {
  if (ctx.get('Authorization')) {
    const b = await bearer(ctx, accounts, 'bot');
    return { account: b.account, bearer: b };
  }
  return { account: signedIn(ctx), bearer: null };
}

/** The account with this username, or a 404 that says no more (an oversized or malformed name is one too). */
export async function accountByName(accounts: AccountStore, raw: string): Promise<Account> {
  const a = raw.length <= USERNAME.max * 4 ? await accounts.byKey(nameKey(raw)) : undefined;
  if (!a) throw new HttpError(404, 'no such player');
  const { password: _p, ...account } = a;
  return account;
}

export function addBlockRoutes(o: { router: Router; accounts: AccountStore; social: SocialRows; limiter: Limiter }): void {
  const { router, accounts, social } = o;
  router.get('/api/block', async (ctx) => {
    const { account } = await caller(ctx, accounts);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { blocks: await social.blocks(account.id) };
  });
  router.post('/api/block/:username', async (ctx) => {
    const { account } = await caller(ctx, accounts);
    await enforce(o.limiter, 'block', account.id);
    const them = await accountByName(accounts, ctx.params.username);
    if (them.id === account.id) throw new HttpError(400, 'you cannot block yourself');
    if (!(await social.block(account.id, them.id, Date.now(), BLOCKS.maxPerAccount))) throw new HttpError(409, `at most ${BLOCKS.maxPerAccount} blocked players: unblock one first`);
    ctx.body = { blocked: them.username };
  });
  router.delete('/api/block/:username', async (ctx) => {
    const { account } = await caller(ctx, accounts);
    await enforce(o.limiter, 'block', account.id);
    const them = await accountByName(accounts, ctx.params.username);
    await social.unblock(account.id, them.id);
    ctx.status = 204;
  });
}
