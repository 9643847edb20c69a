import type { AppContext } from '../../context.ts';
import { isUniqueViolation } from '../../db/client.ts';
import { AppError, conflict, notFound, unauthorized } from '../../http/errors.ts';
import { assertNotBlocked } from '../../http/rate-limits.ts';
import { addDays, now } from '../../lib/clock.ts';
import { randomToken, sha256Hex } from '../../lib/crypto.ts';
import { newId } from '../../lib/ids.ts';
import * as repo from './auth.repo.ts';
import { PAT_PREFIX } from './credentials.service.ts';
import { burnPasswordCheck, hashPassword, verifyPassword } from './passwords.ts';

export type NewSession = { token: string; expiresAt: Date };

export async function createSession(ctx: AppContext, userId: string): Promise<NewSession> {
  const token = randomToken('', 32);
  const expiresAt = addDays(now(), ctx.config.sessionTtlDays);
  await repo.insertSession(ctx.db, { id: newId('ses'), userId, tokenHash: sha256Hex(token), expiresAt });
  return { token, expiresAt };
}

/**
 * A check a password sign-in must also pass once the password is right (single sign-on's "SSO
 * required", features/sso/signin.service.ts). The list is features/registries.ts
 * `signInGuards`, carried by the context (`ctx.signInGuards`), so auth names no feature and no
 * route registration fills it.
 */
export type SignInGuard = (ctx: AppContext, user: repo.UserRow) => Promise<void>;

/** A user signed in by an identity provider: found by email, or created without a password. */
export async function externalUser(ctx: AppContext, email: string, name: string) {
  const found = await repo.findUserByEmail(ctx.db, email);
  if (found) return found;
  try {
    return await repo.insertUser(ctx.db, { id: newId('usr'), email, name, passwordHash: null });
  } catch (err) {
    const raced = isUniqueViolation(err) ? await repo.findUserByEmail(ctx.db, email) : undefined;
    if (raced) return raced;
    throw err;
  }
}

export async function signup(ctx: AppContext, input: { email: string; password: string; name: string }) {
  const passwordHash = await hashPassword(input.password);
  try {
    const user = await repo.insertUser(ctx.db, {
      id: newId('usr'),
      email: input.email,
      name: input.name,
      passwordHash,
    });
    return { user, session: await createSession(ctx, user.id) };
  } catch (err) {
    if (isUniqueViolation(err))
      throw conflict('An account with this email already exists', { email: 'Already registered' });
    throw err;
  }
}

/** Wrong pair and unknown email answer alike (docs/accounts.md); failures per account are limited. */
export async function login(ctx: AppContext, input: { email: string; password: string }) {
  const accountKey = `acct:${input.email}`;
  await assertNotBlocked(ctx.limits.loginFailures, accountKey, 'rate_limit:api');
  const user = await repo.findUserByEmail(ctx.db, input.email);
  let ok = false;
  if (user?.passwordHash) ok = await verifyPassword(user.passwordHash, input.password);
  else await burnPasswordCheck(input.password);
  if (!user || !ok) {
    await ctx.limits.loginFailures.penalty(accountKey, 1);
    throw unauthorized('Invalid email or password');
  }
  await ctx.limits.loginFailures.delete(accountKey);
  for (const guard of ctx.signInGuards) await guard(ctx, user);
  return { user, session: await createSession(ctx, user.id) };
}

export async function logout(ctx: AppContext, userId: string, sessionId: string) {
  await repo.deleteSession(ctx.db, sessionId);
  // Every process hears it at commit (session-cache.ts); this one forgets it before answering.
  ctx.sessions.forgetUser(userId);
}

export async function currentSession(ctx: AppContext, userId: string, sessionId: string) {
  const [user, session] = await Promise.all([
    repo.findUserById(ctx.db, userId),
    repo.findSessionById(ctx.db, sessionId),
  ]);
  if (!user || !session) throw unauthorized();
  return { user, expiresAt: session.expiresAt };
}

export async function getUser(ctx: AppContext, userId: string) {
  const user = await repo.findUserById(ctx.db, userId);
  if (!user) throw new AppError('unauthorized:api', 'Account no longer exists');
  return user;
}

export async function createPersonalToken(ctx: AppContext, userId: string, name: string) {
  const token = randomToken(PAT_PREFIX, 32);
  const row = await repo.insertPersonalToken(ctx.db, {
    id: newId('pat'),
    userId,
    name,
    tokenHash: sha256Hex(token),
    last4: token.slice(-4),
  });
  return { row, token };
}

export const listPersonalTokens = (ctx: AppContext, userId: string) =>
  repo.listPersonalTokens(ctx.db, userId);

export async function revokePersonalToken(ctx: AppContext, userId: string, id: string) {
  if (!(await repo.deletePersonalToken(ctx.db, userId, id))) throw notFound('Token');
}
