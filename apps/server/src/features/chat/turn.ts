import type { Plan } from '@parley/contract/plans';
import type { AppContext } from '../../context.ts';
import type { AssistantRow } from '../assistants/assistants.repo.ts';
import {
  announceMessage,
  appendMessage,
  type ConversationRow,
  historyWithin,
  type MessageRow,
  type NewConversation,
  prepareAppend,
  prepareStart,
  type StartTail,
} from '../conversations/conversations.service.ts';
import { type Reservation, reserveCredit } from '../credits/credits.service.ts';
import type { KnownKnowledge } from '../knowledge/knowledge.service.ts';
import { type ReplyContext, readContext } from './context.ts';

export type TurnInput = {
  assistant: AssistantRow;
  plan: Plan;
  /** The workspace's agreed Enterprise credits (Tenant.monthlyCredits): the credit limit needs it. */
  monthlyCredits: number | null;
  /** An existing conversation, or what to create (only once a credit is secured). */
  conversation: ConversationRow | NewConversation;
  content: string;
  authorId?: string | null;
  /** What loading the assistant read of its knowledge, if it did (context.ts). */
  knowledge?: KnownKnowledge;
  /** A channel's own write in the statement that stores a new conversation (the widget's session binding). */
  startTail?: StartTail;
};

export type Turn =
  | { kind: 'handoff'; conversation: ConversationRow; userMessage: MessageRow }
  | {
      kind: 'reply';
      conversation: ConversationRow;
      userMessage: MessageRow;
      reservation: Reservation;
      assistant: AssistantRow;
      plan: Plan;
      /** The reply's context, read while the turn was being stored (context.ts). */
      context: Promise<ReplyContext>;
      /** The history the model is sent, this turn's message included (read beside storing it). */
      history: Promise<HistoryMessage[]>;
    };

const isRow = (c: ConversationRow | NewConversation): c is ConversationRow => 'id' in c;

/**
 * The start of every customer turn, on every channel (docs/chat.md; docs/credits.md):
 * - in `handoff`, the message is stored for the humans and no credit is spent;
 * - otherwise one credit is taken and the conversation (if new) and the user's message are written,
 *   in one statement: 403 `credits_limit_exceeded` when none are left, with nothing stored
 *   ("conversations and data are untouched"), and no credit taken if the write fails. The reply's
 *   context is read meanwhile, and the history (an existing conversation's) beside the write.
 */
export async function beginTurn(ctx: AppContext, input: TurnInput): Promise<Turn> {
  const message = { role: 'user' as const, content: input.content, authorId: input.authorId ?? null };
  if (isRow(input.conversation) && input.conversation.status === 'handoff') {
    const conversation = input.conversation;
    const userMessage = await appendMessage(ctx.db, conversation, message);
    await announceMessage(ctx, conversation, userMessage);
    return { kind: 'handoff', conversation, userMessage };
  }
  const context = readContext(ctx, input.assistant, input.content, input.knowledge);
  const spec = input.conversation;
  const pending = isRow(spec) ? prepareAppend(spec, message) : prepareStart(spec, message);
  const history = isRow(spec)
    ? historyWithin(ctx, spec, ctx.config.ai.historyTokens, pending.message)
    : Promise.resolve([pending.message]);
  history.catch(() => undefined);
  const reservation = await reserveCredit(ctx, input.assistant.workspaceId, input, (claim) =>
    pending.storeCharged(ctx.db, claim, isRow(spec) ? undefined : input.startTail),
  );
  // Stored: the inbox hears of it (docs/inbox.md "Live updates").
  void announceMessage(ctx, pending.conversation, pending.message, !isRow(spec));
  return {
    kind: 'reply',
    conversation: pending.conversation,
    userMessage: pending.message,
    reservation,
    assistant: input.assistant,
    plan: input.plan,
    context,
    history,
  };
}

export type HistoryMessage = Pick<MessageRow, 'role' | 'content'>;
