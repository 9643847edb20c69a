import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { assistants } from './assistants.ts';
import { bytea, ts } from './columns.ts';
import { conversations, messages } from './conversations.ts';
import { assistantRef, workspaceRef } from './refs.ts';

export type EmailInboundMode = 'imap' | 'forward';
export type EmailStatusState = 'ok' | 'error';

/**
 * An assistant's email channel (docs/email.md "Configuration"). Passwords and the forwarding
 * token are stored only encrypted (AES-256-GCM with ENCRYPTION_KEY); the token is found by its
 * SHA-256. An address belongs to one assistant across the server.
 */
export const emailConfigs = pgTable(
  'email_configs',
  {
    assistantId: text('assistant_id')
      .primaryKey()
      .references(() => assistants.id, { onDelete: 'cascade' }),
    workspaceId: workspaceRef(),
    address: text('address').notNull(),
    displayName: text('display_name').notNull(),
    inboundMode: text('inbound_mode').$type<EmailInboundMode>().notNull(),
    imapHost: text('imap_host'),
    imapPort: integer('imap_port'),
    imapSecure: boolean('imap_secure'),
    imapUsername: text('imap_username'),
    imapPasswordSealed: text('imap_password_sealed'),
    imapMailbox: text('imap_mailbox'),
    forwardTokenSealed: text('forward_token_sealed').notNull(),
    forwardTokenHash: text('forward_token_hash').notNull(),
    smtpHost: text('smtp_host'),
    smtpPort: integer('smtp_port'),
    smtpSecure: boolean('smtp_secure'),
    smtpUsername: text('smtp_username'),
    smtpPasswordSealed: text('smtp_password_sealed'),
    aiReplies: boolean('ai_replies').notNull().default(true),
    signature: text('signature').notNull().default(''),
    isEnabled: boolean('is_enabled').notNull().default(true),
    enableContactMatching: boolean('enable_contact_matching').notNull().default(true),
    autoCreateContacts: boolean('auto_create_contacts').notNull().default(true),
    statusState: text('status_state').$type<EmailStatusState>().notNull().default('ok'),
    statusMessage: text('status_message').notNull().default('Not checked yet'),
    statusCheckedAt: ts('status_checked_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('email_configs_address_uq').on(t.address),
    uniqueIndex('email_configs_forward_token_uq').on(t.forwardTokenHash),
    index('email_configs_workspace_idx').on(t.workspaceId),
  ],
);

export type EmailInboundState = 'pending' | 'done';

/**
 * A message as received (forwarded or fetched by IMAP), its raw source kept. Stored once per
 * Message-ID and channel: the unique index decides between processes racing to store it.
 */
export const emailInbound = pgTable(
  'email_inbound',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceRef(),
    assistantId: assistantRef(),
    messageIdHeader: text('message_id_header').notNull(),
    source: text('source').$type<'imap' | 'forward'>().notNull(),
    raw: bytea('raw').notNull(),
    size: integer('size').notNull(),
    state: text('state').$type<EmailInboundState>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    leaseUntil: ts('lease_until'),
    error: text('error'),
    messageId: text('message_id'),
    receivedAt: ts('received_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('email_inbound_message_uq').on(t.assistantId, t.messageIdHeader),
    index('email_inbound_due_idx').on(t.receivedAt).where(sql`state <> 'done'`),
  ],
);

export type EmailAuthResult = { spf: string; dkim: string; dmarc: string };
export type EmailMailbox = { address: string; name: string };
export type EmailDeliveryState = 'pending' | 'sent' | 'failed';

/**
 * The email side of a message of an email conversation (docs/email.md "In the inbox"): headers
 * for threading, the sanitised HTML, the authentication result, and for an outbound one its
 * sending state (the `email-send` job).
 */
export const emailMessages = pgTable(
  'email_messages',
  {
    messageId: text('message_id')
      .primaryKey()
      .references(() => messages.id, { onDelete: 'cascade' }),
    workspaceId: workspaceRef(),
    assistantId: assistantRef(),
    conversationId: text('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    direction: text('direction').$type<'inbound' | 'outbound'>().notNull(),
    messageIdHeader: text('message_id_header').notNull(),
    inReplyTo: text('in_reply_to'),
    references: jsonb('references').$type<string[]>().notNull().default([]),
    subject: text('subject').notNull().default(''),
    fromAddress: text('from_address').notNull(),
    fromName: text('from_name').notNull().default(''),
    to: jsonb('to').$type<EmailMailbox[]>().notNull().default([]),
    cc: jsonb('cc').$type<EmailMailbox[]>().notNull().default([]),
    html: text('html'),
    auth: jsonb('auth').$type<EmailAuthResult>(),
    marked: boolean('marked').notNull().default(false),
    notAnswered: text('not_answered'),
    /** The AI wrote it (counted for the replies-per-sender limit). */
    byAi: boolean('by_ai').notNull().default(false),
    deliveryState: text('delivery_state').$type<EmailDeliveryState>(),
    deliveryError: text('delivery_error'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at'),
    inboundId: text('inbound_id').references(() => emailInbound.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('email_messages_thread_idx').on(t.assistantId, t.messageIdHeader),
    index('email_messages_conversation_idx').on(t.conversationId),
    // The AI's replies to one address (the per-sender limit, email.repo.ts `aiRepliesTo`).
    index('email_messages_ai_reply_idx')
      .on(t.assistantId, sql`((${t.to}->0)->>'address')`, t.createdAt)
      .where(sql`by_ai`),
    index('email_messages_due_idx').on(t.nextAttemptAt).where(sql`delivery_state = 'pending'`),
  ],
);

/** An attachment of an inbound email (docs/email.md "Attachments"): 25 MB in all per message. */
export const emailAttachments = pgTable(
  'email_attachments',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceRef(),
    messageId: text('message_id')
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    conversationId: text('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    filename: text('filename').notNull(),
    declaredType: text('declared_type').notNull(),
    detectedType: text('detected_type'),
    size: integer('size').notNull(),
    content: bytea('content').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('email_attachments_message_idx').on(t.messageId)],
);

export type EmailConfigRow = typeof emailConfigs.$inferSelect;
export type EmailInboundRow = typeof emailInbound.$inferSelect;
export type EmailMessageRow = typeof emailMessages.$inferSelect;
export type EmailAttachmentRow = typeof emailAttachments.$inferSelect;
