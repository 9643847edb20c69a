import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { contacts, conversations, type LabelRef, labels } from '../../db/schema/index.ts';
import { holdsLabel } from './label-filter.ts';

export type LabelRow = typeof labels.$inferSelect;

/**
 * A workspace's labels and the sets on its conversations and contacts (docs/labels.md). A set is
 * kept on its row as `[{id, name, color}]`; a label's rename, recolor or deletion rewrites the rows
 * that hold it, in the label's transaction. Every query filters by workspace.
 */

/** Serialises creations of one workspace's labels until the transaction ends (the limit holds under races). */
export async function lockWorkspaceLabels(tx: Executor, workspaceId: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`labels:${workspaceId}`}))`);
}

export async function countLabels(db: Executor, workspaceId: string) {
  const [row] = await db.select({ n: count() }).from(labels).where(eq(labels.workspaceId, workspaceId));
  return row?.n ?? 0;
}

export async function listLabels(db: Executor, workspaceId: string) {
  return db
    .select()
    .from(labels)
    .where(eq(labels.workspaceId, workspaceId))
    .orderBy(asc(sql`lower(${labels.name})`), asc(labels.id));
}

export async function findLabel(db: Executor, workspaceId: string, id: string) {
  const [row] = await db
    .select()
    .from(labels)
    .where(and(eq(labels.workspaceId, workspaceId), eq(labels.id, id)))
    .limit(1);
  return row;
}

/** The workspace's labels among `ids`, locked against a change until the transaction ends. */
export async function lockLabels(tx: Executor, workspaceId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return tx
    .select()
    .from(labels)
    .where(and(eq(labels.workspaceId, workspaceId), inArray(labels.id, ids)))
    .for('share');
}

export async function insertLabel(db: Executor, row: typeof labels.$inferInsert) {
  const [created] = await db.insert(labels).values(row).returning();
  return created as LabelRow;
}

export async function updateLabel(
  db: Executor,
  workspaceId: string,
  id: string,
  patch: Partial<Pick<LabelRow, 'name' | 'color' | 'description'>> & { updatedAt: Date },
) {
  const [row] = await db
    .update(labels)
    .set(patch)
    .where(and(eq(labels.workspaceId, workspaceId), eq(labels.id, id)))
    .returning();
  return row;
}

export async function deleteLabel(db: Executor, workspaceId: string, id: string) {
  const rows = await db
    .delete(labels)
    .where(and(eq(labels.workspaceId, workspaceId), eq(labels.id, id)))
    .returning({ id: labels.id });
  return rows.length > 0;
}

/**
 * Every set holding label `id`, rewritten: with its new name and color (`ref`), or without it
 * (`ref` null, the label deleted). Order is kept.
 */
export async function rewriteSets(db: Executor, workspaceId: string, id: string, ref: LabelRef | null) {
  const replaced = ref
    ? sql`case when e->>'id' = ${id} then ${JSON.stringify(ref)}::jsonb else e end`
    : sql`e`;
  const keep = ref ? sql`true` : sql`e->>'id' <> ${id}`;
  for (const table of [conversations, contacts]) {
    await db.execute(sql`
      update ${table}
         set labels = coalesce((select jsonb_agg(${replaced} order by n)
                                  from jsonb_array_elements(${table.labels}) with ordinality as x(e, n)
                                 where ${keep}), '[]'::jsonb)
       where ${table.workspaceId} = ${workspaceId} and ${holdsLabel(table.labels, id)}`);
  }
}

/** Replaces a conversation's or a contact's set; the row as it now is. */
export async function setConversationLabels(
  db: Executor,
  workspaceId: string,
  id: string,
  set: LabelRef[],
  at: Date,
) {
  const [row] = await db
    .update(conversations)
    .set({ labels: set, updatedAt: at })
    .where(and(eq(conversations.workspaceId, workspaceId), eq(conversations.id, id)))
    .returning();
  return row;
}

export async function setContactLabels(
  db: Executor,
  workspaceId: string,
  id: string,
  set: LabelRef[],
  at: Date,
) {
  const [row] = await db
    .update(contacts)
    .set({ labels: set, updatedAt: at })
    .where(and(eq(contacts.workspaceId, workspaceId), eq(contacts.id, id)))
    .returning();
  return row;
}
