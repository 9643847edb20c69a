import { and, eq, gt } from 'drizzle-orm';
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
