import { count, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { tickets } from '../../db/schema/index.ts';

export type TicketRow = typeof tickets.$inferSelect;

/** Serialises quota checks of one workspace's tickets until the transaction ends. */
export async function lockWorkspaceTickets(tx: Executor, workspaceId: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`tickets:${workspaceId}`}))`);
}

export async function countTickets(db: Executor, workspaceId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(tickets).where(eq(tickets.workspaceId, workspaceId));
  return row?.n ?? 0;
}

export async function insertTicket(db: Executor, row: typeof tickets.$inferInsert): Promise<TicketRow> {
  const [created] = await db.insert(tickets).values(row).returning();
  return created as TicketRow;
}
