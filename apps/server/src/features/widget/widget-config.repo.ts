import { and, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { widgetConfigs } from '../../db/schema/index.ts';

/**
 * `isEnabled` per assistant; a missing config row means disabled
 * (docs/widget.md "Embedding and configuration").
 */
export async function widgetEnabledMap(db: Executor, assistantIds: string[]): Promise<Map<string, boolean>> {
  if (assistantIds.length === 0) return new Map();
  const rows = await db
    .select({ assistantId: widgetConfigs.assistantId, isEnabled: widgetConfigs.isEnabled })
    .from(widgetConfigs)
    .where(inArray(widgetConfigs.assistantId, assistantIds));
  return new Map(rows.map((r) => [r.assistantId, r.isEnabled]));
}

export async function setWidgetEnabled(
  db: Executor,
  workspaceId: string,
  assistantId: string,
  isEnabled: boolean,
  at: Date,
) {
  await db
    .insert(widgetConfigs)
    .values({ assistantId, workspaceId, isEnabled, createdAt: at, updatedAt: at })
    .onConflictDoUpdate({ target: widgetConfigs.assistantId, set: { isEnabled, updatedAt: at } });
}

export async function findWidgetConfig(db: Executor, workspaceId: string, assistantId: string) {
  const [row] = await db
    .select()
    .from(widgetConfigs)
    .where(and(eq(widgetConfigs.assistantId, assistantId), eq(widgetConfigs.workspaceId, workspaceId)))
    .limit(1);
  return row;
}

export type WidgetConfigPatch = Partial<
  Omit<typeof widgetConfigs.$inferInsert, 'assistantId' | 'workspaceId' | 'createdAt' | 'updatedAt'>
>;

/**
 * Creates the configuration with the defaults plus `patch`, or applies `patch` to it
 * (docs/widget.md "Embedding and configuration").
 */
export async function upsertWidgetConfig(
  db: Executor,
  workspaceId: string,
  assistantId: string,
  patch: WidgetConfigPatch,
  at: Date,
) {
  const [row] = await db
    .insert(widgetConfigs)
    .values({ ...patch, assistantId, workspaceId, createdAt: at, updatedAt: at })
    .onConflictDoUpdate({ target: widgetConfigs.assistantId, set: { ...patch, updatedAt: at } })
    .returning();
  return row!;
}
