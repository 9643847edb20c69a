import type { AppContext } from '../../context.ts';
import { type Actor, can } from '../../http/actor.ts';
import { AppError, forbidden } from '../../http/errors.ts';
import { decodeCursor, toCursorPage } from '../../http/pagination.ts';
import { loadAssistant } from '../assistants/assistants.service.ts';
import * as conversations from '../conversations/conversations.service.ts';
import { beginTurn, type Turn } from './turn.ts';

export type ChatInput = { assistantId: string; conversationId?: string; content: string };

const notFoundChat = () => new AppError('not_found:chat', 'Conversation not found');

function userOf(actor: Actor): string {
  if (actor.kind !== 'user') throw forbidden();
  return actor.userId;
}

/** An assistant the caller may chat with: visible to them, and not as a guest (decisions §6). */
async function chattableAssistant(ctx: AppContext, actor: Actor, assistantId: string) {
  const { row, tenant, knowledge } = await loadAssistant(ctx, actor, assistantId);
  if (!can(tenant.role, 'assistants.use'))
    throw forbidden('Guests can read assistants but cannot chat with them');
  return { assistant: row, plan: tenant.plan, monthlyCredits: tenant.monthlyCredits, knowledge };
}

/** An internal chat of the caller's (decisions §7); anything else is a 404 `not_found:chat`. */
async function ownConversation(
  ctx: AppContext,
  userId: string,
  conversationId: string,
  assistantId?: string,
) {
  const row = await conversations.findConversation(ctx, conversationId);
  if (row?.channel !== 'chat' || row.startedBy !== userId) throw notFoundChat();
  if (assistantId && row.assistantId !== assistantId) throw notFoundChat();
  return row;
}

/**
 * `POST /api/chat` up to the point where the stream opens: every refusal (404, 403, 400,
 * `credits_limit_exceeded`) happens here, before any byte of the stream.
 */
export async function startChat(ctx: AppContext, actor: Actor, input: ChatInput): Promise<Turn> {
  const userId = userOf(actor);
  const { assistant, plan, monthlyCredits, knowledge } = await chattableAssistant(
    ctx,
    actor,
    input.assistantId,
  );
  const conversation = input.conversationId
    ? await ownConversation(ctx, userId, input.conversationId, assistant.id)
    : {
        workspaceId: assistant.workspaceId,
        assistantId: assistant.id,
        channel: 'chat' as const,
        startedBy: userId,
        title: input.content.slice(0, 80),
      };
  if ('id' in conversation && conversation.status === 'closed') {
    throw new AppError('bad_request:chat', 'This conversation is closed; start a new one');
  }
  return beginTurn(ctx, {
    assistant,
    plan,
    monthlyCredits,
    conversation,
    content: input.content,
    authorId: userId,
    knowledge,
  });
}

export async function listChats(
  ctx: AppContext,
  actor: Actor,
  q: { assistantId: string; limit: number; cursor?: string },
) {
  const userId = userOf(actor);
  const { row } = await loadAssistant(ctx, actor, q.assistantId);
  const rows = await conversations.listChatConversations(ctx.db, {
    assistantId: row.id,
    userId,
    limit: q.limit,
    after: decodeCursor(q.cursor),
  });
  return toCursorPage(rows, q.limit, (r) => ({ t: r.createdAt.getTime(), id: r.id }));
}

export async function listChatMessages(
  ctx: AppContext,
  actor: Actor,
  conversationId: string,
  q: { limit: number; cursor?: string },
) {
  const conversation = await ownConversation(ctx, userOf(actor), conversationId);
  // The assistant may have become private to the caller since: then the chat is gone for them too.
  await loadAssistant(ctx, actor, conversation.assistantId).catch(() => {
    throw notFoundChat();
  });
  const rows = await conversations.listMessages(ctx.db, {
    conversationId: conversation.id,
    limit: q.limit,
    after: decodeCursor(q.cursor),
  });
  return toCursorPage(rows, q.limit, (r) => ({ t: r.createdAt.getTime(), id: r.id }));
}
