import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { namedStatement } from '../../db/prepared.ts';
import {
  CLAIM_PLACEHOLDERS,
  CREDIT_TAKEN,
  type CreditClaim,
  type Reserved,
  takeCreditSql,
} from '../credits/credits.repo.ts';
import type { EventRow } from '../events/events.service.ts';
import type { ConversationRow, MessageRow } from './conversations.repo.ts';

type Column<R> = readonly [key: keyof R & string, column: string, cast: string];

// Every column of the two rows, written as drizzle's insert of the whole row wrote them.
const CONVERSATION: readonly Column<ConversationRow>[] = [
  ['id', 'id', 'text'],
  ['workspaceId', 'workspace_id', 'text'],
  ['assistantId', 'assistant_id', 'text'],
  ['channel', 'channel', 'text'],
  ['status', 'status', 'text'],
  ['contactId', 'contact_id', 'text'],
  ['assigneeId', 'assignee_id', 'text'],
  ['startedBy', 'started_by', 'text'],
  ['title', 'title', 'text'],
  ['messageCount', 'message_count', 'int'],
  ['lastMessageAt', 'last_message_at', 'timestamptz'],
  ['handedOffAt', 'handed_off_at', 'timestamptz'],
  ['endedAt', 'ended_at', 'timestamptz'],
  ['waitingSince', 'waiting_since', 'timestamptz'],
  ['assignmentHeld', 'assignment_held', 'boolean'],
  ['csatRating', 'csat_rating', 'int'],
  ['csatComment', 'csat_comment', 'text'],
  ['csatRatedAt', 'csat_rated_at', 'timestamptz'],
  ['csatAskedAt', 'csat_asked_at', 'timestamptz'],
  ['slaPolicyId', 'sla_policy_id', 'text'],
  ['slaStartedAt', 'sla_started_at', 'timestamptz'],
  ['slaFirstDueAt', 'sla_first_due_at', 'timestamptz'],
  ['slaNextDueAt', 'sla_next_due_at', 'timestamptz'],
  ['slaResolutionDueAt', 'sla_resolution_due_at', 'timestamptz'],
  ['slaRepliedAt', 'sla_replied_at', 'timestamptz'],
  ['slaWaitingSince', 'sla_waiting_since', 'timestamptz'],
  ['slaBreaches', 'sla_breaches', 'jsonb'],
  ['handoffReason', 'handoff_reason', 'text'],
  ['handoffRuleId', 'handoff_rule_id', 'text'],
  ['aiResolution', 'ai_resolution', 'text'],
  ['aiResolutionAt', 'ai_resolution_at', 'timestamptz'],
  ['language', 'language', 'text'],
  ['labels', 'labels', 'jsonb'],
  ['createdAt', 'created_at', 'timestamptz'],
  ['updatedAt', 'updated_at', 'timestamptz'],
];
const MESSAGE: readonly Column<MessageRow>[] = [
  ['id', 'id', 'text'],
  ['workspaceId', 'workspace_id', 'text'],
  ['conversationId', 'conversation_id', 'text'],
  ['role', 'role', 'text'],
  ['content', 'content', 'text'],
  ['originalContent', 'original_content', 'text'],
  ['authorId', 'author_id', 'text'],
  ['status', 'status', 'text'],
  ['citations', 'citations', 'jsonb'],
  ['toolCalls', 'tool_calls', 'jsonb'],
  ['usage', 'usage', 'jsonb'],
  ['outcome', 'outcome', 'text'],
  ['curatedAnswerId', 'curated_answer_id', 'text'],
  ['confidence', 'confidence', 'real'],
  ['withheld', 'withheld', 'boolean'],
  ['createdAt', 'created_at', 'timestamptz'],
];

/**
 * `insert into <table> (<columns>) values (<placeholders with casts>)`, placeholders named
 * `<prefix><key>`; with `from`, `select <the same> from <from>`: one row for each of its rows.
 */
function insertRow<R>(table: string, cols: readonly Column<R>[], prefix: string, from?: string) {
  const names = sql.raw(cols.map(([, column]) => column).join(', '));
  const values = sql.join(
    cols.map(([key, , cast]) => sql`${sql.placeholder(prefix + key)}::${sql.raw(cast)}`),
    sql`, `,
  );
  return from
    ? sql`insert into ${sql.raw(table)} (${names}) select ${values} from ${sql.raw(from)}`
    : sql`insert into ${sql.raw(table)} (${names}) values (${values})`;
}

