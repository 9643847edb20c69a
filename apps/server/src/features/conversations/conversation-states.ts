import type { ChangedBy, InboxEvent } from '@parley/contract/inbox';
import { and, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import {
  type ChangeActor,
  type ConversationChangeKind,
  type ConversationStatus,
  conversationChanges,
  conversations,
  type HandoffReason,
  users,
} from '../../db/schema/index.ts';
import { conflict } from '../../http/errors.ts';
import { now } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { askAfterClose } from '../csat/csat.service.ts';
import { recordEvent } from '../events/events.service.ts';
import { assignAfterChange } from '../inbox/auto-assign.ts';
import { emailLater } from '../notifications/notifications.service.ts';
import { SLA_STOP, slaStart } from '../sla/sla-state.ts';
import { suggestFromClosed } from '../steering/suggestions.service.ts';
import { type AssignmentMail, heldAfter, onAssigneeChange } from './assignment.ts';
import type { ConversationRow } from './conversations.repo.ts';
import {
  conversationChannel,
  inboxChannel,
  toConversation,
  toConversationDetail,
} from './conversations.service.ts';
import { inInbox } from './visibility.ts';

/**
 * The states of a conversation and who moves it between them (docs/inbox.md "States"):
 *
 * | change   | by                     | from           | to        |
 * | -------- | ---------------------- | -------------- | --------- |
 * | handoff  | the AI's handoff tool  | open           | handoff   |
 * | takeover | a member               | open, handoff  | handoff (assignee: the member if none) |
 * | release  | a member               | handoff        | open (assignee cleared; the AI answers) |
 * | close    | a member, the visitor, inactivity | open, handoff | closed |
 * | reopen   | the customer writing again | closed     | open      |
 * | assign   | a member               | any            | same status, new assignee |
 *
 * Every change is one transaction: the conversation row locked, updated, a `conversation_changes`
 * row with who made it, and its event (`conversation.ended` for a close, else
 * `conversation.updated`, data with `status`, `assigneeId` and `changedBy`). A change that changes
 * nothing (taking over one's own conversation twice, closing a closed one) writes nothing.
 */

export type Change =
  | { kind: 'takeover' | 'release' | 'close' | 'reopen' }
  /** `reason` defaults to `customer_asked` (the AI's handoff tool); a guidance rule names itself. */
  | { kind: 'handoff'; reason?: HandoffReason; ruleId?: string }
  | { kind: 'assign'; assigneeId: string | null };

/** Why the conversation goes to a person, when this change hands it over; null when it goes back to the AI. */
function handoffReasonOf(row: ConversationRow, change: Change, status: ConversationRow['status']) {
  if (status === 'open') return { handoffReason: null, handoffRuleId: null };
  if (status !== 'handoff' || row.status === 'handoff') return {};
  if (change.kind === 'handoff')
    return { handoffReason: change.reason ?? 'customer_asked', handoffRuleId: change.ruleId ?? null };
  return { handoffReason: 'agent' as const, handoffRuleId: null };
}

export type Changed = {
  conversation: ConversationRow;
  /** Its status and assignee before the change. */
  before: Pick<ConversationRow, 'status' | 'assigneeId'>;
  /** The new assignee's email notice, sent after commit (assignment.ts). */
  mail?: AssignmentMail;
  /** false: the conversation already was in the asked state; nothing was written. */
  changed: boolean;
  kind: ConversationChangeKind;
  changedBy: ChangedBy;
};

const closedConflict = () => conflict('This conversation is closed');

/** The next status and assignee, or null when the change changes nothing. Throws 409 when refused. */
function next(
  row: ConversationRow,
  change: Change,
  by: ChangedBy,
): { status: ConversationStatus; assigneeId: string | null } | null {
  const same = (status: ConversationStatus, assigneeId: string | null) =>
    status === row.status && assigneeId === row.assigneeId ? null : { status, assigneeId };
  switch (change.kind) {
    case 'handoff':
      return row.status === 'open' ? { status: 'handoff', assigneeId: row.assigneeId } : null;
    case 'takeover':
      if (row.status === 'closed') throw closedConflict();
      return same('handoff', row.assigneeId ?? (by.type === 'user' ? by.id : null));
    case 'release':
      if (row.status === 'closed') throw closedConflict();
      return same('open', row.status === 'handoff' ? null : row.assigneeId);
    case 'close':
      return row.status === 'closed' ? null : { status: 'closed', assigneeId: row.assigneeId };
    case 'reopen':
      return row.status === 'closed' ? { status: 'open', assigneeId: null } : null;
    case 'assign':
      return same(row.status, change.assigneeId);
  }
}

/**
 * Applies a change inside `tx` (callers that change more in the same transaction, like ending a
 * widget session, pass theirs). `extra.data` adds fields to the event's data; `extra.at` is the
 * change's time when it must match another row's (a widget session's end). undefined when the
 * conversation does not exist in the workspace.
 */
export async function applyChange(
  tx: Executor,
  ref: { workspaceId: string; id: string },
  change: Change,
  by: ChangedBy,
  extra: { data?: Record<string, unknown>; at?: Date } = {},
): Promise<Changed | undefined> {
  const [row] = await tx
    .select()
    .from(conversations)
    .where(and(eq(conversations.id, ref.id), eq(conversations.workspaceId, ref.workspaceId)))
    .for('update')
    .limit(1);
  if (!row) return undefined;
  const target = next(row, change, by);
  const before = { status: row.status, assigneeId: row.assigneeId };
  if (!target) return { conversation: row, before, changed: false, kind: change.kind, changedBy: by };
  const at = extra.at ?? now();
  const [updated] = await tx
    .update(conversations)
    .set({
      status: target.status,
      assigneeId: target.assigneeId,
      updatedAt: at,
      ...(target.status === 'handoff' && !row.handedOffAt ? { handedOffAt: at } : {}),
      ...(target.status === 'handoff' && row.status !== 'handoff'
        ? { waitingSince: at, ...(await slaStart(tx, row, at)) }
        : {}),
      ...(target.status !== 'handoff' && row.status === 'handoff' ? SLA_STOP : {}),
      assignmentHeld: heldAfter(row, change, by, target.status),
      ...handoffReasonOf(row, change, target.status),
      ...(target.status === 'closed' ? { endedAt: at } : {}),
      ...(change.kind === 'reopen' ? { endedAt: null } : {}),
    })
    .where(eq(conversations.id, row.id))
    .returning();
  const conversation = updated as ConversationRow;
  // A closed conversation's weakly answered questions that a person answered (docs/measuring.md "Suggestions").
  if (target.status === 'closed') await suggestFromClosed(tx, conversation);
  await tx.insert(conversationChanges).values({
    id: newId('chg'),
    workspaceId: row.workspaceId,
    conversationId: row.id,
    kind: change.kind,
    fromStatus: row.status,
    status: target.status,
    assigneeId: target.assigneeId,
    actorType: by.type as ChangeActor,
    actorId: by.id,
    createdAt: at,
  });
  const mail = await onAssigneeChange(tx, row, conversation, by, at);
  // A private internal chat's changes (its member closing it, say) reach no webhook; its handoff
  // does, as the first event about it (visibility.ts).
  if (inInbox(conversation)) {
    await recordEvent(tx, {
      workspaceId: row.workspaceId,
      type: target.status === 'closed' ? 'conversation.ended' : 'conversation.updated',
      data: {
        ...toConversation(conversation),
        conversationId: conversation.id,
        change: change.kind,
        changedBy: by,
        ...extra.data,
      },
    });
  }
  return { conversation, before, mail, changed: true, kind: change.kind, changedBy: by };
}

/** applyChange in its own transaction, announced once committed. */
export async function changeConversation(
  ctx: AppContext,
  ref: { workspaceId: string; id: string },
  change: Change,
  by: ChangedBy,
): Promise<Changed | undefined> {
  const result = await ctx.db.transaction((tx) => applyChange(tx, ref, change, by));
  if (result) await announceChange(ctx, result);
  return result;
}

/** The name and avatar of the person answering, for the widget (docs/widget.md "Live agent replies"). */
export async function agentOf(ctx: AppContext, userId: string | null) {
  if (!userId) return null;
  const [u] = await ctx.db
    .select({ name: users.name, avatarUrl: users.avatarUrl })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return { type: 'agent' as const, name: u?.name || 'Support agent', avatarUrl: u?.avatarUrl ?? null };
}

/**
 * After commit, tells the live listeners (best-effort; the change is stored): open widget and
 * internal-chat streams of the conversation get a `status` message, and the workspace's inbox
 * streams the conversation as it now is (docs/inbox.md "Live updates").
 */
export async function announceChange(ctx: AppContext, result: Changed) {
  if (!result.changed) return;
  const c = result.conversation;
  const agent = c.status === 'handoff' ? await agentOf(ctx, c.assigneeId).catch(() => null) : null;
  await Promise.all([
    ctx.fanout
      .publish(conversationChannel(c.id), {
        type: 'status',
        conversationId: c.id,
        status: c.status,
        assigneeId: c.assigneeId,
        changedBy: result.changedBy,
        agent,
      })
      .catch(() => undefined),
    announceToInbox(ctx, c, {
      type: c.status === 'closed' ? 'conversation.ended' : 'conversation.updated',
      conversation: toConversationDetail(c),
      changedBy: result.changedBy,
    }),
  ]);
  if (result.mail) emailLater(ctx, result.mail.recipients, result.mail.notice, { conversationId: c.id });
  await assignAfterChange(ctx, result);
  await askAfterClose(ctx, result);
}

/**
 * Publishes one inbox change to the workspace's inbox streams (best-effort); nothing for a chat
 * the inbox does not show (visibility.ts).
 */
export async function announceToInbox(
  ctx: AppContext,
  c: Pick<ConversationRow, 'workspaceId' | 'channel' | 'handedOffAt'>,
  payload: InboxEvent,
) {
  if (!inInbox(c)) return;
  await ctx.fanout.publish(inboxChannel(c.workspaceId), payload).catch(() => undefined);
}

/** Every change of a conversation, oldest first. */
export async function changesOf(db: Executor, workspaceId: string, conversationId: string) {
  return db
    .select()
    .from(conversationChanges)
    .where(
      and(
        eq(conversationChanges.workspaceId, workspaceId),
        eq(conversationChanges.conversationId, conversationId),
      ),
    )
    .orderBy(conversationChanges.createdAt, sql`${conversationChanges.id}`);
}
