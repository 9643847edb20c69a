import { and, asc, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.ts';
import { preparedFor } from '../../db/prepared.ts';
import type { SmsDeliveryStatus } from '../../db/schema/index.ts';
import { conversations, messages, smsOutbound } from '../../db/schema/index.ts';
import type { CursorKey } from '../../http/pagination.ts';
import { CREDIT_TAKEN, type CreditClaim, type Reserved, takeCreditSql } from '../credits/credits.repo.ts';
import type { EventRow } from '../events/events.service.ts';
import { languageOnMessage, slaOnMessage } from './message-effects.ts';
import { inInboxSql } from './visibility.ts';

export type ConversationRow = typeof conversations.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;

export {
  chargedStart,
  insertConversationCharged,
  insertConversationWithMessage,
  type StartTail,
} from './conversation-start.ts';

// Every turn of an existing conversation reads it: prepared once (db/prepared.ts).
const conversationIn = preparedFor((db) =>
  db
    .select()
    .from(conversations)
    .where(
      and(
        eq(conversations.id, sql.placeholder('id')),
        eq(conversations.workspaceId, sql.placeholder('workspaceId')),
      ),
    )
    .limit(1)
    .prepare('parley_conversation_in_workspace'),
);

export async function findConversation(
  db: Executor,
  workspaceId: string,
  id: string,
): Promise<ConversationRow | undefined> {
  const [row] = await conversationIn(db).execute({ id, workspaceId });
  return row;
}

// Every inbox and /api/v1 request on a conversation reads it: prepared once too.
const inboxConversationIn = preparedFor((db) =>
  db
    .select()
    .from(conversations)
    .where(
      and(
        eq(conversations.id, sql.placeholder('id')),
        eq(conversations.workspaceId, sql.placeholder('workspaceId')),
        inInboxSql(),
      ),
    )
    .limit(1)
    .prepare('parley_inbox_conversation_in_workspace'),
);

/** A conversation of the workspace that the inbox shows (visibility.ts); none for a private chat. */
export async function findInboxConversation(
  db: Executor,
  workspaceId: string,
  id: string,
): Promise<ConversationRow | undefined> {
  const [row] = await inboxConversationIn(db).execute({ id, workspaceId });
  return row;
}

/** An internal chat of the workspace started by this user. */
export async function findChatOf(
  db: Executor,
  workspaceId: string,
  userId: string,
  id: string,
): Promise<ConversationRow | undefined> {
  const [row] = await db
    .select()
    .from(conversations)
    .where(and(eq(conversations.workspaceId, workspaceId), chatOf(userId, id)))
    .limit(1);
  return row;
}

/**
 * An internal chat started by this user, in whichever workspace: the chat resource's `locate`
 * (db/pre-tenant.ts), which then finds the caller's standing there through its assistant.
 */
export async function locateChatOf(
  db: Executor,
  userId: string,
  id: string,
): Promise<ConversationRow | undefined> {
  const [row] = await db.select().from(conversations).where(chatOf(userId, id)).limit(1);
  return row;
}

const chatOf = (userId: string, id: string) =>
  and(eq(conversations.id, id), eq(conversations.channel, 'chat'), eq(conversations.startedBy, userId));

/**
 * A message, its count on the conversation (`message_count + 1`: concurrent appends never lose a
 * count; a system note, such as "The customer asked for a person", is not counted: the count is
 * of what the customer, the AI and the team wrote: docs/dashboard.md "Inbox") and its event, in one
 * statement (as above). The event only while the conversation is one the inbox shows
 * (visibility.ts), judged on the row the count's UPDATE locked: a message stored after a handoff
 * committed gets its event, one stored before does not.
 */
export async function insertMessageCounted(db: Executor, message: MessageRow, event: EventRow) {
  await insertMessageIfStatus(db, message, event, null);
}

/**
 * insertMessageCounted with one credit taken first in the same statement (credits.repo.ts
 * `takeCreditSql`): nothing is stored when none is left (undefined back). A chat turn's message.
 */
export async function insertMessageCharged(
  db: Executor,
  message: MessageRow,
  event: EventRow,
  claim: CreditClaim,
): Promise<Reserved | undefined> {
  const credit = sql`k as (${takeCreditSql(claim)}), `;
  const [row] = await queryRows<Reserved>(
    db,
    countedMessage(message, event, null, null, { credit, result: sql`select ${CREDIT_TAKEN} from k` }),
  );
  return row;
}

/**
 * insertMessageCounted, only while the conversation's status is one of `statuses` (null: any):
 * the count's UPDATE takes the conversation's row lock and re-reads its status, and the message
 * and its event are inserted from that UPDATE's result. So a reply racing a takeover is either
 * stored before the takeover commits or not at all (docs/inbox.md "No message lost"). The event
 * is inserted only when that row is one the inbox shows (visibility.ts), and never for a withheld
 * draft, which no channel sends (docs/measuring.md "Confidence"). false: not stored.
 */
export async function insertMessageIfStatus(
  db: Executor,
  message: MessageRow,
  event: EventRow,
  statuses: ConversationRow['status'][] | null,
  /** `messages.gap_question` (docs/analytics.md "Knowledge gaps"); a column outside the Drizzle schema. */
  gapQuestion: string | null = null,
): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(db, countedMessage(message, event, statuses, gapQuestion));
  return rows.length > 0;
}

