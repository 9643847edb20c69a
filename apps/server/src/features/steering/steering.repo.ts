import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { assistants, assistantTests, curatedAnswers, guidanceRules } from '../../db/schema/index.ts';

/**
 * An assistant's guidance rules, curated answers and tests (docs/steering.md): three lists of the
 * same kind, each row owned by an assistant of a workspace. Every query names both.
 */
export const ITEM_TABLES = {
  guidance: guidanceRules,
  answers: curatedAnswers,
  tests: assistantTests,
} as const;
export type ItemKind = keyof typeof ITEM_TABLES;
export type ItemRow<K extends ItemKind> = (typeof ITEM_TABLES)[K]['$inferSelect'];
export type ItemInsert<K extends ItemKind> = (typeof ITEM_TABLES)[K]['$inferInsert'];
export type GuidanceRow = ItemRow<'guidance'>;
export type CuratedAnswerRow = ItemRow<'answers'>;
export type AssistantTestRow = ItemRow<'tests'>;

export type Owner = { workspaceId: string; assistantId: string };

// The three tables share the owner columns: one of them stands for all in the queries below.
const tableOf = (kind: ItemKind) => ITEM_TABLES[kind] as typeof guidanceRules;
const owned = (kind: ItemKind, o: Owner) => {
  const t = tableOf(kind);
  return and(eq(t.workspaceId, o.workspaceId), eq(t.assistantId, o.assistantId));
};

/** Oldest first, as they were written (the order rules are listed in a model's instructions). */
export async function listItems<K extends ItemKind>(
  db: Executor,
  kind: K,
  owner: Owner,
  page: { limit: number; offset: number },
): Promise<{ rows: ItemRow<K>[]; total: number }> {
  const t = tableOf(kind);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(t)
      .where(owned(kind, owner))
      .orderBy(asc(t.createdAt), asc(t.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(t).where(owned(kind, owner)),
  ]);
  return { rows: rows as ItemRow<K>[], total: total?.n ?? 0 };
}

/** Every row of an assistant, oldest first (steering decisions and test runs read them whole). */
export async function allItems<K extends ItemKind>(
  db: Executor,
  kind: K,
  owner: Owner,
): Promise<ItemRow<K>[]> {
  const t = tableOf(kind);
  const rows = await db.select().from(t).where(owned(kind, owner)).orderBy(asc(t.createdAt), asc(t.id));
  return rows as ItemRow<K>[];
}

export async function findItem<K extends ItemKind>(
  db: Executor,
  kind: K,
  owner: Owner,
  id: string,
): Promise<ItemRow<K> | undefined> {
  const t = tableOf(kind);
  const [row] = await db
    .select()
    .from(t)
    .where(and(eq(t.id, id), owned(kind, owner)))
    .limit(1);
  return row as ItemRow<K> | undefined;
}

export async function countItems(db: Executor, kind: ItemKind, owner: Owner): Promise<number> {
  const [row] = await db.select({ n: count() }).from(tableOf(kind)).where(owned(kind, owner));
  return row?.n ?? 0;
}

/** Serialises the limit check and the insert of one assistant's rows of a kind until the transaction ends. */
export async function lockItems(tx: Executor, kind: ItemKind, owner: Owner) {
  const key = `steering:${kind}:${owner.workspaceId}:${owner.assistantId}`;
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${key}))`);
}

export async function insertItem<K extends ItemKind>(
  db: Executor,
  kind: K,
  row: ItemInsert<K>,
): Promise<ItemRow<K>> {
  const [created] = await db
    .insert(tableOf(kind))
    .values(row as ItemInsert<'guidance'>)
    .returning();
  return created as ItemRow<K>;
}

export async function updateItem<K extends ItemKind>(
  db: Executor,
  kind: K,
  owner: Owner,
  id: string,
  patch: Partial<ItemInsert<K>>,
): Promise<ItemRow<K> | undefined> {
  const t = tableOf(kind);
  const [row] = await db
    .update(t)
    .set({ ...(patch as Partial<ItemInsert<'guidance'>>), updatedAt: sql`now()` })
    .where(and(eq(t.id, id), owned(kind, owner)))
    .returning();
  return row as ItemRow<K> | undefined;
}

export async function deleteItem(db: Executor, kind: ItemKind, owner: Owner, id: string): Promise<boolean> {
  const t = tableOf(kind);
  const gone = await db
    .delete(t)
    .where(and(eq(t.id, id), owned(kind, owner)))
    .returning({ id: t.id });
  return gone.length > 0;
}

/** Tells every process that the assistant's rules or answers changed (steering.cache.ts). */
export async function bumpSteeringVersion(db: Executor, owner: Owner): Promise<void> {
  await db
    .update(assistants)
    .set({ steeringVersion: sql`${assistants.steeringVersion} + 1` })
    .where(and(eq(assistants.id, owner.assistantId), eq(assistants.workspaceId, owner.workspaceId)));
}

/** Counts a curated answer's use (never for a test run's reply). */
export async function countAnswerUse(db: Executor, owner: Owner, id: string): Promise<void> {
  await db
    .update(curatedAnswers)
    .set({ usedCount: sql`${curatedAnswers.usedCount} + 1` })
    .where(and(eq(curatedAnswers.id, id), owned('answers', owner)));
}
