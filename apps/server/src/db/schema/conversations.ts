import type { ReplyOutcome } from '@parley/contract/steering';
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, real, text } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { ts } from './columns.ts';
import { contacts } from './crm.ts';
import { assistantRef, workspaceRef } from './refs.ts';
import { type LabelRef, labels, type SlaBreach, slaPolicies } from './team.ts';

export type Channel = 'chat' | 'widget' | 'sms' | 'email';
export type ConversationStatus = 'open' | 'handoff' | 'closed';
export type MessageRole = 'user' | 'assistant' | 'agent' | 'system';
/** `partial`: the client went away or the model failed mid-answer; what was generated is kept. */
export type MessageStatus = 'complete' | 'partial' | 'failed';
export type AiResolution = 'resolved' | 'unresolved';
export type HandoffReason = 'customer_asked' | 'rule' | 'low_confidence' | 'declined' | 'agent';

export type Citation = {
  index: number;
  chunkId: string;
  sourceId: string;
  title: string | null;
  url: string | null;
};
export type ToolStep = { toolCallId: string; toolName: string; args: unknown; result?: unknown };
export type Usage = { promptTokens: number; completionTokens: number };

/**
 * A conversation (docs/chat.md "Conversations and messages"). Deleting the assistant deletes its
 * conversations.
 */
export const conversations = pgTable(
  'conversations',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceRef(),
    assistantId: assistantRef(),
    channel: text('channel').$type<Channel>().notNull(),
    status: text('status').$type<ConversationStatus>().notNull().default('open'),
    contactId: text('contact_id').references(() => contacts.id, { onDelete: 'set null' }),
    assigneeId: text('assignee_id').references(() => users.id, { onDelete: 'set null' }),
    /** The member who started an internal chat; internal chats are private to them. */
    startedBy: text('started_by').references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull().default(''),
    messageCount: integer('message_count').notNull().default(0),
    lastMessageAt: ts('last_message_at'),
    /**
     * When a person was first asked for or took over (docs/inbox.md "Which conversations the inbox
     * shows": an internal chat enters the inbox then).
     */
    handedOffAt: ts('handed_off_at'),
    endedAt: ts('ended_at'),
    /** When it last entered `handoff`: auto-assignment takes the longest waiting first. */
    waitingSince: ts('waiting_since'),
    /** A person set or cleared its assignee in this handoff: auto-assignment leaves it alone. */
    assignmentHeld: boolean('assignment_held').notNull().default(false),
    /** The customer's rating, 1-5, once (docs/csat.md). */
    csatRating: integer('csat_rating'),
    csatComment: text('csat_comment'),
    csatRatedAt: ts('csat_rated_at'),
    /** When the question went out by SMS: the customer's next message within 24 hours may answer it. */
    csatAskedAt: ts('csat_asked_at'),
    /** The SLA policy chosen when it last entered handoff, and its clocks (docs/sla.md). */
    slaPolicyId: text('sla_policy_id').references(() => slaPolicies.id, { onDelete: 'set null' }),
    slaStartedAt: ts('sla_started_at'),
    slaFirstDueAt: ts('sla_first_due_at'),
    slaNextDueAt: ts('sla_next_due_at'),
    slaResolutionDueAt: ts('sla_resolution_due_at'),
    /** A person's first reply since the clock started; the customer's oldest message waiting for a reply since. */
    slaRepliedAt: ts('sla_replied_at'),
    slaWaitingSince: ts('sla_waiting_since'),
    slaBreaches: jsonb('sla_breaches').$type<SlaBreach[]>().notNull().default(sql`'[]'::jsonb`),
    /** Why it was last handed to a person (docs/steering.md "Guidance rules"); null while the AI holds it. */
    handoffReason: text('handoff_reason').$type<HandoffReason>(),
    /** The guidance rule that handed it over, when `handoffReason` is `rule`. */
    handoffRuleId: text('handoff_rule_id'),
    /** How the AI's part settled once 7 days passed after it ended (docs/measuring.md "Resolution"). */
    aiResolution: text('ai_resolution').$type<AiResolution>(),
    aiResolutionAt: ts('ai_resolution_at'),
    /** The customer's language, detected from their messages (docs/languages.md "Conversations"). */
    language: text('language'),
    /** Its labels (docs/labels.md), kept here so every shape and event carries them. */
    labels: jsonb('labels').$type<LabelRef[]>().notNull().default(sql`'[]'::jsonb`),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('conversations_workspace_idx').on(t.workspaceId, t.updatedAt),
    index('conversations_assistant_starter_idx').on(t.assistantId, t.startedBy, t.updatedAt),
    // The inbox lists newest activity first, keyset on (last_message_at, id), per filter
    // (docs/inbox.md "Listing"; bench/inbox.ts).
    index('conversations_inbox_idx').on(t.workspaceId, t.lastMessageAt.desc(), t.id.desc()),
    index('conversations_inbox_status_idx').on(t.workspaceId, t.status, t.lastMessageAt.desc(), t.id.desc()),
    index('conversations_inbox_assignee_idx').on(
      t.workspaceId,
      t.assigneeId,
      t.lastMessageAt.desc(),
      t.id.desc(),
    ),
    index('conversations_inbox_channel_idx').on(
      t.workspaceId,
      t.channel,
      t.lastMessageAt.desc(),
      t.id.desc(),
    ),
    index('conversations_inbox_language_idx').on(
      t.workspaceId,
      t.language,
      t.lastMessageAt.desc(),
      t.id.desc(),
    ),
    index('conversations_inbox_assistant_idx').on(t.assistantId, t.lastMessageAt.desc(), t.id.desc()),
    // The inbox's `sort=sla` (inbox.repo.ts `slaDueSql`).
    index('conversations_sla_due_idx').on(
      t.workspaceId,
      sql`coalesce(least(sla_first_due_at, sla_next_due_at, sla_resolution_due_at), 'infinity'::timestamptz)`,
      t.id,
    ),
    index('conversations_sla_open_idx')
      .on(t.workspaceId)
      .where(sql`sla_policy_id IS NOT NULL AND status = 'handoff'`),
    index('conversations_csat_idx').on(t.workspaceId, t.csatRatedAt).where(sql`csat_rated_at IS NOT NULL`),
    // Conversations waiting for auto-assignment, longest waiting first (docs/inbox.md "Auto-assignment").
    index('conversations_waiting_idx')
      .on(t.workspaceId, t.waitingSince, t.id)
      .where(sql`status = 'handoff' AND assignee_id IS NULL`),
  ],
);

