import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { slaPolicies } from '../../db/schema/index.ts';

export type SlaPolicyRow = typeof slaPolicies.$inferSelect;

/**
 * A workspace's SLA policies (docs/sla.md "Policies"). Every query filters by workspace. The
 * order is the one a conversation's policy is chosen by: priority, then the older first.
 */

/**
 * The workspace's policies, the one that wins first: lowest priority, then created first (the id,
 * time-ordered, settles two created in the same instant).
 */
export async function listSlaPolicies(db: Executor, workspaceId: string) {
  return db
    .select()
    .from(slaPolicies)
    .where(eq(slaPolicies.workspaceId, workspaceId))
    .orderBy(asc(slaPolicies.priority), asc(slaPolicies.createdAt), asc(slaPolicies.id));
}

export async function findSlaPolicy(db: Executor, workspaceId: string, id: string) {
  const [row] = await db
    .select()
    .from(slaPolicies)
    .where(and(eq(slaPolicies.workspaceId, workspaceId), eq(slaPolicies.id, id)))
    .limit(1);
  return row;
}

/** Serialises creations of one workspace's policies until the transaction ends (the limit holds under races). */
export async function lockWorkspacePolicies(tx: Executor, workspaceId: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`sla-policies:${workspaceId}`}))`);
}

export async function countSlaPolicies(db: Executor, workspaceId: string) {
  const [row] = await db
    .select({ n: count() })
    .from(slaPolicies)
    .where(eq(slaPolicies.workspaceId, workspaceId));
  return row?.n ?? 0;
}

export async function insertSlaPolicy(db: Executor, row: typeof slaPolicies.$inferInsert) {
  const [created] = await db.insert(slaPolicies).values(row).returning();
  return created as SlaPolicyRow;
}

/** The policy, locked against another change until the transaction ends. */
export async function lockSlaPolicy(tx: Executor, workspaceId: string, id: string) {
  const [row] = await tx
    .select()
    .from(slaPolicies)
    .where(and(eq(slaPolicies.workspaceId, workspaceId), eq(slaPolicies.id, id)))
    .for('update');
  return row;
}

export async function updateSlaPolicy(
  db: Executor,
  workspaceId: string,
  id: string,
  patch: Partial<Omit<SlaPolicyRow, 'id' | 'workspaceId' | 'createdAt'>> & { updatedAt: Date },
) {
  const [row] = await db
    .update(slaPolicies)
    .set(patch)
    .where(and(eq(slaPolicies.workspaceId, workspaceId), eq(slaPolicies.id, id)))
    .returning();
  return row;
}

export async function deleteSlaPolicy(db: Executor, workspaceId: string, id: string) {
  await db.delete(slaPolicies).where(and(eq(slaPolicies.workspaceId, workspaceId), eq(slaPolicies.id, id)));
}
