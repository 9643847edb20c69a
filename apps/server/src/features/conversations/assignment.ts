import type { ChangedBy } from '@parley/contract/inbox';
import type { Executor } from '../../db/client.ts';
import type { ConversationStatus } from '../../db/schema/index.ts';

import { userCard } from '../inbox/inbox.repo.ts';
import { type Notice, notifyMember, type Recipient } from '../notifications/notifications.service.ts';
import { conversationAssignedNotice } from '../notifications/templates/conversation-assigned.ts';
import { markAssigned } from '../workspaces/members.repo.ts';
import type { ConversationRow } from './conversations.repo.ts';

/**
 * What a change of assignee does besides the change itself (docs/inbox.md "Auto-assignment"):
 * whether auto-assignment may still touch the conversation, the new assignee's last assignment
 * (its tie-break), and their notice.
 */

export type AssignmentMail = { recipients: Recipient[]; notice: Notice };

/**
 * A person who sets or clears the assignee (or takes the conversation over) holds it: auto-
 * assignment leaves it alone for the rest of this handoff. Back to the AI or closed, it is free again.
 */
export function heldAfter(
  row: ConversationRow,
  change: { kind: string },
  by: ChangedBy,
  status: ConversationStatus,
): boolean {
  if (by.type === 'user' && (change.kind === 'assign' || change.kind === 'takeover')) return true;
  return status === 'handoff' ? row.assignmentHeld : false;
}

/**
 * In the change's transaction: when the assignee changed to someone, their last assignment is now,
 * and unless they gave it to themselves they get the `conversation.assigned` notice in the app;
 * returns who wants it by email, to send after commit.
 */
export async function onAssigneeChange(
  tx: Executor,
  row: ConversationRow,
  updated: ConversationRow,
  by: ChangedBy,
  at: Date,
): Promise<AssignmentMail | undefined> {
  const assignee = updated.assigneeId;
  if (!assignee || assignee === row.assigneeId) return undefined;
  await markAssigned(tx, updated.workspaceId, assignee, at);
  if (by.type === 'user' && by.id === assignee) return undefined;
  const giver =
    by.type === 'user'
      ? { type: 'user' as const, name: (await userCard(tx, by.id))?.name ?? '' }
      : { type: 'system' as const };
  const notice = conversationAssignedNotice(updated, giver);
  const recipients = await notifyMember(tx, updated.workspaceId, assignee, notice);
  return recipients.length > 0 ? { recipients, notice } : undefined;
}
