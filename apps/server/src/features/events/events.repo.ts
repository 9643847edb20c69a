import { inArray, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.ts';
import { events } from '../../db/schema/index.ts';

export async function insertEvent(db: Executor, row: typeof events.$inferInsert) {
  const [event] = await db.insert(events).values(row).returning();
  return event!;
}

export type PendingEvent = { id: string; workspaceId: string; type: string; createdAt: Date };

/**
 * Oldest undispatched events, locked for this transaction; SKIP LOCKED lets several processes
 * dispatch side by side without waiting on each other. Spans workspaces by design: this is the
 * outbox relay, not a tenant query.
 */
export async function lockUndispatched(tx: Executor, limit: number): Promise<PendingEvent[]> {
  const rows = await queryRows<{ id: string; workspace_id: string; type: string; created_at: string | Date }>(
    tx,
    sql`select id, workspace_id, type, created_at from events
        where dispatched_at is null order by created_at limit ${limit} for update skip locked`,
  );
  return rows.map((r) => ({
    id: r.id,
    workspaceId: r.workspace_id,
    type: r.type,
    createdAt: new Date(r.created_at),
  }));
}

export async function markDispatched(tx: Executor, ids: string[], at: Date) {
  if (ids.length === 0) return;
  await tx.update(events).set({ dispatchedAt: at }).where(inArray(events.id, ids));
}

/** A cheap look (one statement, no transaction) before the relay opens one. */
export async function anyUndispatched(db: Executor): Promise<boolean> {
  const rows = await queryRows(db, sql`select 1 from events where dispatched_at is null limit 1`);
  return rows.length > 0;
}
