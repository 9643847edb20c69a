import { and, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.ts';
import { preparedFor } from '../../db/prepared.ts';
import {
  assistants,
  conversations,
  messages,
  users,
  widgetConfigs,
  widgetFeedback,
  widgetSessions,
  widgetUsage,
  workspaces,
} from '../../db/schema/index.ts';
import { chargedStart, type StartTail } from '../conversations/conversations.repo.ts';
import { namespacesJson } from '../knowledge/projects/projects.repo.ts';
import { hasRealtimeSources } from '../knowledge/sources/sources.repo.ts';

/**
 * Data access of the public widget (docs/widget.md). The public entry point is an assistant id: the
 * first query resolves its workspace, and every later one filters by that workspace or by the
 * session, which belongs to exactly one workspace.
 */

export type WidgetConfigRow = typeof widgetConfigs.$inferSelect;
export type WidgetSessionRow = typeof widgetSessions.$inferSelect;

/** Timestamps go in as ISO text with an explicit cast: identical on node-postgres and PGlite. */
const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/**
 * Everything the three-layer check (widget-access.ts) and a chat's start need, in one statement:
 * the assistant, its widget configuration (null: never configured), its workspace's plan fields,
 * what a reply needs of its knowledge before retrieving (as assistants.repo.ts reads it for the
 * internal chat), the session whose token hashes to `tokenHash` (null: none, or no token given)
 * and that session's conversation (a visitor's next message
 * continues it). Every widget request runs it: prepared once (db/prepared.ts).
 */
const widgetTarget = preparedFor((db) =>
  db
    .select({
      assistant: assistants,
      config: widgetConfigs,
      plan: workspaces.plan,
      trialEndsAt: workspaces.trialEndsAt,
      billingStatus: workspaces.billingStatus,
      monthlyCredits: workspaces.monthlyCredits,
      defaultLanguage: workspaces.defaultLanguage,
      namespaces: namespacesJson(assistants.id),
      hasRealtime: hasRealtimeSources(assistants.id),
      session: widgetSessions,
      conversation: conversations,
    })
    .from(assistants)
    .innerJoin(workspaces, eq(workspaces.id, assistants.workspaceId))
    .leftJoin(widgetConfigs, eq(widgetConfigs.assistantId, assistants.id))
    // By unique keys alone, so that even a plan made while the tables were empty reads one row
    // each; the caller checks that the session is this assistant's and the conversation this
    // workspace's (widget-access.ts).
    .leftJoin(widgetSessions, eq(widgetSessions.tokenHash, sql.placeholder('tokenHash')))
    .leftJoin(conversations, eq(conversations.id, widgetSessions.conversationId))
    .where(eq(assistants.id, sql.placeholder('id')))
    .limit(1)
    .prepare('parley_widget_target'),
);

/** See widgetTarget; `tokenHash` null: no session is read. */
export async function findWidgetTarget(db: Executor, assistantId: string, tokenHash: string | null = null) {
  const [row] = await widgetTarget(db).execute({ id: assistantId, tokenHash });
  return row;
}

/**
 * Only what an answer's CORS headers need (widget-access.ts lookupGrantedOrigin, the preflight):
 * whether the assistant exists and its widget's allowlist (null: never configured). An error
 * answered before the check (a shed 503, a 429) reads this, not the chat's read above.
 */
const widgetOrigins = preparedFor((db) =>
  db
    .select({ allowedDomains: widgetConfigs.allowedDomains })
    .from(assistants)
    .leftJoin(widgetConfigs, eq(widgetConfigs.assistantId, assistants.id))
    .where(eq(assistants.id, sql.placeholder('id')))
    .limit(1)
    .prepare('parley_widget_origins'),
);

export async function findWidgetOrigins(db: Executor, assistantId: string) {
  const [row] = await widgetOrigins(db).execute({ id: assistantId });
  return row;
}

/** Does any enabled widget admit one of `entries` (widget-origin.ts matchingEntries)? */
export async function anyEnabledWidgetAllows(db: Executor, entries: string[]): Promise<boolean> {
  const list = sql.join(
    entries.map((e) => sql`${e}`),
    sql`, `,
  );
  const rows = await queryRows(
    db,
    sql`select 1 from widget_configs where is_enabled and allowed_domains && array[${list}]::text[] limit 1`,
  );
  return rows.length > 0;
}

export async function insertSession(db: Executor, row: typeof widgetSessions.$inferInsert) {
  const [created] = await db.insert(widgetSessions).values(row).returning();
  return created as WidgetSessionRow;
}

export async function findSessionByTokenHash(db: Executor, tokenHash: string) {
  const [row] = await db
    .select()
    .from(widgetSessions)
    .where(eq(widgetSessions.tokenHash, tokenHash))
    .limit(1);
  return row;
}

/** A session addressed inside its workspace (every query below filters by both). */
export type SessionRef = { workspaceId: string; id: string };
const sessionIs = (s: SessionRef) =>
  and(eq(widgetSessions.workspaceId, s.workspaceId), eq(widgetSessions.id, s.id));

export async function touchSession(db: Executor, s: SessionRef, when: Date) {
  await db.update(widgetSessions).set({ lastActivityAt: when }).where(sessionIs(s));
}

// The session bound to the conversation its first message starts, in the statement that stores
// that message with its credit (conversation-start.ts `chargedStart`): `from c` binds only a stored
// conversation, and a session already bound keeps its own. With `u`, the message is also counted on
// its assistant's day (a plan without a daily quota, widget-limits.ts `uncounted`).
const BIND = sql`b as (update widget_sessions s set conversation_id = c.id from c
    where s.workspace_id = ${sql.placeholder('b_workspace')} and s.id = ${sql.placeholder('b_session')}
      and s.conversation_id is null returning s.id)`;
const COUNT = sql`u as (insert into widget_usage (assistant_id, day, count)
    select ${sql.placeholder('b_assistant')}, ${sql.placeholder('b_day')}::text, 1 from c
    on conflict (assistant_id, day) do update set count = widget_usage.count + 1 returning 1)`;
const startBound = chargedStart('parley_conversation_start_widget', BIND);
const startBoundCounted = chargedStart('parley_conversation_start_widget_counted', sql`${BIND}, ${COUNT}`);

/** A widget turn's new conversation, bound to its session as it is stored (and counted, with `count`). */
export function sessionBinding(s: SessionRef, count?: { assistantId: string; day: string }): StartTail {
  const values = { b_workspace: s.workspaceId, b_session: s.id };
  return count
    ? {
        statement: startBoundCounted,
        values: { ...values, b_assistant: count.assistantId, b_day: count.day },
      }
    : { statement: startBound, values };
}

export async function linkContact(db: Executor, s: SessionRef, contactId: string) {
  await db.update(widgetSessions).set({ contactId }).where(sessionIs(s));
}

/** Ends an active session; undefined when it had already ended (the caller reads it instead). */
export async function endSession(db: Executor, s: SessionRef, when: Date) {
  const [row] = await db
    .update(widgetSessions)
    .set({ status: 'ended', endedAt: when })
    .where(and(sessionIs(s), eq(widgetSessions.status, 'active')))
    .returning();
  return row;
}

/** The active session bound to a conversation, if any (a member closing it ends it). */
export async function findActiveSessionOfConversation(
  db: Executor,
  c: { workspaceId: string; id: string },
): Promise<SessionRef | undefined> {
  const [row] = await db
    .select({ workspaceId: widgetSessions.workspaceId, id: widgetSessions.id })
    .from(widgetSessions)
    .where(
      and(
        eq(widgetSessions.workspaceId, c.workspaceId),
        eq(widgetSessions.conversationId, c.id),
        eq(widgetSessions.status, 'active'),
      ),
    )
    .limit(1);
  return row;
}

/** A session with the message count of its conversation (0 before the first message). */
export async function findSessionWithCount(db: Executor, s: SessionRef) {
  const [row] = await db
    .select({ session: widgetSessions, messageCount: conversations.messageCount })
    .from(widgetSessions)
    .leftJoin(conversations, eq(conversations.id, widgetSessions.conversationId))
    .where(sessionIs(s))
    .limit(1);
  return row ? { session: row.session, messageCount: row.messageCount ?? 0 } : undefined;
}

/**
 * The visible messages of a conversation, oldest first, with the agent's name for human replies
 * (docs/widget.md "Form A: the init flow"): the newest `limit`, system notes left out.
 */
export async function historyRows(db: Executor, s: SessionRef & { conversationId: string }, limit: number) {
  const rows = await db
    .select({
      id: messages.id,
      role: messages.role,
      content: messages.content,
      citations: messages.citations,
      createdAt: messages.createdAt,
      authorName: users.name,
      authorAvatarUrl: users.avatarUrl,
    })
    .from(messages)
    .leftJoin(users, eq(users.id, messages.authorId))
    .where(
      and(
        eq(messages.workspaceId, s.workspaceId),
        eq(messages.conversationId, s.conversationId),
        ne(messages.role, 'system'),
        eq(messages.withheld, false),
      ),
    )
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(limit);
  return rows.reverse();
}

/** An AI or agent message of the conversation (a feedback target), or undefined. */
export async function findReplyMessage(
  db: Executor,
  s: SessionRef & { conversationId: string },
  messageId: string,
) {
  const [row] = await db
    .select({ id: messages.id })
    .from(messages)
    .where(
      and(
        eq(messages.id, messageId),
        eq(messages.workspaceId, s.workspaceId),
        eq(messages.conversationId, s.conversationId),
        inArray(messages.role, ['assistant', 'agent']),
        eq(messages.withheld, false),
      ),
    )
    .limit(1);
  return row;
}

export async function insertFeedback(db: Executor, row: typeof widgetFeedback.$inferInsert) {
  const [created] = await db.insert(widgetFeedback).values(row).returning();
  return created!;
}

/**
 * Counts one widget message against the assistant's daily quota in one conditional statement
 * (docs/widget.md "Limits"): concurrent messages on any number of processes never pass the quota together.
 * Returns the new count, or undefined when the quota is already used up. `limit` null: no quota.
 */
export async function countMessage(db: Executor, assistantId: string, day: string, limit: number | null) {
  const guard = limit === null ? sql`` : sql`where widget_usage.count < ${limit}`;
  const rows = await queryRows<{ count: number }>(
    db,
    sql`insert into widget_usage (assistant_id, day, count) values (${assistantId}, ${day}, 1)
        on conflict (assistant_id, day) do update set count = widget_usage.count + 1 ${guard}
        returning count`,
  );
  return rows[0] ? Number(rows[0].count) : undefined;
}

/** Gives a counted message back (the turn was refused before anything was stored). */
export async function uncountMessage(db: Executor, assistantId: string, day: string) {
  await db
    .update(widgetUsage)
    .set({ count: sql`greatest(${widgetUsage.count} - 1, 0)` })
    .where(and(eq(widgetUsage.assistantId, assistantId), eq(widgetUsage.day, day)));
}

/**
 * Active sessions idle past their widget's timeout (docs/widget.md "Inactivity": default 30 minutes), locked
 * for this transaction; SKIP LOCKED lets every process run the sweep. Idle means no visitor activity
 * and no message in its conversation (an agent's reply keeps the session open).
 */
export async function lockIdleSessions(tx: Executor, when: Date, limit: number): Promise<SessionRef[]> {
  const rows = await queryRows<{ id: string; workspace_id: string }>(
    tx,
    sql`select s.id, s.workspace_id from widget_sessions s
        left join widget_configs c on c.assistant_id = s.assistant_id
        left join conversations v on v.id = s.conversation_id
        where s.status = 'active'
          and s.last_activity_at < ${at(when)} - interval '1 minute'
          and greatest(s.last_activity_at, coalesce(v.last_message_at, s.last_activity_at))
              + make_interval(mins => coalesce(c.session_timeout_minutes, 30)) <= ${at(when)}
        order by s.last_activity_at
        limit ${limit}
        for update of s skip locked`,
  );
  return rows.map((r) => ({ workspaceId: r.workspace_id, id: r.id }));
}
