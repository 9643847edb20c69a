import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';
import { workspaceRef } from './refs.ts';

/**
 * The outbox (docs/webhooks.md "How events are recorded"): one row per happening, written in the same
 * transaction as the change that caused it. `type` is the internal (Form A) name; Form B names are mapped on
 * delivery.
 */
export const events = pgTable(
  'events',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceRef(),
    type: text('type').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    dispatchedAt: ts('dispatched_at'),
  },
  (t) => [
    index('events_workspace_idx').on(t.workspaceId, t.createdAt),
    // Partial: the dispatcher scans only undispatched rows, however long the history grows.
    index('events_undispatched_idx').on(t.createdAt).where(sql`dispatched_at is null`),
  ],
);
