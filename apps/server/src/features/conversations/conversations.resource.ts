import { defineResource, resourceNotFound } from '../../http/resources.ts';
import type { ConversationRow } from './conversations.repo.ts';
import { findInboxConversation } from './conversations.service.ts';

declare module '../../http/resources.ts' {
  interface Resources {
    /**
     * A conversation of the workspace that the inbox shows (`conversationId`, the `/api/v1`
     * surface): a private internal chat is a 404 like a missing one (visibility.ts).
     */
    conversation: ConversationRow;
  }
}

export const conversationResource = defineResource({
  kind: 'conversation',
  param: 'conversationId',
  notFound: resourceNotFound('Conversation'),
  load: (ctx, { tenant }, id) => findInboxConversation(ctx, tenant.workspaceId, id),
});
