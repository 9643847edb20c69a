import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { conversations, messages } from '../../db/schema/index.ts';
import type { CursorKey } from '../../http/pagination.ts';

export type ConversationRow = typeof conversations.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;

export async function insertConversation(db: Executor, row: typeof conversations.$inferInsert) {
  const [created] = await db.insert(conversations).values(row).returning();
  return created as ConversationRow;
}

export async function findConversation(db: Executor, id: string): Promise<ConversationRow | undefined> {
  const [row] = await db.select().from(conversations).where(eq(conversations.id, id)).limit(1);
  return row;
}

export async function insertMessage(db: Executor, row: typeof messages.$inferInsert) {
  const [created] = await db.insert(messages).values(row).returning();
  return created as MessageRow;
}

/** Counts a new message on its conversation (one statement: concurrent appends never lose a count). */
export async function touchConversation(db: Executor, id: string, at: Date) {
  await db
    .update(conversations)
    .set({ messageCount: sql`${conversations.messageCount} + 1`, lastMessageAt: at, updatedAt: at })
    .where(eq(conversations.id, id));
}

export async function setConversationStatus(
  db: Executor,
  id: string,
  status: ConversationRow['status'],
  at: Date,
): Promise<ConversationRow | undefined> {
  const [row] = await db
    .update(conversations)
    .set({ status, updatedAt: at, ...(status === 'closed' ? { endedAt: at } : {}) })
    .where(eq(conversations.id, id))
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
  q: { assistantId: string; userId: string; limit: number; after: CursorKey | undefined },
) {
  const conds = [
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

/** A conversation's messages, oldest first (keyset on created_at, id). */
export async function listMessages(
  db: Executor,
  q: { conversationId: string; limit: number; after: CursorKey | undefined },
) {
  const conds = [eq(messages.conversationId, q.conversationId)];
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

/** The newest messages of a conversation (for the model's history), newest first. */
export async function recentMessages(db: Executor, conversationId: string, limit: number) {
  return db
    .select({ role: messages.role, content: messages.content, createdAt: messages.createdAt })
    .from(messages)
    .where(eq(messages.conversationId, conversationId))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(limit);
}
