import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';
import { workspaceRef } from './refs.ts';
import { workspaces } from './workspaces.ts';

/** A reply typed once and reused (docs/canned-responses.md). */
export const cannedResponses = pgTable(
  'canned_responses',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceRef(),
    shortcut: text('shortcut').notNull(),
    title: text('title').notNull(),
    content: text('content').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('canned_responses_shortcut_idx').on(t.workspaceId, t.shortcut)],
);

/** A label on a conversation or a contact, as their rows keep it (docs/labels.md). */
export type LabelRef = { id: string; name: string; color: string };

/** A workspace's label (docs/labels.md). */
export const labels = pgTable(
  'labels',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceRef(),
    name: text('name').notNull(),
    color: text('color').notNull(),
    description: text('description').notNull().default(''),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('labels_name_idx').on(t.workspaceId, sql`lower(${t.name})`)],
);

/** A workspace's inbox settings (docs/inbox.md "Auto-assignment"); no row: the defaults. */
export const inboxSettings = pgTable('inbox_settings', {
  workspaceId: text('workspace_id')
    .primaryKey()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  autoAssign: boolean('auto_assign').notNull().default(false),
  maxOpenPerAgent: integer('max_open_per_agent').notNull().default(10),
  /** The satisfaction survey after a person's conversation closes (docs/csat.md). */
  csatEnabled: boolean('csat_enabled').notNull().default(false),
  csatQuestion: text('csat_question').notNull().default('How would you rate the help you received?'),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/** One opening of a day, local time "HH:MM". */
export type OpeningRange = { open: string; close: string };
export type Weekday = 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun';

/** When a workspace's team answers (docs/business-hours.md); no row: always open. */
export const businessHours = pgTable('business_hours', {
  workspaceId: text('workspace_id')
    .primaryKey()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  timezone: text('timezone').notNull(),
  week: jsonb('week').$type<Record<Weekday, OpeningRange[]>>().notNull(),
  holidays: jsonb('holidays').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
  outsideHoursMessage: text('outside_hours_message').notNull(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export type SlaKind = 'first_response' | 'next_response' | 'resolution';
export type SlaBreach = { kind: SlaKind; at: string };
export type SlaAppliesTo = { channels?: Array<'chat' | 'widget' | 'sms' | 'email'>; labelIds?: string[] };

/** A workspace's service-level targets (docs/sla.md). */
export const slaPolicies = pgTable(
  'sla_policies',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceRef(),
    name: text('name').notNull(),
    firstResponseMinutes: integer('first_response_minutes'),
    nextResponseMinutes: integer('next_response_minutes'),
    resolutionMinutes: integer('resolution_minutes'),
    businessHoursOnly: boolean('business_hours_only').notNull().default(true),
    appliesTo: jsonb('applies_to').$type<SlaAppliesTo>().notNull().default(sql`'{}'::jsonb`),
    priority: integer('priority').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('sla_policies_workspace_idx').on(t.workspaceId, t.priority)],
);
