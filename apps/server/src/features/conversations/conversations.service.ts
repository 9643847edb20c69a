import type { ReplyOutcome } from '@parley/contract/steering';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import type {
  Channel,
  Citation,
  MessageRole,
  MessageStatus,
  ToolStep,
  Usage,
} from '../../db/schema/index.ts';
import { conflict } from '../../http/errors.ts';
import { now } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import type { CreditClaim, Reserved } from '../credits/credits.repo.ts';
import { eventRow, recordEvent } from '../events/events.service.ts';
import { firstLanguage } from './conversation-language.ts';
import { announceToInbox } from './conversation-states.ts';
import * as repo from './conversations.repo.ts';
import { toConversation, toConversationDetail, toMessage } from './conversations.shapes.ts';
import { inInbox } from './visibility.ts';

export type { ConversationRow, Delivery, MessageRow } from './conversations.repo.ts';
// The public shapes live in conversations.shapes.ts; callers import them from here.
export { toConversation, toConversationDetail, toMessage };

export type NewConversation = {
  workspaceId: string;
  assistantId: string;
  channel: Channel;
  startedBy?: string | null;
  contactId?: string | null;
  title?: string;
};

export type NewMessage = {
  role: MessageRole;
  content: string;
  /** A person's reply sent translated: what they wrote (docs/languages.md "Translation"). */
  originalContent?: string | null;
  authorId?: string | null;
  status?: MessageStatus;
  citations?: Citation[];
  toolCalls?: ToolStep[];
  usage?: Usage | null;
  /** An AI reply's outcome, and the curated answer it gave (docs/steering.md "Outcomes"). */
  outcome?: ReplyOutcome | null;
  curatedAnswerId?: string | null;
  /** An AI reply's confidence, and whether it was withheld (docs/measuring.md "Confidence"). */
  confidence?: number | null;
  withheld?: boolean;
  /**
   * An AI reply that left a knowledge gap: the customer's question, normalised
   * (docs/analytics.md "Knowledge gaps"). Stored by appendReplyWhile only.
   */
  gapQuestion?: string | null;
};

const messageRow = (
  conversation: Pick<repo.ConversationRow, 'id' | 'workspaceId'>,
  input: NewMessage,
  at: Date,
): repo.MessageRow => ({
  id: newId('msg'),
  workspaceId: conversation.workspaceId,
  conversationId: conversation.id,
  role: input.role,
  content: input.content,
  originalContent: input.originalContent ?? null,
  authorId: input.authorId ?? null,
  status: input.status ?? 'complete',
  citations: input.citations ?? [],
  toolCalls: input.toolCalls ?? [],
  usage: input.usage ?? null,
  outcome: input.outcome ?? null,
  curatedAnswerId: input.curatedAnswerId ?? null,
  confidence: input.confidence ?? null,
  withheld: input.withheld ?? false,
  createdAt: at,
});

const messageEvent = (
  conversation: Pick<repo.ConversationRow, 'workspaceId' | 'assistantId' | 'channel'>,
  row: repo.MessageRow,
) =>
  eventRow(
    {
      workspaceId: conversation.workspaceId,
      type: 'message.created',
      data: { ...toMessage(row), assistantId: conversation.assistantId, channel: conversation.channel },
    },
    row.createdAt,
  );

/**
 * `message.updated` (docs/webhooks.md "Event names": a message's details changed, here an SMS
 * reply's delivery status): the message's public shape plus what changed, recorded in the
 * caller's transaction so the change and its event commit together.
 */
export async function recordMessageUpdated(
  db: Executor,
  messageId: string,
  changes: Record<string, unknown>,
) {
  const found = await repo.messageWithConversation(db, messageId);
  if (!found || !inInbox(found.conversation)) return;
  const { message, conversation } = found;
  await recordEvent(db, {
    workspaceId: conversation.workspaceId,
    type: 'message.updated',
    data: {
      ...toMessage(message),
      assistantId: conversation.assistantId,
      channel: conversation.channel,
      ...changes,
    },
  });
}

export type { StartTail } from './conversations.repo.ts';

/**
 * Rows made in process, and the one statement that stores them (with their events); `storeCharged`:
 * the same statement taking one credit first (a chat turn's, chat/turn.ts), storing nothing when
 * none is left (undefined back), and for a new conversation a channel's `tail` with it
 * (conversation-start.ts `StartTail`).
 */
export type Pending<C = repo.ConversationRow> = {
  conversation: C;
  message: repo.MessageRow;
  store(db: Executor): Promise<void>;
  storeCharged(db: Executor, claim: CreditClaim, tail?: repo.StartTail): Promise<Reserved | undefined>;
};

/**
 * Starts a conversation with its first message, in two steps: the rows (ids and all) now, and
 * `store`, the one statement in which both rows, `conversation.created` and `message.created`
 * commit together (the outbox, docs/webhooks.md "How events are recorded").
 */
