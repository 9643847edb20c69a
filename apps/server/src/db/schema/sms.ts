import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { assistants } from './assistants.ts';
import { ts } from './columns.ts';
import { conversations, messages } from './conversations.ts';
import { contacts } from './crm.ts';
import { assistantRef, workspaceRef } from './refs.ts';

/**
 * An assistant's SMS configuration (docs/sms.md "Configuration"): one record behind Form A and
 * Form B, holding the union of their fields. The provider's auth token is stored only encrypted
 * (AES-256-GCM with ENCRYPTION_KEY). A number belongs to one assistant at most.
 */
export const smsConfigs = pgTable(
  'sms_configs',
  {
    assistantId: text('assistant_id')
      .primaryKey()
      .references(() => assistants.id, { onDelete: 'cascade' }),
    workspaceId: workspaceRef(),
    accountSid: text('account_sid').notNull(),
    authTokenSealed: text('auth_token_sealed').notNull(),
    phoneNumber: text('phone_number').notNull(),
    isEnabled: boolean('is_enabled').notNull().default(true),
    maxMessageLength: integer('max_message_length').notNull().default(1600),
    enableContactMatching: boolean('enable_contact_matching').notNull().default(true),
    autoCreateContacts: boolean('auto_create_contacts').notNull().default(true),
    sessionTimeoutMinutes: integer('session_timeout_minutes').notNull().default(30),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('sms_configs_phone_uq').on(t.phoneNumber)],
);

export type SmsSessionStatus = 'active' | 'ended';

/**
 * One customer's SMS session with an assistant (docs/sms.md "Sessions"): at most one active per
 * number and assistant; it ends after `sessionTimeoutMinutes` of silence.
 */
export const smsSessions = pgTable(
  'sms_sessions',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceRef(),
    assistantId: assistantRef(),
    conversationId: text('conversation_id').references(() => conversations.id, { onDelete: 'cascade' }),
    contactId: text('contact_id').references(() => contacts.id, { onDelete: 'set null' }),
    phoneNumber: text('phone_number').notNull(),
    status: text('status').$type<SmsSessionStatus>().notNull().default('active'),
    messageCount: integer('message_count').notNull().default(0),
    startedAt: ts('started_at').notNull().defaultNow(),
    lastMessageAt: ts('last_message_at').notNull().defaultNow(),
    endedAt: ts('ended_at'),
  },
  (t) => [
    uniqueIndex('sms_sessions_active_uq').on(t.assistantId, t.phoneNumber).where(sql`status = 'active'`),
    index('sms_sessions_assistant_idx').on(t.assistantId, t.lastMessageAt.desc(), t.id.desc()),
    index('sms_sessions_idle_idx').on(t.lastMessageAt).where(sql`status = 'active'`),
    index('sms_sessions_conversation_idx').on(t.conversationId),
  ],
);

/** `pending` → `stored` (the customer's message is in the conversation) → `done` (answered or not). */
export type SmsInboundState = 'pending' | 'stored' | 'done';

/**
 * Inbound messages as the provider delivered them, stored before the acknowledgement
 * (docs/sms.md "Inbound messages"): the queue the `sms-inbound` job answers from. The provider's
 * message id is unique per assistant, so a repeated delivery is stored and answered once.
 */
export const smsInbound = pgTable(
  'sms_inbound',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceRef(),
    assistantId: assistantRef(),
    providerSid: text('provider_sid').notNull(),
    fromNumber: text('from_number').notNull(),
    toNumber: text('to_number').notNull(),
    body: text('body').notNull(),
    /** The public base URL the request was signed for: the reply's status callback uses it. */
    publicBase: text('public_base').notNull(),
    state: text('state').$type<SmsInboundState>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    leaseUntil: ts('lease_until'),
    conversationId: text('conversation_id'),
    messageId: text('message_id'),
    replyMessageId: text('reply_message_id'),
    /** The credit reserved for the reply (credits.service.ts Reservation), kept for a retry. */
    reservation: jsonb('reservation').$type<{
      workspaceId: string;
      periodStart: string;
      used: number;
      limit: number;
    }>(),
    receivedAt: ts('received_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('sms_inbound_provider_uq').on(t.assistantId, t.providerSid),
    index('sms_inbound_open_idx')
      .on(t.assistantId, t.fromNumber, t.receivedAt, t.id)
      .where(sql`state <> 'done'`),
    index('sms_inbound_due_idx').on(t.receivedAt).where(sql`state <> 'done'`),
  ],
);

export type SmsDeliveryStatus = 'queued' | 'sent' | 'delivered' | 'undelivered' | 'failed';
/** Our side of sending: `pending` (to send or retry), `sent` (the provider took it), `failed`. */
export type SmsSendState = 'pending' | 'sent' | 'failed';

/**
 * An outbound SMS: one per AI or agent message in an SMS conversation (docs/sms.md "Replies and
 * delivery status"). It is also the send queue (`sms-send` job). `deliveryStatus` only moves
 * forward; a failure is never overwritten by a later success.
 */
export const smsOutbound = pgTable(
  'sms_outbound',
  {
    messageId: text('message_id')
      .primaryKey()
      .references(() => messages.id, { onDelete: 'cascade' }),
    workspaceId: workspaceRef(),
    assistantId: assistantRef(),
    toNumber: text('to_number').notNull(),
    body: text('body').notNull(),
    statusCallback: text('status_callback').notNull(),
    state: text('state').$type<SmsSendState>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    providerSid: text('provider_sid'),
    deliveryStatus: text('delivery_status').$type<SmsDeliveryStatus>(),
    errorCode: text('error_code'),
    lastError: text('last_error'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('sms_outbound_provider_uq').on(t.assistantId, t.providerSid),
    index('sms_outbound_due_idx').on(t.nextAttemptAt).where(sql`state = 'pending'`),
  ],
);

/**
 * Every signed status callback, as received (docs/sms.md "Replies and delivery status"): a
 * callback may arrive before the send's answer told us the provider's id; recording the id then
 * applies what had arrived.
 */
export const smsStatusEvents = pgTable(
  'sms_status_events',
  {
    id: text('id').primaryKey(),
    assistantId: assistantRef(),
    providerSid: text('provider_sid').notNull(),
    status: text('status').notNull(),
    errorCode: text('error_code'),
    receivedAt: ts('received_at').notNull().defaultNow(),
  },
  (t) => [index('sms_status_events_sid_idx').on(t.assistantId, t.providerSid)],
);
