import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { ts } from './columns.ts';
import { workspaceRef } from './refs.ts';
import type { LabelRef } from './team.ts';

export type TicketStatus = 'open' | 'pending' | 'resolved' | 'closed';
export type TicketPriority = 'low' | 'medium' | 'high' | 'urgent';

/**
 * CRM contact (docs/contacts-and-tickets.md "Contacts"): email (case-insensitive) and E.164 phone unique per
 * workspace.
 */
export const contacts = pgTable(
  'contacts',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceRef(),
    name: text('name'),
    email: text('email'),
    phone: text('phone'),
    customFields: jsonb('custom_fields').$type<Record<string, unknown>>().notNull().default({}),
    source: text('source').notNull().default('api'),
    /** Its labels (docs/labels.md), kept here so every shape and event carries them. */
    labels: jsonb('labels').$type<LabelRef[]>().notNull().default(sql`'[]'::jsonb`),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('contacts_workspace_idx').on(t.workspaceId, t.createdAt),
    uniqueIndex('contacts_email_uq').on(t.workspaceId, sql`lower(${t.email})`).where(sql`email is not null`),
    uniqueIndex('contacts_phone_uq').on(t.workspaceId, t.phone).where(sql`phone is not null`),
  ],
);

/**
 * Support ticket (docs/contacts-and-tickets.md "Tickets"). `conversationId` is a plain reference: tickets
 * outlive chats.
 */
export const tickets = pgTable(
  'tickets',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceRef(),
    subject: text('subject').notNull(),
    description: text('description').notNull().default(''),
    status: text('status').$type<TicketStatus>().notNull().default('open'),
    priority: text('priority').$type<TicketPriority>().notNull().default('medium'),
    contactId: text('contact_id').references(() => contacts.id, { onDelete: 'set null' }),
    conversationId: text('conversation_id'),
    assigneeId: text('assignee_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    resolvedAt: ts('resolved_at'),
  },
  (t) => [
    index('tickets_workspace_idx').on(t.workspaceId, t.createdAt),
    // List filters (docs/contacts-and-tickets.md "Endpoints"), and the lookups behind
    // `on delete set null` when a contact or user is deleted.
    index('tickets_workspace_status_idx').on(t.workspaceId, t.status, t.createdAt),
    index('tickets_contact_idx').on(t.contactId),
    index('tickets_assignee_idx').on(t.assigneeId),
    index('tickets_conversation_idx').on(t.conversationId),
  ],
);