export function prepareStart(input: NewConversation, first: NewMessage): Pending {
  const at = now();
  const conversation: repo.ConversationRow = {
    id: newId('conv'),
    workspaceId: input.workspaceId,
    assistantId: input.assistantId,
    channel: input.channel,
    status: 'open',
    contactId: input.contactId ?? null,
    assigneeId: null,
    startedBy: input.startedBy ?? null,
    title: input.title ?? '',
    messageCount: 1,
    lastMessageAt: at,
    handedOffAt: null,
    endedAt: null,
    waitingSince: null,
    assignmentHeld: false,
    csatRating: null,
    csatComment: null,
    csatRatedAt: null,
    csatAskedAt: null,
    slaPolicyId: null,
    slaStartedAt: null,
    slaFirstDueAt: null,
    slaNextDueAt: null,
    slaResolutionDueAt: null,
    slaRepliedAt: null,
    slaWaitingSince: null,
    slaBreaches: [],
    handoffReason: null,
    handoffRuleId: null,
    aiResolution: null,
    aiResolutionAt: null,
    language: firstLanguage(first),
    labels: [],
    createdAt: at,
    updatedAt: at,
  };
  const message = messageRow(conversation, first, at);
  // A new internal chat is private (visibility.ts): no event until it is handed off.
  const created = { workspaceId: conversation.workspaceId, data: toConversation(conversation) };
  const events = inInbox(conversation)
    ? [eventRow({ ...created, type: 'conversation.created' }, at), messageEvent(conversation, message)]
    : [];
  return {
    conversation,
    message,
    store: (db) => repo.insertConversationWithMessage(db, conversation, message, events),
    storeCharged: (db, claim, tail) =>
      repo.insertConversationCharged(db, conversation, message, events, claim, tail),
  };
}

/**
 * Appends a message: stores it, counts it on the conversation and records `message.created`, in
 * one statement (callers need no transaction of their own, and may run it inside one).
 */
export async function appendMessage(
  db: Executor,
  conversation: Pick<repo.ConversationRow, 'id' | 'workspaceId' | 'assistantId' | 'channel'>,
  input: NewMessage,
) {
  const pending = prepareAppend(conversation, input);
  await pending.store(db);
  return pending.message;
}

/** appendMessage in two steps, like prepareStart. */
export function prepareAppend<
  C extends Pick<repo.ConversationRow, 'id' | 'workspaceId' | 'assistantId' | 'channel'>,
>(conversation: C, input: NewMessage): Pending<C> {
  const message = messageRow(conversation, input, now());
  const event = messageEvent(conversation, message);
  return {
    conversation,
    message,
    store: (db) => repo.insertMessageCounted(db, message, event),
    storeCharged: (db, claim) => repo.insertMessageCharged(db, message, event, claim),
  };
}

export const findConversation = (ctx: AppContext, workspaceId: string, id: string) =>
  id.length <= 100 ? repo.findConversation(ctx.db, workspaceId, id) : Promise.resolve(undefined);

/** One the inbox and `/api/v1` may address (visibility.ts): a private chat is undefined, as missing. */
export const findInboxConversation = (ctx: AppContext, workspaceId: string, id: string) =>
  id.length <= 100 ? repo.findInboxConversation(ctx.db, workspaceId, id) : Promise.resolve(undefined);

export const findChatOf = (ctx: AppContext, workspaceId: string, userId: string, id: string) =>
  id.length <= 100 ? repo.findChatOf(ctx.db, workspaceId, userId, id) : Promise.resolve(undefined);
export const locateChatOf = (ctx: AppContext, userId: string, id: string) =>
  id.length <= 100 ? repo.locateChatOf(ctx.db, userId, id) : Promise.resolve(undefined);

export const setConversationStatus = repo.setConversationStatus;
export const setConversationContact = repo.setConversationContact;

/** The last messages in chronological order, cut to a token budget from the newest back (docs/chat.md). */
export async function historyWithin(
  ctx: AppContext,
  conversation: { workspaceId: string; id: string },
  tokenBudget: number,
  latest?: repo.MessageRow,
) {
  // `latest`: the turn's own message, which may not be stored yet when this runs (beginTurn reads
  // the history beside storing it); it counts first, and once only.
  const stored = await repo.recentMessages(ctx.db, conversation.workspaceId, conversation.id, 100);
  const rows = latest ? [latest, ...stored.filter((r) => r.id !== latest.id)] : stored;
  const kept: typeof rows = [];
  let spent = 0;
  for (const row of rows) {
    const cost = Math.ceil(row.content.length / 4) + 4;
    if (spent + cost > tokenBudget) break;
    spent += cost;
    kept.push(row);
  }
  return kept.reverse();
}

export const listChatConversations = repo.listChatConversations;
export const listMessages = repo.listMessages;

