import { toSla } from '../sla/sla-state.ts';
import type { ConversationRow, Delivery, MessageRow } from './conversations.repo.ts';

/**
 * The public shape of a conversation: API responses and `conversation.created`
 * (docs/chat.md "Conversations and messages").
 */
export const toConversation = (c: ConversationRow) => ({
  id: c.id,
  labels: c.labels,
  workspaceId: c.workspaceId,
  assistantId: c.assistantId,
  channel: c.channel,
  status: c.status,
  title: c.title,
  language: c.language,
  contactId: c.contactId,
  assigneeId: c.assigneeId,
  messageCount: c.messageCount,
  handoffReason: c.handoffReason,
  handoffRuleId: c.handoffRuleId,
  csat:
    c.csatRating !== null && c.csatRatedAt
      ? { rating: c.csatRating, comment: c.csatComment, ratedAt: c.csatRatedAt.toISOString() }
      : null,
  sla: toSla(c),
  lastMessageAt: c.lastMessageAt?.toISOString() ?? null,
  createdAt: c.createdAt.toISOString(),
  updatedAt: c.updatedAt.toISOString(),
});

/** The inbox's view of a conversation: the public shape plus when a person was first asked for and when it closed. */
export const toConversationDetail = (c: ConversationRow) => ({
  ...toConversation(c),
  handedOffAt: c.handedOffAt?.toISOString() ?? null,
  endedAt: c.endedAt?.toISOString() ?? null,
});

/**
 * The public shape of a message: API responses and `message.created`. A reply that went out as an
 * SMS also carries its `deliveryStatus` and the provider's `errorCode` (docs/sms.md "Replies from
 * the inbox") where the reader passes them: the inbox and `/api/v1/messages`.
 */
export const toMessage = (m: MessageRow, delivery?: Delivery) => ({
  id: m.id,
  conversationId: m.conversationId,
  role: m.role,
  content: m.content,
  originalContent: m.originalContent,
  authorId: m.authorId,
  status: m.status,
  citations: m.citations,
  toolCalls: m.toolCalls,
  usage: m.usage,
  outcome: m.outcome,
  curatedAnswerId: m.curatedAnswerId,
  confidence: m.confidence,
  withheld: m.withheld,
  createdAt: m.createdAt.toISOString(),
  ...(delivery ? { deliveryStatus: delivery.deliveryStatus, errorCode: delivery.errorCode } : {}),
});
