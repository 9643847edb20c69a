import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { memberships, notificationPreferences, notifications, users } from '../../db/schema/index.ts';
import type { CursorKey } from '../../http/pagination.ts';

export type NotificationRow = typeof notifications.$inferSelect;

/**
 * Owners and admins of a workspace: who hears about its webhooks and billing
 * (docs/accounts.md "Notifications").
 */
export async function workspaceAdmins(db: Executor, workspaceId: string) {
  return db
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      emailOff: notificationPreferences.emailOff,
      inAppOff: notificationPreferences.inAppOff,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .leftJoin(notificationPreferences, eq(notificationPreferences.userId, users.id))
    .where(and(eq(memberships.workspaceId, workspaceId), inArray(memberships.role, ['owner', 'admin'])));
}

/** One member of a workspace, with their preferences (a conversation's new assignee). */
export async function memberToNotify(db: Executor, workspaceId: string, userId: string) {
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      emailOff: notificationPreferences.emailOff,
      inAppOff: notificationPreferences.inAppOff,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .leftJoin(notificationPreferences, eq(notificationPreferences.userId, users.id))
    .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, userId)))
    .limit(1);
  return row;
}

/** A user by login email, with their preferences (an invitee who already has an account). */
export async function userByEmail(db: Executor, email: string) {
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      emailOff: notificationPreferences.emailOff,
      inAppOff: notificationPreferences.inAppOff,
    })
    .from(users)
    .leftJoin(notificationPreferences, eq(notificationPreferences.userId, users.id))
    .where(sql`lower(${users.email}) = lower(${email})`)
    .limit(1);
  return row;
}

export async function findPreferences(db: Executor, userId: string) {
  const [row] = await db
    .select()
    .from(notificationPreferences)
    .where(eq(notificationPreferences.userId, userId))
    .limit(1);
  return row;
}

export async function savePreferences(
  db: Executor,
  userId: string,
  prefs: { emailOff: string[]; inAppOff: string[] },
  at: Date,
) {
  await db
    .insert(notificationPreferences)
    .values({ userId, ...prefs, updatedAt: at })
    .onConflictDoUpdate({ target: notificationPreferences.userId, set: { ...prefs, updatedAt: at } });
}

export async function unreadCount(db: Executor, userId: string) {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  return row?.n ?? 0;
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
