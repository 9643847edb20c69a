import type { WidgetStringOverrides } from '@parley/contract/widget-strings/index';
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { assistants } from './assistants.ts';
import { ts } from './columns.ts';
import { conversations, messages } from './conversations.ts';
import { contacts } from './crm.ts';
import { assistantRef, workspaceRef } from './refs.ts';

/**
 * The widget configuration of an assistant (docs/widget.md "Embedding and configuration"). `isEnabled` is
 * Form A's flag and Form B's `widgetEnabled` (docs/api.md "Form A and Form B"). A missing row means the
 * defaults (disabled).
 */
export const widgetConfigs = pgTable('widget_configs', {
  assistantId: text('assistant_id')
    .primaryKey()
    .references(() => assistants.id, { onDelete: 'cascade' }),
  workspaceId: workspaceRef(),
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
  /** The owner's overrides of the widget's strings, per language (docs/languages.md "Widget"). */
  strings: jsonb('strings').$type<WidgetStringOverrides>().notNull().default({}),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export type WidgetSessionStatus = 'active' | 'ended';

/**
 * A visitor's widget session (docs/widget.md). The token is stored only as
 * its SHA-256; the conversation is created with the first message, so page views that never chat
 * leave no conversation behind.
 */
export const widgetSessions = pgTable(
  'widget_sessions',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceRef(),
    assistantId: assistantRef(),
    conversationId: text('conversation_id').references(() => conversations.id, { onDelete: 'set null' }),
    contactId: text('contact_id').references(() => contacts.id, { onDelete: 'set null' }),
    tokenHash: text('token_hash').notNull(),
    status: text('status').$type<WidgetSessionStatus>().notNull().default('active'),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    lastActivityAt: ts('last_activity_at').notNull().defaultNow(),
    endedAt: ts('ended_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('widget_sessions_token_uq').on(t.tokenHash),
    index('widget_sessions_assistant_idx').on(t.assistantId, t.createdAt),
    index('widget_sessions_active_idx').on(t.lastActivityAt).where(sql`status = 'active'`),
    // A member closing a conversation from the inbox ends its session (docs/inbox.md "States").
    index('widget_sessions_conversation_idx').on(t.conversationId),
  ],
);

/**
 * Thumbs up or down from a visitor, optionally on one assistant message
 * (docs/widget.md "Leads and feedback").
 */
export const widgetFeedback = pgTable(
  'widget_feedback',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceRef(),
    sessionId: text('session_id')
      .notNull()
      .references(() => widgetSessions.id, { onDelete: 'cascade' }),
    messageId: text('message_id').references(() => messages.id, { onDelete: 'set null' }),
    rating: text('rating').$type<'up' | 'down'>().notNull(),
    comment: text('comment'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('widget_feedback_session_idx').on(t.sessionId)],
);

/** Widget messages per assistant per UTC day: the plan's daily quota (docs/widget.md "Limits"). */
export const widgetUsage = pgTable(
  'widget_usage',
  {
    assistantId: assistantRef(),
    day: text('day').notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.assistantId, t.day] })],
);
