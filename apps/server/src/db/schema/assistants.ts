import { index, integer, pgTable, primaryKey, real, text } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { ts } from './columns.ts';
import { workspaces } from './workspaces.ts';

export type Visibility = 'private' | 'workspace' | 'public';

/** The assistant record (docs/assistants.md "Fields"). */
export const assistants = pgTable(
  'assistants',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    instructions: text('instructions').notNull().default(''),
    visibility: text('visibility').$type<Visibility>().notNull().default('workspace'),
    temperature: real('temperature').notNull().default(0.7),
    maxTokens: integer('max_tokens').notNull().default(4096),
    welcomeMessage: text('welcome_message'),
    /**
     * Bumped by every change of its guidance rules or curated answers: a process keeps them in
     * memory under this number (steering/steering.cache.ts) and reads them again when it moves.
     */
    steeringVersion: integer('steering_version').notNull().default(0),
    /** Replies below it are withheld and handed to a person (docs/measuring.md "Confidence"); 0 = off. */
    minConfidence: real('min_confidence').notNull().default(0),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('assistants_workspace_idx').on(t.workspaceId, t.createdAt)],
);

export const assistantAccess = pgTable(
  'assistant_access',
  {
    assistantId: text('assistant_id')
      .notNull()
      .references(() => assistants.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.assistantId, t.userId] })],
);
