import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { membershipColumns, membershipOf, membershipWorkspace, planColumns } from '../../db/membership.ts';
import { preparedFor } from '../../db/prepared.ts';
import { apiKeys, memberships, personalTokens, sessions, workspaces } from '../../db/schema/index.ts';

// Every authenticated request runs one of these: prepared once (db/prepared.ts).
const liveSession = preparedFor((db) =>
  db
    .select({ id: sessions.id, userId: sessions.userId, expiresAt: sessions.expiresAt })
    .from(sessions)
    .where(
      and(eq(sessions.tokenHash, sql.placeholder('hash')), gt(sessions.expiresAt, sql.placeholder('at'))),
    )
    .limit(1)
    .prepare('parley_live_session'),
);

export async function findLiveSession(db: Executor, tokenHash: string, at: Date) {
  const [row] = await liveSession(db).execute({ hash: tokenHash, at: at.toISOString() });
  return row;
}

const liveSessionIn = preparedFor((db) =>
  db
    .select({ id: sessions.id, userId: sessions.userId, ...membershipColumns })
    .from(sessions)
    // The caller's membership in the path's workspace, left-joined (db/membership.ts).
    .leftJoin(memberships, membershipOf(sessions.userId))
    .leftJoin(workspaces, membershipWorkspace)
    .where(
      and(eq(sessions.tokenHash, sql.placeholder('hash')), gt(sessions.expiresAt, sql.placeholder('at'))),
    )
    .limit(1)
    .prepare('parley_live_session_in'),
);

/** A live session and, in the same query, its user's membership in `workspaceId` (or nulls). */
export async function findLiveSessionIn(db: Executor, tokenHash: string, at: Date, workspaceId: string) {
  const [row] = await liveSessionIn(db).execute({ hash: tokenHash, at: at.toISOString(), workspaceId });
  return row;
}

const personalTokenIn = preparedFor((db) =>
  db
    .select({ id: personalTokens.id, userId: personalTokens.userId, ...membershipColumns })
    .from(personalTokens)
    .leftJoin(memberships, membershipOf(personalTokens.userId))
    .leftJoin(workspaces, membershipWorkspace)
    .where(eq(personalTokens.tokenHash, sql.placeholder('hash')))
    .limit(1)
    .prepare('parley_personal_token_in'),
);

export async function findPersonalTokenIn(db: Executor, tokenHash: string, workspaceId: string) {
  const [row] = await personalTokenIn(db).execute({ hash: tokenHash, workspaceId });
  return row;
}

const personalToken = preparedFor((db) =>
  db
    .select({ id: personalTokens.id, userId: personalTokens.userId })
    .from(personalTokens)
    .where(eq(personalTokens.tokenHash, sql.placeholder('hash')))
    .limit(1)
    .prepare('parley_personal_token'),
);

export async function findPersonalToken(db: Executor, tokenHash: string) {
  const [row] = await personalToken(db).execute({ hash: tokenHash });
  return row;
}

const apiKey = preparedFor((db) =>
  db
    .select({
      id: apiKeys.id,
      workspaceId: apiKeys.workspaceId,
      scopes: apiKeys.scopes,
      // The key's workspace plan in the same query: the tenant guard then needs none.
      ...planColumns,
    })
    .from(apiKeys)
    .innerJoin(workspaces, eq(workspaces.id, apiKeys.workspaceId))
    .where(eq(apiKeys.keyHash, sql.placeholder('hash')))
    .limit(1)
    .prepare('parley_api_key'),
);

export async function findApiKey(db: Executor, keyHash: string) {
  const [row] = await apiKey(db).execute({ hash: keyHash });
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
