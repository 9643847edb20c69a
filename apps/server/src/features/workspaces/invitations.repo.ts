import { and, count, desc, eq, gt, isNull, lte } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { invitations, workspaces } from '../../db/schema/index.ts';

export type InvitationRow = typeof invitations.$inferSelect;

const pending = (workspaceId: string, at: Date) =>
  and(
    eq(invitations.workspaceId, workspaceId),
    isNull(invitations.acceptedAt),
    gt(invitations.expiresAt, at),
  );

export async function findPendingByEmail(db: Executor, workspaceId: string, email: string, at: Date) {
  const [row] = await db
    .select({ id: invitations.id })
    .from(invitations)
    .where(and(pending(workspaceId, at), eq(invitations.email, email)))
    .limit(1);
  return row;
}

/** Expired, never accepted invitations for this email hold the unique "pending" slot: free it. */
export async function deleteExpiredForEmail(tx: Executor, workspaceId: string, email: string, at: Date) {
  await tx
    .delete(invitations)
    .where(
      and(
        eq(invitations.workspaceId, workspaceId),
        eq(invitations.email, email),
        isNull(invitations.acceptedAt),
        lte(invitations.expiresAt, at),
      ),
    );
}

export async function insertInvitation(tx: Executor, row: typeof invitations.$inferInsert) {
  const [created] = await tx.insert(invitations).values(row).returning();
  return created!;
}

export async function listPending(
  db: Executor,
  workspaceId: string,
  at: Date,
  limit: number,
  offset: number,
) {
  const where = pending(workspaceId, at);
  const [rows, [c]] = await Promise.all([
    db
      .select()
      .from(invitations)
      .where(where)
      .orderBy(desc(invitations.createdAt), desc(invitations.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(invitations).where(where),
  ]);
  return { rows, total: c?.n ?? 0 };
}

/** Revokes a pending (not yet accepted) invitation of this workspace. */
export async function deletePending(db: Executor, workspaceId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(invitations)
    .where(
      and(eq(invitations.workspaceId, workspaceId), eq(invitations.id, id), isNull(invitations.acceptedAt)),
    )
    .returning({ id: invitations.id });
  return rows.length > 0;
}

/** The token is the only key an invitee holds, so this lookup is by token hash across workspaces. */
export async function findLiveByTokenHash(db: Executor, tokenHash: string, at: Date) {
  const [row] = await db
    .select()
    .from(invitations)
    .where(
      and(
        eq(invitations.tokenHash, tokenHash),
        isNull(invitations.acceptedAt),
        gt(invitations.expiresAt, at),
      ),
    )
    .limit(1);
  return row;
}

/** Atomically marks the invitation used; undefined when a concurrent accept got there first. */
export async function claim(tx: Executor, workspaceId: string, id: string, at: Date) {
  const [row] = await tx
    .update(invitations)
    .set({ acceptedAt: at })
    .where(
      and(
        eq(invitations.workspaceId, workspaceId),
        eq(invitations.id, id),
        isNull(invitations.acceptedAt),
        gt(invitations.expiresAt, at),
      ),
    )
    .returning();
  return row;
}

export async function workspaceName(db: Executor, workspaceId: string) {
  const [row] = await db
    .select({ name: workspaces.name })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId))
    .limit(1);
  return row?.name;
}
