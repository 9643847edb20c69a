import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { conversations, messages, smsSessions } from '../../db/schema/index.ts';
import type { ConversationRow } from '../conversations/conversations.repo.ts';

/** The SQL of satisfaction surveys (docs/csat.md). */

/** Whether a person answered in the conversation (an `agent` message). */
export async function personReplied(db: Executor, workspaceId: string, conversationId: string) {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(messages)
    .where(
      and(
        eq(messages.workspaceId, workspaceId),
        eq(messages.conversationId, conversationId),
        eq(messages.role, 'agent'),
      ),
    )
    .limit(1);
  return !!row;
}

/** Stores the rating unless there is one; undefined when it was rated already (a second rating). */
export async function storeRating(
  tx: Executor,
  ref: { workspaceId: string; id: string },
  rating: { rating: number; comment: string | null; at: Date },
): Promise<ConversationRow | undefined> {
  const [row] = await tx
    .update(conversations)
    .set({
      csatRating: rating.rating,
      csatComment: rating.comment,
      csatRatedAt: rating.at,
      csatAskedAt: null,
    })
    .where(
      and(
        eq(conversations.workspaceId, ref.workspaceId),
        eq(conversations.id, ref.id),
        isNull(conversations.csatRatedAt),
      ),
    )
    .returning();
  return row as ConversationRow | undefined;
}

/** When the question went out by SMS; null: the customer's next message answered it or not. */
export async function setAsked(db: Executor, ref: { workspaceId: string; id: string }, at: Date | null) {
  await db
    .update(conversations)
    .set({ csatAskedAt: at })
    .where(and(eq(conversations.workspaceId, ref.workspaceId), eq(conversations.id, ref.id)));
}

/**
 * The SMS conversation of this number with the assistant whose question went out after `since`
 * and is not answered yet, if any: the customer's next message may be its rating.
 */
export async function askedBySms(
  db: Executor,
  workspaceId: string,
  assistantId: string,
  phone: string,
  since: Date,
): Promise<ConversationRow | undefined> {
  const [row] = await db
    .select({ c: conversations })
    .from(conversations)
    .innerJoin(smsSessions, eq(smsSessions.conversationId, conversations.id))
    .where(
      and(
        eq(conversations.workspaceId, workspaceId),
        eq(smsSessions.assistantId, assistantId),
        eq(smsSessions.phoneNumber, phone),
        gt(conversations.csatAskedAt, since),
        isNull(conversations.csatRatedAt),
      ),
    )
    .orderBy(desc(conversations.csatAskedAt))
    .limit(1);
  return row?.c as ConversationRow | undefined;
}
