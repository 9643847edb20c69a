import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { memberships, notifications, users } from '../../db/schema/index.ts';
import type { CursorKey } from '../../http/pagination.ts';

export type NotificationRow = typeof notifications.$inferSelect;

/**
 * Owners and admins of a workspace: who hears about its webhooks and billing
 * (docs/accounts.md "Notifications").
 */
export async function workspaceAdmins(db: Executor, workspaceId: string) {
  return db
    .select({ id: users.id, email: users.email, name: users.name })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.workspaceId, workspaceId), inArray(memberships.role, ['owner', 'admin'])));
}

export async function insertNotifications(db: Executor, rows: (typeof notifications.$inferInsert)[]) {
  if (rows.length > 0) await db.insert(notifications).values(rows);
}

/** A user's own notifications, newest first (keyset on created_at, id). */
export async function listForUser(db: Executor, userId: string, limit: number, after: CursorKey | undefined) {
  const conds = [eq(notifications.userId, userId)];
  if (after) {
    conds.push(
      sql`(${notifications.createdAt}, ${notifications.id}) < (${new Date(after.t).toISOString()}::timestamptz, ${after.id})`,
    );
  }
  return db
    .select()
    .from(notifications)
    .where(and(...conds))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(limit + 1);
}

export async function markRead(db: Executor, userId: string, id: string, at: Date) {
  const [row] = await db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.id, id)))
    .limit(1);
  if (!row) return undefined;
  if (row.readAt) return row;
  const [updated] = await db
    .update(notifications)
    .set({ readAt: at })
    .where(and(eq(notifications.userId, userId), eq(notifications.id, id)))
    .returning();
  return updated;
}

export async function markAllRead(db: Executor, userId: string, at: Date) {
  await db
    .update(notifications)
    .set({ readAt: at })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
}
