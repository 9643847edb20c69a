import type { ChangedBy } from '@parley/contract/inbox';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../http/errors.ts';
import { now } from '../../lib/clock.ts';
import { toContact } from '../contacts/contacts.service.ts';
import { announceToInbox } from '../conversations/conversation-states.ts';
import { toConversation, toConversationDetail } from '../conversations/conversations.service.ts';
import { recordEvent } from '../events/events.service.ts';
import * as repo from './labels.repo.ts';
import { resolveSet } from './labels.service.ts';

/**
 * A conversation's labels replaced (docs/labels.md "Sets"): the set, `conversation.updated` with
 * `change: "labels"` in the same transaction, then the inbox streams hear of it.
 */
export async function setConversationLabels(
  ctx: AppContext,
  conversation: { workspaceId: string; id: string },
  labelIds: string[],
  userId: string,
) {
  const changedBy: ChangedBy = { type: 'user', id: userId };
  const row = await ctx.db.transaction(async (tx) => {
    const set = await resolveSet(tx, conversation.workspaceId, labelIds);
    const updated = await repo.setConversationLabels(
      tx,
      conversation.workspaceId,
      conversation.id,
      set,
      now(),
    );
    if (!updated) throw notFound('Conversation');
    await recordEvent(tx, {
      workspaceId: updated.workspaceId,
      type: 'conversation.updated',
      data: { ...toConversation(updated), conversationId: updated.id, change: 'labels', changedBy },
    });
    return updated;
  });
  await announceToInbox(ctx, row, {
    type: 'conversation.updated',
    conversation: toConversationDetail(row),
    changedBy,
  });
  return row.labels;
}

/** A contact's labels replaced: the set and `contact.updated`, in one transaction. */
export async function setContactLabels(
  ctx: AppContext,
  contact: { workspaceId: string; id: string },
  labelIds: string[],
) {
  return ctx.db.transaction(async (tx) => {
    const set = await resolveSet(tx, contact.workspaceId, labelIds);
    const updated = await repo.setContactLabels(tx, contact.workspaceId, contact.id, set, now());
    if (!updated) throw notFound('Contact');
    await recordEvent(tx, {
      workspaceId: updated.workspaceId,
      type: 'contact.updated',
      data: toContact(updated),
    });
    return updated.labels;
  });
}
