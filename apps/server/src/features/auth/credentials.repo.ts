import { and, eq, gt, isNull, lt, or } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { apiKeys, personalTokens, sessions } from '../../db/schema/index.ts';

export async function findLiveSession(db: Executor, tokenHash: string, at: Date) {
  const [row] = await db
    .select({ id: sessions.id, userId: sessions.userId, expiresAt: sessions.expiresAt })
    .from(sessions)
    .where(and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, at)))
    .limit(1);
  return row;
}

export async function findPersonalToken(db: Executor, tokenHash: string) {
  const [row] = await db
    .select({ id: personalTokens.id, userId: personalTokens.userId })
    .from(personalTokens)
    .where(eq(personalTokens.tokenHash, tokenHash))
    .limit(1);
  return row;
}

export async function findApiKey(db: Executor, keyHash: string) {
  const [row] = await db
    .select({ id: apiKeys.id, workspaceId: apiKeys.workspaceId, scopes: apiKeys.scopes })
    .from(apiKeys)
    .where(eq(apiKeys.keyHash, keyHash))
    .limit(1);
  return row;
}

/** Stamps last use unless another request (or instance) did within the last minute. */
export async function touchApiKey(db: Executor, id: string, at: Date) {
  const since = new Date(at.getTime() - 60_000);
  await db
    .update(apiKeys)
    .set({ lastUsedAt: at })
    .where(and(eq(apiKeys.id, id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, since))));
}

export async function touchPersonalToken(db: Executor, id: string, at: Date) {
  const since = new Date(at.getTime() - 60_000);
  await db
    .update(personalTokens)
    .set({ lastUsedAt: at })
    .where(
      and(
        eq(personalTokens.id, id),
        or(isNull(personalTokens.lastUsedAt), lt(personalTokens.lastUsedAt, since)),
      ),
    );
}