/** The SMS delivery of a page of messages: none to read unless the conversation is an SMS one. */
export const deliveriesFor = (
  ctx: AppContext,
  conversation: { workspaceId: string; channel: string },
  page: { id: string }[],
): Promise<Map<string, repo.Delivery>> =>
  conversation.channel === 'sms'
    ? repo.deliveriesOf(
        ctx.db,
        conversation.workspaceId,
        page.map((m) => m.id),
      )
    : Promise.resolve(new Map());

/** The live channel of a conversation (lib/fanout.ts): open widget and chat streams listen on it. */
export const conversationChannel = (conversationId: string) => `conversation:${conversationId}`;

/** The live channel of a workspace's inbox (docs/inbox.md "Live updates"). */
export const inboxChannel = (workspaceId: string) => `inbox:${workspaceId}`;

/**
 * Tells the workspace's inbox streams of a stored message (after commit, best-effort), and of the
 * conversation it started when `started`.
 */
export async function announceMessage(
  ctx: AppContext,
  conversation: repo.ConversationRow,
  message: repo.MessageRow,
  started = false,
  author?: { id: string; name: string | null; avatarUrl: string | null },
) {
  if (started) {
    await announceToInbox(ctx, conversation, {
      type: 'conversation.created',
      conversation: toConversationDetail(conversation),
    });
  }
  await announceToInbox(ctx, conversation, {
    type: 'message.created',
    conversationId: conversation.id,
    message: { ...toMessage(message), author: author ?? null },
  });
}

/**
 * Stores an AI reply only while the conversation is still in one of `statuses` (docs/inbox.md
 * "No message lost"): null when a person took it over (or it closed) meanwhile.
 */
export async function appendReplyWhile(
  db: Executor,
  conversation: Pick<repo.ConversationRow, 'id' | 'workspaceId' | 'assistantId' | 'channel'>,
  input: NewMessage,
  statuses: repo.ConversationRow['status'][],
): Promise<repo.MessageRow | null> {
  const message = messageRow(conversation, input, now());
  const event = messageEvent(conversation, message);
  const stored = await repo.insertMessageIfStatus(db, message, event, statuses, input.gapQuestion ?? null);
  return stored ? message : null;
}

/**
 * A human's reply (the inbox and the v1 API): stored as role `agent` with `message.created`, then
 * delivered live to whoever is listening on the conversation (docs/inbox.md "Live delivery"). A
 * closed conversation → 409.
 */
export async function postAgentMessage(
  ctx: AppContext,
  conversation: repo.ConversationRow,
  input: {
    content: string;
    /** Sent translated: what the person wrote, and the translation's usage (docs/languages.md "Translation"). */
    originalContent?: string | null;
    usage?: Usage | null;
    authorId?: string | null;
    authorName?: string | null;
    authorAvatarUrl?: string | null;
  },
) {
  if (conversation.status === 'closed') throw conflict('This conversation is closed');
  const row = await appendMessage(ctx.db, conversation, {
    role: 'agent',
    content: input.content,
    originalContent: input.originalContent ?? null,
    usage: input.usage ?? null,
    authorId: input.authorId ?? null,
  });
  await Promise.all([
    ctx.fanout
      .publish(conversationChannel(conversation.id), {
        type: 'message',
        message: toMessage(row),
        authorName: input.authorName ?? null,
      })
      .catch(() => undefined),
    announceMessage(
      ctx,
      conversation,
      row,
      false,
      input.authorId
        ? { id: input.authorId, name: input.authorName ?? null, avatarUrl: input.authorAvatarUrl ?? null }
        : undefined,
    ),
  ]);
  // Channels that carry a reply beyond the live stream (an SMS goes out through the provider);
  // the adapters come with the context, not with route registration (features/conversations/channels.ts).
  await ctx.channels[conversation.channel]?.deliverReply(ctx, conversation, row);
  return row;
}

/**
 * A user's own conversation data for the account export (docs/accounts.md "Data export"): the
 * internal chats they started with every message, and the replies they wrote as a human agent.
 */
export async function conversationsForExport(ctx: AppContext, userId: string) {
  const chats = await repo.chatsStartedBy(ctx.db, userId);
  const rows = await repo.messagesOfConversations(
    ctx.db,
    chats.map((c) => c.id),
  );
  const byConversation = new Map<string, ReturnType<typeof toMessage>[]>();
  for (const m of rows) {
    const list = byConversation.get(m.conversationId) ?? [];
    list.push(toMessage(m));
    byConversation.set(m.conversationId, list);
  }
  const agent = await repo.agentMessagesBy(ctx.db, userId);
  return {
    conversations: chats.map((c) => ({ ...toConversation(c), messages: byConversation.get(c.id) ?? [] })),
    agentMessages: agent.map((r) => ({
      ...toMessage(r.message),
      workspaceId: r.workspaceId,
      channel: r.channel,
    })),
  };
}
