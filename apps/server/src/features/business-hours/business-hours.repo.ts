import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { businessHours } from '../../db/schema/index.ts';

export type BusinessHoursRow = typeof businessHours.$inferSelect;

/** A workspace's business hours (docs/business-hours.md): one row, or none (always open). */

export async function findBusinessHours(db: Executor, workspaceId: string) {
  const [row] = await db
    .select()
    .from(businessHours)
    .where(eq(businessHours.workspaceId, workspaceId))
    .limit(1);
  return row;
}

/** Creates or replaces the workspace's row. */
export async function saveBusinessHours(
  db: Executor,
  workspaceId: string,
  values: Omit<typeof businessHours.$inferInsert, 'workspaceId'>,
) {
  const [row] = await db
    .insert(businessHours)
    .values({ ...values, workspaceId })
    .onConflictDoUpdate({ target: businessHours.workspaceId, set: values })
    .returning();
  return row as BusinessHoursRow;
}

export async function deleteBusinessHours(db: Executor, workspaceId: string) {
  await db.delete(businessHours).where(eq(businessHours.workspaceId, workspaceId));
}
