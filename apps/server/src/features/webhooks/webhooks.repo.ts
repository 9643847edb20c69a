import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import {
  memberships,
  type WebhookFormat,
  webhookDeliveries,
  webhookFailures,
  webhooks,
} from '../../db/schema/index.ts';
import type { CursorKey } from '../../http/pagination.ts';

export type WebhookRow = typeof webhooks.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;

export async function insertWebhook(db: Executor, row: typeof webhooks.$inferInsert): Promise<WebhookRow> {
  const [created] = await db.insert(webhooks).values(row).returning();
  return created!;
}

export async function listWebhooks(
  db: Executor,
  workspaceId: string,
  format: WebhookFormat,
  page: { limit: number; offset: number },
) {
  const where = and(eq(webhooks.workspaceId, workspaceId), eq(webhooks.format, format));
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(webhooks)
      .where(where)
      .orderBy(desc(webhooks.createdAt), desc(webhooks.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(webhooks).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

export async function findWebhook(db: Executor, workspaceId: string, format: WebhookFormat, id: string) {
  const [row] = await db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.workspaceId, workspaceId), eq(webhooks.format, format), eq(webhooks.id, id)))
    .limit(1);
  return row;
}

/** Form B addresses a webhook by id alone: it is found only among the user's workspaces. */
export async function findWebhookOfMember(db: Executor, format: WebhookFormat, id: string, userId: string) {
  const [row] = await db
    .select()
    .from(webhooks)
    .where(
      and(
        eq(webhooks.format, format),
        eq(webhooks.id, id),
        inArray(
          webhooks.workspaceId,
          db.select({ id: memberships.workspaceId }).from(memberships).where(eq(memberships.userId, userId)),
        ),
      ),
    )
    .limit(1);
  return row;
}

export async function updateWebhook(
  db: Executor,
  workspaceId: string,
  id: string,
  patch: Partial<typeof webhooks.$inferInsert>,
): Promise<WebhookRow | undefined> {
  const [row] = await db
    .update(webhooks)
    .set(patch)
    .where(and(eq(webhooks.workspaceId, workspaceId), eq(webhooks.id, id)))
    .returning();
  return row;
}

/** Deleting the webhook cascades to its deliveries and failure streak (docs/webhooks.md). */
export async function deleteWebhook(db: Executor, workspaceId: string, id: string) {
  await db.delete(webhooks).where(and(eq(webhooks.workspaceId, workspaceId), eq(webhooks.id, id)));
}

export async function resetFailures(db: Executor, webhookId: string) {
  await db.delete(webhookFailures).where(eq(webhookFailures.webhookId, webhookId));
}

/** An inactive webhook's pending retries end as `failed` (docs/webhooks.md "Auto-disable"). */
export async function failPendingDeliveries(db: Executor, workspaceId: string, webhookId: string, at: Date) {
  await db
    .update(webhookDeliveries)
    .set({
      status: 'failed',
      nextAttemptAt: null,
      lockedUntil: null,
      lastError: 'Webhook is inactive',
      updatedAt: at,
    })
    .where(
      and(
        eq(webhookDeliveries.workspaceId, workspaceId),
        eq(webhookDeliveries.webhookId, webhookId),
        eq(webhookDeliveries.status, 'pending'),
      ),
    );
}

/** Newest first, keyset on (created_at, id). */
export async function listDeliveries(
  db: Executor,
  workspaceId: string,
  webhookId: string,
  limit: number,
  after: CursorKey | undefined,
) {
  const conds = [eq(webhookDeliveries.workspaceId, workspaceId), eq(webhookDeliveries.webhookId, webhookId)];
  if (after) {
    conds.push(
      sql`(${webhookDeliveries.createdAt}, ${webhookDeliveries.id}) < (${new Date(after.t).toISOString()}::timestamptz, ${after.id})`,
    );
  }
  return db
    .select()
    .from(webhookDeliveries)
    .where(and(...conds))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(limit + 1);
}

export async function findDelivery(db: Executor, workspaceId: string, webhookId: string, id: string) {
  const [row] = await db
    .select()
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.workspaceId, workspaceId),
        eq(webhookDeliveries.webhookId, webhookId),
        eq(webhookDeliveries.id, id),
      ),
    )
    .limit(1);
  return row;
}

/**
 * Manual retry (docs/webhooks.md "Delivery, retries and replay"): a final delivery gets exactly one new
 * attempt, now.
 */
export async function requeueDelivery(db: Executor, workspaceId: string, id: string, at: Date) {
  const [row] = await db
    .update(webhookDeliveries)
    .set({
      status: 'pending',
      maxAttempts: sql`${webhookDeliveries.attempt} + 1`,
      nextAttemptAt: at,
      lockedUntil: null,
      updatedAt: at,
    })
    .where(
      and(
        eq(webhookDeliveries.workspaceId, workspaceId),
        eq(webhookDeliveries.id, id),
        inArray(webhookDeliveries.status, ['success', 'failed']),
      ),
    )
    .returning();
  return row;
}
