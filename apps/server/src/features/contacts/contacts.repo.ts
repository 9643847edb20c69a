import { and, count, desc, eq, ilike, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { contacts } from '../../db/schema/index.ts';
import { contactHasLabel } from '../labels/label-filter.ts';

export type ContactRow = typeof contacts.$inferSelect;

/**
 * CRM contacts (docs/contacts-and-tickets.md "Contacts"): email is unique per workspace case-insensitively,
 * phone (E.164) exactly. Every query filters by workspace.
 */

/**
 * Serialises matching, quota checks, creation and uniqueness checks of one workspace's contacts until
 * commit (docs/contacts-and-tickets.md "Quotas under concurrency").
 */
export async function lockWorkspaceContacts(tx: Executor, workspaceId: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`contacts:${workspaceId}`}))`);
}

export async function findContact(db: Executor, workspaceId: string, id: string) {
  const [row] = await db
    .select()
    .from(contacts)
    .where(and(eq(contacts.id, id), eq(contacts.workspaceId, workspaceId)))
    .limit(1);
  return row;
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

export type ContactFilter = { email?: string; phone?: string; q?: string; labelId?: string };

/** `%`, `_` and `\` in a search term match themselves. */
const likeTerm = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Newest first; `email` case-insensitive, `phone` exact (E.164), `q` a substring of name, email or
 * phone, `labelId` a label in its set (docs/labels.md "Filters").
 */
export async function listContacts(
  db: Executor,
  workspaceId: string,
  filter: ContactFilter,
  page: { limit: number; offset: number },
) {
  const conditions: Array<SQL | undefined> = [eq(contacts.workspaceId, workspaceId)];
  if (filter.email !== undefined) conditions.push(sql`lower(${contacts.email}) = lower(${filter.email})`);
  if (filter.phone !== undefined) conditions.push(eq(contacts.phone, filter.phone));
  if (filter.q !== undefined) {
    const term = likeTerm(filter.q);
    conditions.push(or(ilike(contacts.name, term), ilike(contacts.email, term), ilike(contacts.phone, term)));
  }
  if (filter.labelId !== undefined) conditions.push(contactHasLabel(filter.labelId));
  const where = and(...conditions);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(contacts)
      .where(where)
      .orderBy(desc(contacts.createdAt), desc(contacts.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(contacts).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
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

export async function deleteContact(db: Executor, workspaceId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(contacts)
    .where(and(eq(contacts.id, id), eq(contacts.workspaceId, workspaceId)))
    .returning({ id: contacts.id });
  return rows.length > 0;
}
