import { and, count, desc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import {
  contacts,
  conversations,
  type TicketPriority,
  type TicketStatus,
  tickets,
} from '../../db/schema/index.ts';
import { inInboxSql } from '../conversations/visibility.ts';

export type TicketRow = typeof tickets.$inferSelect;

/**
 * Support tickets (docs/contacts-and-tickets.md "Tickets"). Every query filters by workspace.
 */

/**
 * Serialises quota checks and creation of one workspace's tickets until the transaction ends
 * (docs/contacts-and-tickets.md "Quotas under concurrency").
 */
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

/** `lock` takes the row FOR UPDATE (a change reads the current status under it). */
export async function findTicket(db: Executor, workspaceId: string, id: string, lock = false) {
  const q = db
    .select()
    .from(tickets)
    .where(and(eq(tickets.id, id), eq(tickets.workspaceId, workspaceId)))
    .limit(1);
  const [row] = lock ? await q.for('update') : await q;
  return row;
}

export type TicketFilter = {
  status?: TicketStatus;
  priority?: TicketPriority;
  contactId?: string;
  conversationId?: string;
  assigneeId?: string;
  unassigned?: boolean;
};

/** Newest first. */
export async function listTickets(
  db: Executor,
  workspaceId: string,
  filter: TicketFilter,
  page: { limit: number; offset: number },
) {
  const conditions: Array<SQL | undefined> = [
    eq(tickets.workspaceId, workspaceId),
    filter.status !== undefined ? eq(tickets.status, filter.status) : undefined,
    filter.priority !== undefined ? eq(tickets.priority, filter.priority) : undefined,
    filter.contactId !== undefined ? eq(tickets.contactId, filter.contactId) : undefined,
    filter.conversationId !== undefined ? eq(tickets.conversationId, filter.conversationId) : undefined,
    filter.assigneeId !== undefined ? eq(tickets.assigneeId, filter.assigneeId) : undefined,
    filter.unassigned ? isNull(tickets.assigneeId) : undefined,
  ];
  const where = and(...conditions);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(tickets)
      .where(where)
      .orderBy(desc(tickets.createdAt), desc(tickets.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(tickets).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

export async function updateTicket(
  db: Executor,
  workspaceId: string,
  id: string,
  patch: Partial<typeof tickets.$inferInsert>,
): Promise<TicketRow | undefined> {
  const [row] = await db
    .update(tickets)
    .set(patch)
    .where(and(eq(tickets.id, id), eq(tickets.workspaceId, workspaceId)))
    .returning();
  return row;
}

/** Is `contactId` a contact of the workspace? */
export async function contactInWorkspace(db: Executor, workspaceId: string, contactId: string) {
  const [row] = await db
    .select({ id: contacts.id })
    .from(contacts)
    .where(and(eq(contacts.id, contactId), eq(contacts.workspaceId, workspaceId)))
    .limit(1);
  return row !== undefined;
}

/**
 * Is `conversationId` a conversation of the workspace (with `inboxOnly`, one the inbox shows:
 * features/conversations/visibility.ts)?
 */
export async function conversationInWorkspace(
  db: Executor,
  workspaceId: string,
  conversationId: string,
  inboxOnly: boolean,
) {
  const [row] = await db
    .select({ id: conversations.id })
    .from(conversations)
    .where(
      and(
        eq(conversations.id, conversationId),
        eq(conversations.workspaceId, workspaceId),
        inboxOnly ? inInboxSql() : undefined,
      ),
    )
    .limit(1);
  return row !== undefined;
}
