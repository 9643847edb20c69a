import type { Language } from '@parley/contract/languages';
import { and, desc, eq, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { memberships, type Preferences, sessions, users, workspaces } from '../../db/schema/index.ts';

/**
 * Queries of the signed-in user's own account. They filter by user id: an account spans
 * workspaces, and every row touched here belongs to that user.
 */
export async function updateProfile(
  db: Executor,
  userId: string,
  patch: {
    name?: string;
    avatarUrl?: string | null;
    preferences?: Partial<Preferences>;
    language?: Language | null;
  },
  at: Date,
) {
  const [row] = await db
    .update(users)
    .set({
      name: patch.name,
      avatarUrl: patch.avatarUrl,
      language: patch.language,
      // A jsonb merge in SQL: concurrent partial updates of different keys both survive.
      preferences: patch.preferences
        ? sql`${users.preferences} || ${JSON.stringify(patch.preferences)}::jsonb`
        : undefined,
      updatedAt: at,
    })
    .where(eq(users.id, userId))
    .returning();
  return row;
}

export async function setPasswordHash(db: Executor, userId: string, passwordHash: string, at: Date) {
  await db.update(users).set({ passwordHash, updatedAt: at }).where(eq(users.id, userId));
}

export async function deleteOtherSessions(db: Executor, userId: string, keepSessionId: string) {
  await db.delete(sessions).where(and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId)));
}

export async function listSessions(db: Executor, userId: string) {
  return db
    .select({ id: sessions.id, createdAt: sessions.createdAt, expiresAt: sessions.expiresAt })
    .from(sessions)
    .where(eq(sessions.userId, userId))
    .orderBy(desc(sessions.createdAt));
}

/** The user's memberships with their workspaces (for the export and for deletion). */
export async function listMemberships(db: Executor, userId: string) {
  return db
    .select({
      workspaceId: workspaces.id,
      name: workspaces.name,
      slug: workspaces.slug,
      plan: workspaces.plan,
      ownerId: workspaces.ownerId,
      createdAt: workspaces.createdAt,
      role: memberships.role,
      joinedAt: memberships.joinedAt,
    })
    .from(memberships)
    .innerJoin(workspaces, eq(workspaces.id, memberships.workspaceId))
    .where(eq(memberships.userId, userId))
    .orderBy(memberships.joinedAt);
}

/** Deletes the workspaces the user owns; everything in them goes with them (ON DELETE CASCADE). */
export async function deleteOwnedWorkspaces(db: Executor, userId: string) {
  return db.delete(workspaces).where(eq(workspaces.ownerId, userId)).returning({ id: workspaces.id });
}

/** Sessions, personal tokens, memberships and notifications cascade from the user row. */
export async function deleteUser(db: Executor, userId: string) {
  await db.delete(users).where(eq(users.id, userId));
}