/**
 * The statement of both above. `charged`: a credit's step first (`k`), which the count's UPDATE
 * needs a row of, and what the statement returns instead of the message's id.
 */
function countedMessage(
  message: MessageRow,
  event: EventRow,
  statuses: ConversationRow['status'][] | null,
  gapQuestion: string | null,
  charged?: { credit: SQL; result: SQL },
) {
  const json = (v: unknown) => (v === null ? sql`null` : sql`${JSON.stringify(v)}::jsonb`);
  const tsz = (d: Date) => sql`${d.toISOString()}::timestamptz`;
  const allowed = statuses
    ? sql`and status in (${sql.join(
        statuses.map((s) => sql`${s}`),
        sql`, `,
      )})`
    : sql``;
  return sql`with ${charged?.credit ?? sql``}c as (
      update conversations
         set message_count = message_count + ${message.role === 'system' ? 0 : 1}, last_message_at = ${tsz(message.createdAt)},
             updated_at = ${tsz(message.createdAt)}${slaOnMessage(message)}${languageOnMessage(message)}
       where id = ${message.conversationId} ${allowed}${charged ? sql` and exists (select from k)` : sql``}
       returning id, channel, handed_off_at
    ), m as (
      insert into messages (id, workspace_id, conversation_id, role, content, original_content, author_id, status,
                            citations, tool_calls, usage, outcome, curated_answer_id, confidence, withheld,
                            created_at, gap_question)
      select ${message.id}, ${message.workspaceId}, c.id, ${message.role}, ${message.content},
             ${message.originalContent}, ${message.authorId}, ${message.status}, ${json(message.citations)},
             ${json(message.toolCalls)}, ${json(message.usage)}, ${message.outcome},
             ${message.curatedAnswerId}, ${message.confidence}, ${message.withheld},
             ${tsz(message.createdAt)}, ${gapQuestion}
        from c
      returning id
    ), e as (
      insert into events (id, workspace_id, type, data, created_at)
      select ${event.id}, ${event.workspaceId}, ${event.type}, ${json(event.data)}, ${tsz(event.createdAt)}
        from m, c
       where ${inInboxSql({ channel: sql`c.channel`, handedOffAt: sql`c.handed_off_at` })}
             ${message.withheld ? sql`and false` : sql``}
    )
    ${charged?.result ?? sql`select id from m`}`;
}

export async function setConversationStatus(
  db: Executor,
  workspaceId: string,
  id: string,
  status: ConversationRow['status'],
  at: Date,
): Promise<ConversationRow | undefined> {
  const [row] = await db
    .update(conversations)
    .set({ status, updatedAt: at, ...(status === 'closed' ? { endedAt: at } : {}) })
    .where(and(eq(conversations.id, id), eq(conversations.workspaceId, workspaceId)))
    .returning();
  return row;
}

/** Names the contact a conversation is with (the widget's lead form found or created it). */
export async function setConversationContact(
  db: Executor,
  workspaceId: string,
  conversationId: string,
  contactId: string,
  at: Date,
) {
  await db
    .update(conversations)
    .set({ contactId, updatedAt: at })
    .where(and(eq(conversations.id, conversationId), eq(conversations.workspaceId, workspaceId)));
}

/** Internal chats of one member with one assistant, newest first (keyset on created_at, id). */
export async function listChatConversations(
  db: Executor,
  q: {
    workspaceId: string;
    assistantId: string;
    userId: string;
    limit: number;
    after: CursorKey | undefined;
  },
) {
  const conds = [
    eq(conversations.workspaceId, q.workspaceId),
    eq(conversations.assistantId, q.assistantId),
    eq(conversations.startedBy, q.userId),
    eq(conversations.channel, 'chat'),
  ];
  if (q.after) {
    conds.push(
      sql`(${conversations.createdAt}, ${conversations.id}) < (${new Date(q.after.t).toISOString()}::timestamptz, ${q.after.id})`,
    );
  }
  return db
    .select()
    .from(conversations)
    .where(and(...conds))
    .orderBy(desc(conversations.createdAt), desc(conversations.id))
    .limit(q.limit + 1);
}