/** The row's values for insertRow's placeholders: timestamps as ISO text, JSON as text, nulls as null. */
function rowValues<R>(row: R, cols: readonly Column<R>[], prefix: string, into: Record<string, unknown>) {
  for (const [key, , cast] of cols) {
    const v = row[key] as unknown;
    into[prefix + key] =
      v === null || v === undefined
        ? null
        : cast === 'timestamptz'
          ? (v as Date).toISOString()
          : cast === 'jsonb'
            ? JSON.stringify(v)
            : v;
  }
  return into;
}

const EVENTS = sql`select x.id, x.workspace_id, x.type, x.data, x.created_at
    from jsonb_to_recordset(${sql.placeholder('events')}::jsonb)
         as x(id text, workspace_id text, type text, data jsonb, created_at timestamptz)`;

// The start of every chat: written by hand once and named (db/prepared.ts), not built by drizzle
// on each call (about 0.5 ms of CPU a chat in a profile, docs/performance.md "Chat capacity").
// The events come as one JSON array: a new conversation records none (a private chat) or two.
const startWithoutEvents = namedStatement(
  'parley_conversation_start',
  sql`with c as (${insertRow('conversations', CONVERSATION, 'c_')} returning id)
      ${insertRow('messages', MESSAGE, 'm_')}`,
);
const startWithEvents = namedStatement(
  'parley_conversation_start_events',
  sql`with c as (${insertRow('conversations', CONVERSATION, 'c_')} returning id),
      m as (${insertRow('messages', MESSAGE, 'm_')} returning id)
      insert into events (id, workspace_id, type, data, created_at) ${EVENTS}`,
);
/** A chat turn's start with its credit: a named statement (`chargedStart`). */
export type ChargedStart = (db: Executor, values: Record<string, unknown>) => Promise<Reserved[]>;

/**
 * A channel's own write in the statement that starts a conversation (the widget binds its session
 * to it): `statement` from `chargedStart` with the channel's CTEs, and their placeholders' values.
 */
export type StartTail = { statement: ChargedStart; values: Record<string, unknown> };

/**
 * A chat turn's start with its credit (chat/turn.ts): the rows only if the credit was taken (`from
 * k`), the events only with the message (`, m`); the credit's row back, none when none was left.
 * `tail`: more CTEs of a channel's, after `c` (the new conversation's id: `from c` writes only when
 * it was stored), their values as placeholders named apart from the rows' (`c_`, `m_`), the claim's
 * and `events`. Built once, when the module that names it loads.
 */
export function chargedStart(name: string, tail?: SQL): ChargedStart {
  return namedStatement<Reserved>(
    name,
    sql`with k as (${takeCreditSql(CLAIM_PLACEHOLDERS)}),
      c as (${insertRow('conversations', CONVERSATION, 'c_', 'k')} returning id),
      m as (${insertRow('messages', MESSAGE, 'm_', 'c')} returning id),
      e as (insert into events (id, workspace_id, type, data, created_at) ${EVENTS}, m)${tail ? sql`, ${tail}` : sql``}
      select ${CREDIT_TAKEN} from k`,
  );
}

const startCharged = chargedStart('parley_conversation_start_charged');

/**
 * A new conversation with its first message and their events, in one statement (data-modifying
 * WITH: all or nothing without a transaction, one round trip on the chat's hot path).
 */
export async function insertConversationWithMessage(
  db: Executor,
  conversation: ConversationRow,
  message: MessageRow,
  rows: EventRow[],
) {
  const values = startValues(conversation, message, rows);
  // No events (a new internal chat is private, visibility.ts): the message is the statement.
  await (rows.length === 0 ? startWithoutEvents(db, values) : startWithEvents(db, values));
}

/**
 * The same, with one credit taken first in the same statement (credits.repo.ts `takeCreditSql`):
 * nothing is stored when none is left (undefined back), and no credit is taken if the rows fail;
 * with a channel's `tail` written in that statement too.
 */
export async function insertConversationCharged(
  db: Executor,
  conversation: ConversationRow,
  message: MessageRow,
  rows: EventRow[],
  claim: CreditClaim,
  tail?: StartTail,
): Promise<Reserved | undefined> {
  const values = startValues(conversation, message, rows);
  // The claim's placeholders are its own names, which the rows' prefixed ones never take.
  Object.assign(values, claim, tail?.values);
  const [row] = await (tail?.statement ?? startCharged)(db, values);
  return row;
}

function startValues(conversation: ConversationRow, message: MessageRow, rows: EventRow[]) {
  const values = rowValues(message, MESSAGE, 'm_', rowValues(conversation, CONVERSATION, 'c_', {}));
  values.events = JSON.stringify(
    rows.map((e) => ({
      id: e.id,
      workspace_id: e.workspaceId,
      type: e.type,
      data: e.data,
      created_at: e.createdAt.toISOString(),
    })),
  );
  return values;
}
