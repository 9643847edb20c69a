import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { contacts, messages, type SuggestionStatus, suggestions } from '../../db/schema/index.ts';
import type { Owner } from './steering.repo.ts';

/** Suggestions from the team's answers (docs/measuring.md "Suggestions"), each owned by an assistant of a workspace. */
export type SuggestionRow = typeof suggestions.$inferSelect;
export type SuggestionInsert = typeof suggestions.$inferInsert;

const owned = (o: Owner) =>
  and(eq(suggestions.workspaceId, o.workspaceId), eq(suggestions.assistantId, o.assistantId));

/** Newest first, of one status or all. */
export async function listSuggestions(
  db: Executor,
  owner: Owner,
  query: { status?: SuggestionStatus; limit: number; offset: number },
): Promise<{ rows: SuggestionRow[]; total: number }> {
  const where = and(owned(owner), query.status ? eq(suggestions.status, query.status) : undefined);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(suggestions)
      .where(where)
      .orderBy(desc(suggestions.createdAt), desc(suggestions.id))
      .limit(query.limit)
      .offset(query.offset),
    db.select({ n: count() }).from(suggestions).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

export async function findSuggestion(
  db: Executor,
  owner: Owner,
  id: string,
  opts: { lock?: boolean } = {},
): Promise<SuggestionRow | undefined> {
  const q = db
    .select()
    .from(suggestions)
    .where(and(eq(suggestions.id, id), owned(owner)))
    .limit(1);
  const [row] = opts.lock ? await q.for('update') : await q;
  return row;
}

/** Settles an open suggestion; undefined when it is not open (any more). */
export async function settleSuggestion(
  db: Executor,
  owner: Owner,
  id: string,
  to: { status: Exclude<SuggestionStatus, 'open'>; curatedAnswerId?: string },
): Promise<SuggestionRow | undefined> {
  const [row] = await db
    .update(suggestions)
    .set({ ...to, updatedAt: sql`now()` })
    .where(and(eq(suggestions.id, id), owned(owner), eq(suggestions.status, 'open')))
    .returning();
  return row;
}

/** Stores new suggestions; a question that already has one keeps it (the unique question_message_id). */
export async function insertSuggestions(
  db: Executor,
  rows: Array<SuggestionInsert & { workspaceId: string }>,
): Promise<number> {
  if (rows.length === 0) return 0;
  const added = await db
    .insert(suggestions)
    .values(rows)
    .onConflictDoNothing({ target: suggestions.questionMessageId })
    .returning({ id: suggestions.id });
  return added.length;
}

/** What the suggestions of a conversation are read from: its customers', AI's and people's messages, oldest first. */
export async function messagesForSuggestions(
  db: Executor,
  ref: { workspaceId: string; conversationId: string },
) {
  return db
    .select({
      id: messages.id,
      role: messages.role,
      content: messages.content,
      outcome: messages.outcome,
      confidence: messages.confidence,
      withheld: messages.withheld,
    })
    .from(messages)
    .where(
      and(
        eq(messages.workspaceId, ref.workspaceId),
        eq(messages.conversationId, ref.conversationId),
        inArray(messages.role, ['user', 'assistant', 'agent']),
      ),
    )
    .orderBy(asc(messages.createdAt), asc(messages.id));
}

/** The contact's own values, which a suggestion masks. */
export async function contactValues(db: Executor, workspaceId: string, contactId: string) {
  const [row] = await db
    .select({
      name: contacts.name,
      email: contacts.email,
      phone: contacts.phone,
      customFields: contacts.customFields,
    })
    .from(contacts)
    .where(and(eq(contacts.id, contactId), eq(contacts.workspaceId, workspaceId)))
    .limit(1);
  return row;
}