/**
 * A conversation's labels as rows, with its `last_message_at` (docs/labels.md "Filters"): the inbox
 * list filtered by a label walks `conversation_labels_inbox_idx` in the list's order. Written only
 * by the triggers of migration 0023 from `conversations.labels` and `last_message_at`; never by
 * the application.
 */
export const conversationLabels = pgTable(
  'conversation_labels',
  {
    conversationId: text('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    labelId: text('label_id')
      .notNull()
      .references(() => labels.id, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id').notNull(),
    lastMessageAt: ts('last_message_at'),
    /** Its conversation's soonest SLA due time, 'infinity' when none runs (migration 0027's trigger). */
    slaDueAt: ts('sla_due_at').notNull().default(sql`'infinity'`),
  },
  (t) => [
    primaryKey({ columns: [t.conversationId, t.labelId] }),
    index('conversation_labels_inbox_idx').on(t.labelId, t.lastMessageAt.desc(), t.conversationId.desc()),
    index('conversation_labels_sla_idx').on(t.labelId, t.slaDueAt, t.conversationId),
  ],
);

/** Who changed a conversation: a member, the AI, the visitor, or Parley itself (inactivity). */
export type ChangeActor = 'user' | 'assistant' | 'visitor' | 'system';
export type ConversationChangeKind = 'handoff' | 'takeover' | 'release' | 'close' | 'reopen' | 'assign';

/**
 * Every status or assignee change of a conversation, with who made it (docs/inbox.md "States").
 * Written in the same transaction as the change and its `conversation.updated` or
 * `conversation.ended` event.
 */
export const conversationChanges = pgTable(
  'conversation_changes',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceRef(),
    conversationId: text('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<ConversationChangeKind>().notNull(),
    fromStatus: text('from_status').$type<ConversationStatus>().notNull(),
    status: text('status').$type<ConversationStatus>().notNull(),
    assigneeId: text('assignee_id'),
    actorType: text('actor_type').$type<ChangeActor>().notNull(),
    /** The user or assistant id (none for the visitor and the system). */
    actorId: text('actor_id'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('conversation_changes_conversation_idx').on(t.conversationId, t.createdAt)],
);

export const messages = pgTable(
  'messages',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceRef(),
    conversationId: text('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    role: text('role').$type<MessageRole>().notNull(),
    content: text('content').notNull(),
    /** A person's reply sent translated: what they wrote; `content` is what was sent (docs/languages.md "Translation"). */
    originalContent: text('original_content'),
    /** The human behind a `user` (internal chat) or `agent` message. */
    authorId: text('author_id').references(() => users.id, { onDelete: 'set null' }),
    status: text('status').$type<MessageStatus>().notNull().default('complete'),
    citations: jsonb('citations').$type<Citation[]>().notNull().default(sql`'[]'::jsonb`),
    toolCalls: jsonb('tool_calls').$type<ToolStep[]>().notNull().default(sql`'[]'::jsonb`),
    usage: jsonb('usage').$type<Usage>(),
    /** An AI reply's outcome (docs/steering.md "Outcomes"); null on other messages. */
    outcome: text('outcome').$type<ReplyOutcome>(),
    /** The curated answer an AI reply gave verbatim. */
    curatedAnswerId: text('curated_answer_id'),
    /** How well the knowledge supports an AI reply, 0 to 1 (docs/measuring.md "Confidence"); null otherwise. */
    confidence: real('confidence'),
    /** A draft held back below the assistant's minimum confidence: shown only in the inbox. */
    withheld: boolean('withheld').notNull().default(false),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('messages_conversation_idx').on(t.conversationId, t.createdAt, t.id)],
);
