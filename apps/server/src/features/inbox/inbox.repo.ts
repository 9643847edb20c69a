import { and, asc, eq, getTableColumns, isNotNull, isNull, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { preparedFor } from '../../db/prepared.ts';
import {
  assistants,
  type Channel,
  type ConversationStatus,
  conversationLabels,
  conversations,
  memberships,
  messages,
  users,
  workspaces,
} from '../../db/schema/index.ts';
import type { CursorKey } from '../../http/pagination.ts';
import { inInboxSql } from '../conversations/visibility.ts';
import { conversationLabelRows } from '../labels/label-filter.ts';

// Every inbox request on a conversation runs it: prepared once (db/prepared.ts).
const conversationForUser = preparedFor((db) =>
  db
    .select({
      conversation: conversations,
      role: memberships.role,
      plan: workspaces.plan,
      trialEndsAt: workspaces.trialEndsAt,
      billingStatus: workspaces.billingStatus,
      monthlyCredits: workspaces.monthlyCredits,
    })
    .from(conversations)
    .innerJoin(
      memberships,
      and(
        eq(memberships.workspaceId, conversations.workspaceId),
        eq(memberships.userId, sql.placeholder('userId')),
      ),
    )
    .innerJoin(workspaces, eq(workspaces.id, conversations.workspaceId))
    .where(eq(conversations.id, sql.placeholder('id')))
    .limit(1)
    .prepare('parley_inbox_conversation_for_user'),
);

/**
 * A conversation with the caller's role in its workspace and that workspace's plan, in one query:
 * none when it does not exist or the caller is not a member there.
 */
export async function findConversationForUser(db: Executor, id: string, userId: string) {
  const [row] = await conversationForUser(db).execute({ id, userId });
  return row;
}

export type InboxFilter = {
  workspaceId: string;
  status?: ConversationStatus;
  channel?: Channel;
  /** The customer's language (docs/languages.md "Conversations"). */
  language?: string;
  assistantId?: string;
  assigneeId?: string;
  unassigned?: boolean;
  /** Only those with an AI reply below 0.5 or its assistant's minimum, the higher (docs/measuring.md "Confidence"). */
  lowConfidence?: boolean;
  /** With an SLA breach on its clocks (docs/sla.md "Breaches"). */
  slaBreached?: boolean;
  /** Only those with this label (docs/labels.md "Filters"). */
  labelId?: string;
};

/**
 * The soonest SLA due time of a conversation, `infinity` when no clock runs: the order of
 * `sort=sla` (docs/sla.md "In the inbox"), the expression of `conversations_sla_due_idx`.
 */
export const slaDueSql = sql`coalesce(least(${conversations.slaFirstDueAt}, ${conversations.slaNextDueAt}, ${conversations.slaResolutionDueAt}), 'infinity'::timestamptz)`;

/** A cursor's time for the SLA order: the due time, or the largest number for `infinity`. */
export const NO_DUE = Number.MAX_SAFE_INTEGER;

/**
 * The inbox's conversations by the soonest SLA due time, then id (those with no clock last),
 * keyset on that pair; every filter as `listInbox`.
 */
export async function listInboxBySla(
  db: Executor,
  f: InboxFilter & { limit: number; after: CursorKey | undefined },
) {
  const conds = inboxConditions(f);
  // With a label, the label's rows in this order (`conversation_labels_sla_idx`, the same time kept
  // by migration 0027's trigger); without, the conversations' own (`conversations_sla_due_idx`).
  const key = f.labelId
    ? { due: sql`${conversationLabels.slaDueAt}`, id: conversationLabels.conversationId }
    : { due: slaDueSql, id: conversations.id };
  if (f.labelId) conds.push(conversationLabelRows(f.workspaceId, f.labelId));
  if (f.after) {
    const t =
      f.after.t >= NO_DUE
        ? sql`'infinity'::timestamptz`
        : sql`${new Date(f.after.t).toISOString()}::timestamptz`;
    conds.push(sql`(${key.due}, ${key.id}) > (${t}, ${f.after.id})`);
  }
  const columns = getTableColumns(conversations);
  const from = f.labelId
    ? db
        .select(columns)
        .from(conversationLabels)
        .innerJoin(conversations, eq(conversations.id, conversationLabels.conversationId))
        .$dynamic()
    : db.select(columns).from(conversations).$dynamic();
  return from
    .where(and(...conds))
    .orderBy(key.due, key.id)
    .limit(f.limit + 1);
}

/**
 * The inbox's conversations, newest activity first, keyset on (last_message_at, id) so that every
 * filter walks one of the inbox indexes (db/schema/conversations.ts; bench/inbox.ts). Internal
 * chats only once handed to a person (docs/inbox.md "Which conversations the inbox shows";
 * the one rule in features/conversations/visibility.ts). With a label, the walk starts from the
 * label's rows of `conversation_labels` instead (labels/label-filter.ts), the rest unchanged.
 */
export async function listInbox(
  db: Executor,
  f: InboxFilter & { limit: number; after: CursorKey | undefined },
) {
  const conds = inboxConditions(f);
  const key = f.labelId
    ? { at: conversationLabels.lastMessageAt, id: conversationLabels.conversationId }
    : { at: conversations.lastMessageAt, id: conversations.id };
  if (f.labelId) conds.push(conversationLabelRows(f.workspaceId, f.labelId));
  if (f.after) {
    conds.push(
      sql`(${key.at}, ${key.id}) < (${new Date(f.after.t).toISOString()}::timestamptz, ${f.after.id})`,
    );
  }
  const columns = getTableColumns(conversations);
  const from = f.labelId
    ? db
        .select(columns)
        .from(conversationLabels)
        .innerJoin(conversations, eq(conversations.id, conversationLabels.conversationId))
        .$dynamic()
    : db.select(columns).from(conversations).$dynamic();
  return (
    from
      .where(and(...conds))
      // `nulls last` on both, as in the indexes: a plain `id desc` (nulls first) makes PostgreSQL sort
      // again after the index scan (bench/inbox.ts prints the plans).
      .orderBy(sql`${key.at} desc nulls last`, sql`${key.id} desc nulls last`)
      .limit(f.limit + 1)
  );
}

/** Every filter of the list but the label and the cursor, on the conversation's own columns. */
function inboxConditions(f: InboxFilter): SQL[] {
  const conds: SQL[] = [eq(conversations.workspaceId, f.workspaceId), inInboxSql()];
  if (f.status) conds.push(eq(conversations.status, f.status));
  if (f.channel) conds.push(eq(conversations.channel, f.channel));
  if (f.language) conds.push(eq(conversations.language, f.language));
  if (f.assistantId) conds.push(eq(conversations.assistantId, f.assistantId));
  if (f.assigneeId) conds.push(eq(conversations.assigneeId, f.assigneeId));
  if (f.unassigned === true) conds.push(isNull(conversations.assigneeId));
  if (f.unassigned === false) conds.push(isNotNull(conversations.assigneeId));
  if (f.lowConfidence) conds.push(weakReplySql);
  if (f.slaBreached) conds.push(sql`jsonb_array_length(${conversations.slaBreaches}) > 0`);
  return conds;
}

const weakReplySql = sql`exists (
  select 1 from ${messages} m join ${assistants} a on a.id = ${conversations.assistantId}
   where m.conversation_id = ${conversations.id} and m.role = 'assistant'
     and m.confidence < greatest(0.5, a.min_confidence))`;

/** A conversation's messages oldest first with their human author, keyset on (created_at, id). */
export async function listMessagesWithAuthors(
  db: Executor,
  q: { workspaceId: string; conversationId: string; limit: number; after: CursorKey | undefined },
) {
  const conds = [eq(messages.workspaceId, q.workspaceId), eq(messages.conversationId, q.conversationId)];
  if (q.after) {
    conds.push(
      sql`(${messages.createdAt}, ${messages.id}) > (${new Date(q.after.t).toISOString()}::timestamptz, ${q.after.id})`,
    );
  }
  return db
    .select({ message: messages, authorName: users.name, authorAvatarUrl: users.avatarUrl })
    .from(messages)
    .leftJoin(users, eq(users.id, messages.authorId))
    .where(and(...conds))
    .orderBy(asc(messages.createdAt), asc(messages.id))
    .limit(q.limit + 1);
}

/** A user's display name and avatar. */
export async function userCard(db: Executor, userId: string) {
  const [row] = await db
    .select({ name: users.name, avatarUrl: users.avatarUrl })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row;
}

/** One message of a conversation, inside its workspace. */
export async function findMessage(db: Executor, workspaceId: string, conversationId: string, id: string) {
  const [row] = await db
    .select()
    .from(messages)
    .where(
      and(
        eq(messages.id, id),
        eq(messages.workspaceId, workspaceId),
        eq(messages.conversationId, conversationId),
      ),
    )
    .limit(1);
  return row;
}
