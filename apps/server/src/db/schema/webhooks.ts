import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';
import { events } from './events.ts';
import { workspaceRef } from './refs.ts';

export type WebhookFormat = 'A' | 'B';
export type DeliveryStatus = 'pending' | 'success' | 'failed';

/**
 * Webhooks (docs/webhooks.md; docs/api.md "Form A and Form B": `format` is fixed by the endpoint family that
 * created it). The secret is stored AES-GCM encrypted: deliveries need it in clear to sign.
 */
export const webhooks = pgTable(
  'webhooks',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceRef(),
    format: text('format').$type<WebhookFormat>().notNull(),
    url: text('url').notNull(),
    events: text('events').array().notNull(),
    secretEnc: text('secret_enc').notNull(),
    active: boolean('active').notNull().default(true),
    disabledAt: ts('disabled_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('webhooks_workspace_idx').on(t.workspaceId, t.format, t.createdAt)],
);

/**
 * One event to one webhook (docs/webhooks.md "Delivery, retries and replay"). This table is also the delivery
 * queue: a pending row whose `next_attempt_at` has come is claimed with FOR UPDATE SKIP LOCKED and leased
 * until `locked_until`, so a crashed worker's claim expires and another process retries it.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceRef(),
    webhookId: text('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    eventId: text('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    /** The event name in the webhook's own format. */
    event: text('event').notNull(),
    status: text('status').$type<DeliveryStatus>().notNull().default('pending'),
    attempt: integer('attempt').notNull().default(0),
    /** Attempts this delivery may reach before it ends `failed` (a manual retry allows one more). */
    maxAttempts: integer('max_attempts').notNull(),
    statusCode: integer('status_code'),
    durationMs: integer('duration_ms'),
    lastError: text('last_error'),
    nextAttemptAt: ts('next_attempt_at'),
    lockedUntil: ts('locked_until'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_event_webhook_uq').on(t.eventId, t.webhookId),
    index('webhook_deliveries_list_idx').on(t.webhookId, t.createdAt, t.id),
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`status = 'pending'`),
  ],
);

/**
 * Failed attempts of the current streak (docs/webhooks.md "Auto-disable": older than 7 days drop out of the
 * count).
 */
export const webhookFailures = pgTable(
  'webhook_failures',
  {
    id: text('id').primaryKey(),
    webhookId: text('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    at: ts('at').notNull(),
  },
  (t) => [index('webhook_failures_webhook_idx').on(t.webhookId, t.at)],
);
