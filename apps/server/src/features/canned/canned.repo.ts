import { and, asc, count, eq, ilike, or, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { cannedResponses } from '../../db/schema/index.ts';

export type CannedRow = typeof cannedResponses.$inferSelect;

/** A workspace's canned responses (docs/canned-responses.md). Every query filters by workspace. */

export async function insertCanned(db: Executor, row: typeof cannedResponses.$inferInsert) {
  const [created] = await db.insert(cannedResponses).values(row).returning();
  return created as CannedRow;
}

export async function findCanned(db: Executor, workspaceId: string, id: string) {
  const [row] = await db
    .select()
    .from(cannedResponses)
    .where(and(eq(cannedResponses.workspaceId, workspaceId), eq(cannedResponses.id, id)))
    .limit(1);
  return row;
}

/** `%`, `_` and `\` in a search are themselves, not patterns. */
const literal = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** By shortcut; `q` matches shortcut or title, any case. */
export async function listCanned(
  db: Executor,
  workspaceId: string,
  q: string | undefined,
  page: { limit: number; offset: number },
) {
  const conds: SQL[] = [eq(cannedResponses.workspaceId, workspaceId)];
  if (q) {
    const like = literal(q);
    conds.push(or(ilike(cannedResponses.shortcut, like), ilike(cannedResponses.title, like)) as SQL);
  }
  const where = and(...conds);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(cannedResponses)
      .where(where)
      .orderBy(asc(cannedResponses.shortcut))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(cannedResponses).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

export async function updateCanned(
  db: Executor,
  workspaceId: string,
  id: string,
  patch: Partial<Pick<CannedRow, 'shortcut' | 'title' | 'content'>> & { updatedAt: Date },
) {
  const [row] = await db
    .update(cannedResponses)
    .set(patch)
    .where(and(eq(cannedResponses.workspaceId, workspaceId), eq(cannedResponses.id, id)))
    .returning();
  return row;
}

export async function deleteCanned(db: Executor, workspaceId: string, id: string) {
  await db
    .delete(cannedResponses)
    .where(and(eq(cannedResponses.workspaceId, workspaceId), eq(cannedResponses.id, id)));
}
