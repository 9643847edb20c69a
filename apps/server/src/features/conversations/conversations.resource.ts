import { defineResource, resourceNotFound } from '../../http/resources.ts';
import type { ConversationRow } from './conversations.repo.ts';
import { findConversation } from './conversations.service.ts';

declare module '../../http/resources.ts' {
  interface Resources {
    /** A conversation of the workspace (`conversationId`). */
    conversation: ConversationRow;
  }
}

export const conversationResource = defineResource({
  kind: 'conversation',
  param: 'conversationId',
  notFound: resourceNotFound('Conversation'),
  load: (ctx, { tenant }, id) => findConversation(ctx, tenant.workspaceId, id),
});
