import { defineResource, resourceNotFound } from '../../http/resources.ts';
import type { ConversationRow, MessageRow } from '../conversations/conversations.repo.ts';
import { findInboxConversation } from '../conversations/conversations.service.ts';
import { inInbox } from '../conversations/visibility.ts';
import { planStanding } from '../workspaces/plan.ts';
import { tenantIn } from '../workspaces/tenant.service.ts';
import * as repo from './inbox.repo.ts';

declare module '../../http/resources.ts' {
  interface Resources {
    /** A conversation the inbox shows (`:conversationId` on `/api/inbox/conversations`). */
    inboxConversation: ConversationRow;
    /** A message of that conversation (`:messageId` after `:conversationId`). */
    inboxMessage: MessageRow;
  }
}

/**
 * `:conversationId` on the inbox (docs/inbox.md "Which conversations the inbox shows"): found
 * among the caller's workspaces, so the path needs no workspace. A conversation of a workspace the
 * caller does not belong to, or an internal chat that never went to a person, is a 404 like a
 * missing one.
 */
export const inboxConversationResource = defineResource({
  kind: 'inboxConversation',
  param: 'conversationId',
  notFound: resourceNotFound('Conversation'),
  load: (ctx, { tenant }, id) => findInboxConversation(ctx, tenant.workspaceId, id),
  async locate(ctx, actor, id) {
    if (actor.kind !== 'user' || id.length > 100) return undefined;
    const found = await repo.findConversationForUser(ctx.db, id, actor.userId);
    if (!found || !inInbox(found.conversation)) return undefined;
    const row = found.conversation;
    return { tenant: tenantIn(row.workspaceId, found.role, planStanding(found)), row };
  },
});

/** `:messageId` of the inbox conversation already loaded: a message of another conversation is a 404. */
export const inboxMessageResource = defineResource({
  kind: 'inboxMessage',
  param: 'messageId',
  notFound: resourceNotFound('Message'),
  load: (ctx, { tenant, loaded }, id) =>
    loaded.inboxConversation && id.length <= 100
      ? repo.findMessage(ctx.db, tenant.workspaceId, loaded.inboxConversation.id, id)
      : Promise.resolve(undefined),
});
