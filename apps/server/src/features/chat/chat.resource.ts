import { defineResource, surfaceNotFound } from '../../http/resources.ts';
import { assistantResource } from '../assistants/assistants.resource.ts';
import type { ConversationRow } from '../conversations/conversations.repo.ts';
import { findChatOf, locateChatOf } from '../conversations/conversations.service.ts';

declare module '../../http/resources.ts' {
  interface Resources {
    /** One of the caller's own internal chats (`:conversationId` on `/api/chat`). */
    chat: ConversationRow;
  }
}

/**
 * An internal chat is its starter's alone; one whose assistant has since become invisible to them
 * is gone for them too. Anything else is a 404 `not_found:chat`.
 */
export const chatResource = defineResource({
  kind: 'chat',
  param: 'conversationId',
  notFound: surfaceNotFound('not_found:chat', 'Conversation not found'),
  async load(ctx, { actor, tenant }, id) {
    if (actor?.kind !== 'user') return undefined;
    // The workspace in the query's WHERE (http/resources.ts), not compared after loading by user.
    return findChatOf(ctx, tenant.workspaceId, actor.userId, id);
  },
  async locate(ctx, actor, id) {
    if (actor.kind !== 'user') return undefined;
    const row = await locateChatOf(ctx, actor.userId, id);
    const assistant = row && (await assistantResource.locate?.(ctx, actor, row.assistantId));
    return row && assistant ? { tenant: assistant.tenant, row } : undefined;
  },
});
