import type { AppContext } from '../../context.ts';
import type { Tenant } from '../../http/actor.ts';
import { AppError } from '../../http/errors.ts';
import type { AssistantRow } from '../assistants/assistants.repo.ts';
import type { LoadedAssistant } from '../assistants/assistants.resource.ts';
import { changeConversation } from '../conversations/conversation-states.ts';
import * as conversations from '../conversations/conversations.service.ts';
import { beginTurn, type Turn } from './turn.ts';

export type ChatInput = { assistantId: string; conversationId?: string; content: string };

const notFoundChat = () => new AppError('not_found:chat', 'Conversation not found');

/** An internal chat of the caller's with this assistant (docs/chat.md); anything else is a 404. */
async function ownConversation(
  ctx: AppContext,
  userId: string,
  assistant: AssistantRow,
  conversationId: string,
) {
  const row = await conversations.findConversation(ctx, assistant.workspaceId, conversationId);
  if (row?.channel !== 'chat' || row.startedBy !== userId || row.assistantId !== assistant.id) {
    throw notFoundChat();
  }
  return row;
}

/**
 * `POST /api/chat` up to the point where the stream opens: every refusal (404, 403, 400,
 * `credits_limit_exceeded`) happens here, before any byte of the stream.
 */
export async function startChat(
  ctx: AppContext,
  userId: string,
  tenant: Tenant,
  { row: assistant, knowledge }: LoadedAssistant,
  input: ChatInput,
): Promise<Turn> {
  const conversation = input.conversationId
    ? await ownConversation(ctx, userId, assistant, input.conversationId)
    : {
        workspaceId: assistant.workspaceId,
        assistantId: assistant.id,
        channel: 'chat' as const,
        startedBy: userId,
        title: input.content.slice(0, 80),
      };
  // Writing into a closed chat reopens it and the AI answers again (docs/inbox.md "States").
  const current =
    'id' in conversation && conversation.status === 'closed'
      ? ((await changeConversation(ctx, conversation, { kind: 'reopen' }, { type: 'user', id: userId }))
          ?.conversation ?? conversation)
      : conversation;
  return beginTurn(ctx, {
    assistant,
    plan: tenant.plan,
    monthlyCredits: tenant.monthlyCredits,
    conversation: current,
    content: input.content,
    authorId: userId,
    knowledge,
  });
}

/** The caller's internal chats with one assistant, newest first. */
export async function listChats(
  ctx: AppContext,
  userId: string,
  assistant: AssistantRow,
  q: { limit: number; cursor?: string },
) {
  // The list is one member's chats with one assistant: both are its parent.
  const cursor = ctx.cursors.open(
    { list: 'chat.conversations', workspaceId: assistant.workspaceId, parentId: `${assistant.id}:${userId}` },
    q.cursor,
  );
  const rows = await conversations.listChatConversations(ctx.db, {
    workspaceId: assistant.workspaceId,
    assistantId: assistant.id,
    userId,
    limit: q.limit,
    after: cursor.after,
  });
  return cursor.page(rows, q.limit, (r) => ({ t: r.createdAt.getTime(), id: r.id }));
}

/** The messages of one of the caller's chats (chat.resource.ts), oldest first. */
export async function listChatMessages(
  ctx: AppContext,
  chat: { workspaceId: string; id: string },
  q: { limit: number; cursor?: string },
) {
  const cursor = ctx.cursors.open(
    { list: 'chat.messages', workspaceId: chat.workspaceId, parentId: chat.id },
    q.cursor,
  );
  const rows = await conversations.listMessages(ctx.db, {
    workspaceId: chat.workspaceId,
    conversationId: chat.id,
    limit: q.limit,
    after: cursor.after,
  });
  return cursor.page(rows, q.limit, (r) => ({ t: r.createdAt.getTime(), id: r.id }));
}
