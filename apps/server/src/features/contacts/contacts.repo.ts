import { and, count, eq, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { contacts } from '../../db/schema/index.ts';

export type ContactRow = typeof contacts.$inferSelect;

/**
 * CRM contacts (docs/contacts-and-tickets.md "Contacts"): email is unique per workspace case-insensitively,
 * phone (E.164) exactly. Every query filters by workspace.
 */

/** Serialises matching, quota checks and creation of one workspace's contacts until commit. */
export async function lockWorkspaceContacts(tx: Executor, workspaceId: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`contacts:${workspaceId}`}))`);
}

export async function findByEmail(db: Executor, workspaceId: string, email: string, exceptId?: string) {
  const [row] = await db
    .select()
    .from(contacts)
    .where(
      and(
        eq(contacts.workspaceId, workspaceId),
        sql`lower(${contacts.email}) = lower(${email})`,
        exceptId ? ne(contacts.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  return row;
}

export async function findByPhone(db: Executor, workspaceId: string, phone: string, exceptId?: string) {
  const [row] = await db
    .select()
    .from(contacts)
    .where(
      and(
        eq(contacts.workspaceId, workspaceId),
        eq(contacts.phone, phone),
        exceptId ? ne(contacts.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  return row;
}

export async function countContacts(db: Executor, workspaceId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(contacts).where(eq(contacts.workspaceId, workspaceId));
  return row?.n ?? 0;
}

export async function insertContact(db: Executor, row: typeof contacts.$inferInsert): Promise<ContactRow> {
  const [created] = await db.insert(contacts).values(row).returning();
  return created as ContactRow;
}

export async function updateContact(
  db: Executor,
  workspaceId: string,
  id: string,
  patch: Partial<typeof contacts.$inferInsert>,
): Promise<ContactRow | undefined> {
  const [row] = await db
    .update(contacts)
    .set(patch)
    .where(and(eq(contacts.id, id), eq(contacts.workspaceId, workspaceId)))
    .returning();
  return row;
}
