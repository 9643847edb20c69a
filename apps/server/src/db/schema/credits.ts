import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';
import { workspaces } from './workspaces.ts';

/**
 * The workspace's credit counter for the current period (docs/credits.md). One row per
 * workspace, changed only by single conditional UPDATEs (features/credits), so concurrent replies
 * across processes can never spend past the limit. The alert columns hold the period start for
 * which the 80% / 100% alert was sent: once per period each.
 */
export const workspaceCredits = pgTable('workspace_credits', {
  workspaceId: text('workspace_id')
    .primaryKey()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  periodStart: ts('period_start').notNull(),
  periodEnd: ts('period_end').notNull(),
  used: integer('used').notNull().default(0),
  alert80For: ts('alert80_for'),
  alert100For: ts('alert100_for'),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