/**
 * A conversation's messages, oldest first (keyset on created_at, id), without withheld drafts: only
 * the inbox lists those (docs/measuring.md "Confidence").
 */
export async function listMessages(
  db: Executor,
  q: { workspaceId: string; conversationId: string; limit: number; after: CursorKey | undefined },
) {
  const conds = [
    eq(messages.workspaceId, q.workspaceId),
    eq(messages.conversationId, q.conversationId),
    eq(messages.withheld, false),
  ];
  if (q.after) {
    conds.push(
      sql`(${messages.createdAt}, ${messages.id}) > (${new Date(q.after.t).toISOString()}::timestamptz, ${q.after.id})`,
    );
  }
  return db
    .select()
    .from(messages)
    .where(and(...conds))
    .orderBy(asc(messages.createdAt), asc(messages.id))
    .limit(q.limit + 1);
}

/** An SMS reply's delivery as the provider last reported it (docs/sms.md "Replies and delivery status"). */
export type Delivery = { deliveryStatus: SmsDeliveryStatus | null; errorCode: string | null };

/** The delivery of those of `messageIds` that went out as SMS, by message id. */
export async function deliveriesOf(
  db: Executor,
  workspaceId: string,
  messageIds: string[],
): Promise<Map<string, Delivery>> {
  if (messageIds.length === 0) return new Map();
  const rows = await db
    .select({
      messageId: smsOutbound.messageId,
      deliveryStatus: smsOutbound.deliveryStatus,
      errorCode: smsOutbound.errorCode,
    })
    .from(smsOutbound)
    .where(and(eq(smsOutbound.workspaceId, workspaceId), inArray(smsOutbound.messageId, messageIds)))
    .orderBy(asc(smsOutbound.createdAt));
  // the latest send of a message wins
  return new Map(
    rows.map((r) => [r.messageId, { deliveryStatus: r.deliveryStatus, errorCode: r.errorCode }]),
  );
}

/** The newest messages of a conversation (for the model's history), newest first; no withheld draft. */
export async function recentMessages(
  db: Executor,
  workspaceId: string,
  conversationId: string,
  limit: number,
) {
  return db
    .select({
      id: messages.id,
      role: messages.role,
      content: messages.content,
      createdAt: messages.createdAt,
    })
    .from(messages)
    .where(
      and(
        eq(messages.workspaceId, workspaceId),
        eq(messages.conversationId, conversationId),
        eq(messages.withheld, false),
      ),
    )
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(limit);
}

/** The outcome of the conversation's latest AI reply (null when it has none, or none recorded). */
export async function lastReplyOutcome(db: Executor, c: Pick<ConversationRow, 'id' | 'workspaceId'>) {
  const [row] = await db
    .select({ outcome: messages.outcome })
    .from(messages)
    .where(
      and(
        eq(messages.workspaceId, c.workspaceId),
        eq(messages.conversationId, c.id),
        eq(messages.role, 'assistant'),
        eq(messages.withheld, false),
      ),
    )
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(1);
  return row?.outcome ?? null;
}

/** The internal chats a user started (the account export), oldest first. */
export async function chatsStartedBy(db: Executor, userId: string) {
  return db
    .select()
    .from(conversations)
    .where(and(eq(conversations.startedBy, userId), eq(conversations.channel, 'chat')))
    .orderBy(asc(conversations.createdAt), asc(conversations.id));
}

/** Every message of the given conversations, oldest first. */
export async function messagesOfConversations(db: Executor, conversationIds: string[]) {
  if (conversationIds.length === 0) return [];
  return db
    .select()
    .from(messages)
    .where(inArray(messages.conversationId, conversationIds))
    .orderBy(asc(messages.createdAt), asc(messages.id));
}

/** The replies a user wrote as a human agent, in any conversation (the account export). */
export async function agentMessagesBy(db: Executor, userId: string) {
  return db
    .select({ message: messages, workspaceId: conversations.workspaceId, channel: conversations.channel })
    .from(messages)
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .where(and(eq(messages.authorId, userId), eq(messages.role, 'agent')))
    .orderBy(asc(messages.createdAt), asc(messages.id));
}

/** A message with the conversation it belongs to (its workspace, assistant and channel). */
export async function messageWithConversation(db: Executor, messageId: string) {
  const [row] = await db
    .select({ message: messages, conversation: conversations })
    .from(messages)
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .where(eq(messages.id, messageId))
    .limit(1);
  return row;
}
