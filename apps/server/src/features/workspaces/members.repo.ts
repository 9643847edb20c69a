import { and, asc, count, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { type Availability, memberships, type Role, users } from '../../db/schema/index.ts';

const memberColumns = {
  userId: memberships.userId,
  name: users.name,
  email: users.email,
  role: memberships.role,
  joinedAt: memberships.joinedAt,
  availability: memberships.availability,
};

export type MemberRow = {
  userId: string;
  name: string;
  email: string;
  role: string;
  joinedAt: Date;
  availability: Availability;
};

/** When a conversation was last assigned to them: auto-assignment's tie-break (docs/inbox.md "Auto-assignment"). */
export async function markAssigned(tx: Executor, workspaceId: string, userId: string, at: Date) {
  await tx
    .update(memberships)
    .set({ lastAssignedAt: at })
    .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, userId)));
}

/** A member's inbox stream is open now (or just closed): present for auto-assignment. */
export async function markInboxSeen(db: Executor, workspaceId: string, userId: string, at: Date) {
  await db
    .update(memberships)
    .set({ inboxSeenAt: at })
    .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, userId)));
}

/** A member's own availability; false when they are not a member. */
export async function setAvailability(
  db: Executor,
  workspaceId: string,
  userId: string,
  status: Availability,
) {
  const rows = await db
    .update(memberships)
    .set({ availability: status })
    .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, userId)))
    .returning({ userId: memberships.userId });
  return rows.length > 0;
}

export async function listMembers(db: Executor, workspaceId: string, limit: number, offset: number) {
  const where = eq(memberships.workspaceId, workspaceId);
  const [rows, [c]] = await Promise.all([
    db
      .select(memberColumns)
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(where)
      .orderBy(asc(memberships.joinedAt), asc(memberships.userId))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(memberships).where(where),
  ]);
  return { rows, total: c?.n ?? 0 };
}

/**
 * A user's role in the workspace, undefined when they are not a member: the one membership check of
 * the features that name a colleague (inbox and ticket assignees, members.service.ts `assigneeRefusal`).
 */
export async function memberRoleOf(
  db: Executor,
  workspaceId: string,
  userId: string,
): Promise<Role | undefined> {
  const [row] = await db
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, userId)))
    .limit(1);
  return row?.role;
}

/** `lock` takes the membership row FOR UPDATE (role changes and removals inside a transaction). */
export async function findMember(db: Executor, workspaceId: string, userId: string, lock = false) {
  const q = db
    .select(memberColumns)
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, userId)))
    .limit(1);
  const [row] = lock ? await q.for('update', { of: memberships }) : await q;
  return row;
}

export async function deleteMember(tx: Executor, workspaceId: string, userId: string) {
  const rows = await tx
    .delete(memberships)
    .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, userId)))
    .returning({ role: memberships.role });
  return rows[0];
}

/** Is a user with this email already a member (docs/workspaces.md "Invitations")? */
export async function isMemberByEmail(db: Executor, workspaceId: string, email: string) {
  const rows = await db
    .select({ userId: memberships.userId })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.workspaceId, workspaceId), eq(users.email, email)))
    .limit(1);
  return rows.length > 0;
}

export async function findUserEmailAndName(db: Executor, userId: string) {
  const [row] = await db
    .select({ email: users.email, name: users.name })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row;
}

/** Adds a membership unless one exists (then false): an accepted invitation never duplicates a member. */
export async function insertMemberIfAbsent(
  tx: Executor,
  row: { workspaceId: string; userId: string; role: 'admin' | 'member' | 'guest'; joinedAt: Date },
): Promise<boolean> {
  const rows = await tx
    .insert(memberships)
    .values(row)
    .onConflictDoNothing()
    .returning({ userId: memberships.userId });
  return rows.length > 0;
}
