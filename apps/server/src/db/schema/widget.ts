import { boolean, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { assistants } from './assistants.ts';
import { workspaces } from './workspaces.ts';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * The widget configuration of an assistant (decisions §8). `isEnabled` is Form A's flag and
 * Form B's `widgetEnabled` (decisions §1). A missing row means the defaults (disabled).
 */
export const widgetConfigs = pgTable('widget_configs', {
  assistantId: text('assistant_id')
    .primaryKey()
    .references(() => assistants.id, { onDelete: 'cascade' }),
  workspaceId: text('workspace_id')
    .notNull()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  isEnabled: boolean('is_enabled').notNull().default(false),
  primaryColor: text('primary_color').notNull().default('#4f46e5'),
  position: text('position').$type<'bottom-right' | 'bottom-left'>().notNull().default('bottom-right'),
  welcomeMessage: text('welcome_message'),
  allowedDomains: text('allowed_domains').array().notNull().default([]),
  leadFormEnabled: boolean('lead_form_enabled').notNull().default(false),
  leadFormFields: text('lead_form_fields').array().notNull().default([]),
  leadFormRequiredFields: text('lead_form_required_fields').array().notNull().default([]),
  sessionTimeoutMinutes: integer('session_timeout_minutes').notNull().default(30),
  extra: jsonb('extra').$type<Record<string, unknown>>().notNull().default({}),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
