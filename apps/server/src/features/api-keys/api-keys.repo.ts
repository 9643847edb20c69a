import { and, count, desc, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { apiKeys } from '../../db/schema/index.ts';

export type ApiKeyRow = typeof apiKeys.$inferSelect;

export async function insertApiKey(db: Executor, row: typeof apiKeys.$inferInsert): Promise<ApiKeyRow> {
  const [key] = await db.insert(apiKeys).values(row).returning();
  return key!;
}

export async function listApiKeys(db: Executor, workspaceId: string, limit: number, offset: number) {
  const where = eq(apiKeys.workspaceId, workspaceId);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(apiKeys)
      .where(where)
      .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(apiKeys).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

export async function deleteApiKey(db: Executor, workspaceId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(apiKeys)
    .where(and(eq(apiKeys.workspaceId, workspaceId), eq(apiKeys.id, id)))
    .returning({ id: apiKeys.id });
  return rows.length > 0;
}
