import type { AppContext } from '../../context.ts';
import type { Plan } from '../../db/schema/index.ts';
import type { AssistantRow } from '../assistants/assistants.repo.ts';
import {
  appendMessage,
  type ConversationRow,
  type MessageRow,
  type NewConversation,
  startConversation,
} from '../conversations/conversations.service.ts';
import { type Reservation, refundCredit, reserveCredit } from '../credits/credits.service.ts';
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
      /** The conversation started with this turn: its only history is the user's message. */
      isNew: boolean;
      /** The reply's context, read while the turn was being stored (context.ts). */
      context: Promise<ReplyContext>;
    };

const isRow = (c: ConversationRow | NewConversation): c is ConversationRow => 'id' in c;

/**
 * The start of every customer turn, on every channel (decisions §7, spec Credits):
 * - in `handoff`, the message is stored for the humans and no credit is spent;
 * - otherwise one credit is reserved first (403 `credits_limit_exceeded` when none are left,
 *   with nothing stored: "conversations and data are untouched"), then the conversation (if new)
 *   and the user's message are written in one statement. If that write fails, the credit is
 *   given back. The reply's context is read meanwhile (context.ts).
 */
export async function beginTurn(ctx: AppContext, input: TurnInput): Promise<Turn> {
  const message = { role: 'user' as const, content: input.content, authorId: input.authorId ?? null };
  if (isRow(input.conversation) && input.conversation.status === 'handoff') {
    const conversation = input.conversation;
    const userMessage = await appendMessage(ctx.db, conversation, message);
    return { kind: 'handoff', conversation, userMessage };
  }
  const context = readContext(ctx, input.assistant, input.content);
  const reservation = await reserveCredit(ctx, input.assistant.workspaceId, input);
  try {
    const spec = input.conversation;
    const { conversation, message: userMessage } = isRow(spec)
      ? { conversation: spec, message: await appendMessage(ctx.db, spec, message) }
      : await startConversation(ctx.db, spec, message);
    return {
      kind: 'reply',
      conversation,
      userMessage,
      reservation,
      assistant: input.assistant,
      plan: input.plan,
      isNew: !isRow(spec),
      context,
    };
  } catch (err) {
    await refundCredit(ctx, reservation);
    throw err;
  }
}
