import { sql } from 'drizzle-orm';
import { pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { workspaces } from './workspaces.ts';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** A reply typed once and reused (docs/canned-responses.md). */
export const cannedResponses = pgTable(
  'canned_responses',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
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
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    color: text('color').notNull(),
    description: text('description').notNull().default(''),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('labels_name_idx').on(t.workspaceId, sql`lower(${t.name})`)],
);
