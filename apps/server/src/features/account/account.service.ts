import type { PatchAccountInput } from '@parley/contract/account';
import type { AppContext } from '../../context.ts';
import { badRequest } from '../../http/errors.ts';
import { assertNotBlocked } from '../../http/rate-limits.ts';
import { now } from '../../lib/clock.ts';
import { getUser } from '../auth/auth.service.ts';
import { hashPassword, verifyPassword } from '../auth/passwords.ts';
import { recordEvent } from '../events/events.service.ts';
import * as repo from './account.repo.ts';
import { removeExports } from './export.service.ts';

/** docs/accounts.md "Profile": the signed-in user's own profile. */
export const getAccount = (ctx: AppContext, userId: string) => getUser(ctx, userId);

export async function updateAccount(ctx: AppContext, userId: string, input: PatchAccountInput) {
  const { name, avatarUrl, preferences, language } = input;
  const row = await repo.updateProfile(ctx.db, userId, { name, avatarUrl, preferences, language }, now());
  return row ?? getUser(ctx, userId);
}

/**
 * docs/accounts.md "Password": the current password must match (else 400); accounts from an identity provider
 * have none (400). Success signs out every other session and keeps this one; personal access
 * tokens stay (they are revoked one by one under Tokens). Wrong guesses count against the same
 * per-account failure budget as sign-in, so a stolen session cannot brute-force the password.
 */
export async function changePassword(
  ctx: AppContext,
  userId: string,
  sessionId: string,
  input: { currentPassword: string; newPassword: string },
) {
  const user = await getUser(ctx, userId);
  if (!user.passwordHash) {
    throw badRequest('This account signs in through an identity provider and has no password', {
      currentPassword: 'This account has no password',
    });
  }
  const failKey = `pw:${userId}`;
  await assertNotBlocked(ctx.limits.loginFailures, failKey, 'rate_limit:api');
  if (!(await verifyPassword(user.passwordHash, input.currentPassword))) {
    await ctx.limits.loginFailures.penalty(failKey, 1);
    throw badRequest('The current password is incorrect', { currentPassword: 'Incorrect password' });
  }
  await ctx.limits.loginFailures.delete(failKey);
  const passwordHash = await hashPassword(input.newPassword);
  await ctx.db.transaction(async (tx) => {
    await repo.setPasswordHash(tx, userId, passwordHash, now());
    await repo.deleteOtherSessions(tx, userId, sessionId);
  });
  ctx.sessions.forgetUser(userId);
}

/**
 * docs/accounts.md "Deleting the account": irreversible. Workspaces the user owns are deleted
 * with everything in them; in the others the user leaves (`member.left`, docs/webhooks.md "Event names"). The
 * user row's cascade removes sessions, personal tokens, memberships and notifications.
 */
export async function deleteAccount(ctx: AppContext, userId: string) {
  await ctx.db.transaction(async (tx) => {
    const memberships = await repo.listMemberships(tx, userId);
    for (const m of memberships) {
      if (m.ownerId === userId) continue;
      await recordEvent(tx, {
        workspaceId: m.workspaceId,
        type: 'member.left',
        data: { userId, role: m.role, reason: 'account_deleted' },
      });
    }
    await repo.deleteOwnedWorkspaces(tx, userId);
    await repo.deleteUser(tx, userId);
  });
  ctx.sessions.forgetUser(userId);
  await removeExports(ctx, userId);
}
