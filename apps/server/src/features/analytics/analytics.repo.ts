import { sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.ts';
import { messageVolume, sentMessage } from '../../db/message-volume.ts';
import { MAX_QUESTION } from './gaps.ts';

/**
 * The analytics queries (docs/analytics.md "How each figure is computed"). Every one filters by
 * workspace and by `created_at >= since`; the per-day series read closed days from the per-day
 * counters (rollup.ts, migration 0014) and the rest from the base tables with an index made for
 * them (migrations 0008 and 0012, docs/analytics.md "Indexes"); days are UTC days.
 */

const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;
/** The UTC date of the period's first day. */
const sinceDay = (since: Date) => sql`${since.toISOString().slice(0, 10)}::date`;
/**
 * The UTC day of a timestamp, as a date: grouped on this, and formatted once per group (to_char
 * on every row cost more than the scan).
 */
const utcDay = (column: string) => sql.raw(`(${column} at time zone 'UTC')::date`);

/** The last UTC day rolled up for the workspace (rollup.ts), or null: none yet. */
export async function rolledThrough(db: Executor, workspaceId: string): Promise<string | null> {
  const [row] = await queryRows<{ through: string | null }>(
    db,
    sql`select through::text as through from analytics_rollups where workspace_id = ${workspaceId}`,
  );
  return row?.through ?? null;
}

/**
 * A period for the per-day series: from `since`, with the days up to `through` (rolledThrough)
 * rolled up. Days up to `through` that are not marked (`dd`) come from analytics_daily; the tail
 * after `through`, and the marked days, from the base tables by the same rules. `through` is read
 * before the query: the job only ever moves it on, so the days up to it stay rolled up when the
 * query runs, and the marks and counters are read in the query's own snapshot.
 */
export type Span = { since: Date; through: string | null };

const DAY_MS = 86_400_000;
/** Where the live tail begins: the day after `through`, or `since`. A literal, for the planner. */
const tailOf = (span: Span) =>
  span.through === null
    ? span.since
    : new Date(Math.max(span.since.getTime(), Date.parse(`${span.through}T00:00:00Z`) + DAY_MS));

const through = (span: Span) => sql`${span.through}::date`;

/** The marked days among the period's rolled-up ones. */
const marked = (workspaceId: string, span: Span) =>
  sql`dd as (select day from analytics_dirty
              where workspace_id = ${workspaceId} and day >= ${sinceDay(span.since)} and day <= ${through(span)})`;

/** analytics_daily's rows of the period's rolled-up days that are not marked. */
const dailyOf = (workspaceId: string, span: Span) =>
  sql`analytics_daily d where d.workspace_id = ${workspaceId} and d.day >= ${sinceDay(span.since)}
        and d.day <= ${through(span)} and d.day not in (select day from dd)`;

/** A marked day's range of `column`, joined to dd (`dd.day`). */
const inMarkedDay = (column: string) =>
  sql`${sql.raw(column)} >= dd.day::timestamp at time zone 'UTC'
      and ${sql.raw(column)} < (dd.day + 1)::timestamp at time zone 'UTC'`;

export type ConversationDayRow = {
  day: string;
  channel: string;
  conversations: number;
  handedOff: number;
  resolved: number;
};

const conversationCounts = sql`count(*)::int as conversations,
  count(*) filter (where c.handed_off_at is not null)::int as "handedOff",
  count(*) filter (where c.handed_off_at is null and c.message_count >= 2)::int as resolved`;

/**
 * Conversations started per UTC day and channel; of them, those a person was asked for or took
 * over (`handed_off_at` set), and those that got an answer with no person (none set, and at least
 * the customer's message and one reply). Live days: conversations_analytics_idx, index-only.
 */
export function conversationsByDay(db: Executor, workspaceId: string, span: Span) {
  return queryRows<ConversationDayRow>(
    db,
    sql`with ${marked(workspaceId, span)}
        select to_char(d, 'YYYY-MM-DD') as day, channel, conversations, "handedOff", resolved
          from (select d.day as d, d.channel, d.conversations, d.handed_off as "handedOff", d.resolved
                  from ${dailyOf(workspaceId, span)} and d.conversations > 0
                union all
                select ${utcDay('c.created_at')}, c.channel, ${conversationCounts}
                  from conversations c
                 where c.workspace_id = ${workspaceId} and c.created_at >= ${at(tailOf(span))}
                 group by 1, 2
                union all
                select ${utcDay('c.created_at')}, c.channel, ${conversationCounts}
                  from dd join conversations c
                    on c.workspace_id = ${workspaceId} and ${inMarkedDay('c.created_at')}
                 group by 1, 2) g`,
  );
}

/** AI replies stored per UTC day: one credit each (docs/credits.md). Live days: messages_ai_day_idx. */
export function aiRepliesByDay(db: Executor, workspaceId: string, span: Span) {
  const ai = sql`m.role = 'assistant' and ${sentMessage}`;
  return queryRows<{ day: string; replies: number }>(
    db,
    sql`with ${marked(workspaceId, span)}
        select to_char(d, 'YYYY-MM-DD') as day, replies
          from (select d.day as d, sum(d.ai_replies)::int as replies
                  from ${dailyOf(workspaceId, span)}
                 group by 1 having sum(d.ai_replies) > 0
                union all
                select ${utcDay('m.created_at')}, count(*)::int
                  from messages m
                 where m.workspace_id = ${workspaceId} and m.created_at >= ${at(tailOf(span))} and ${ai}
                 group by 1
                union all
                select ${utcDay('m.created_at')}, count(*)::int
                  from dd join messages m
                    on m.workspace_id = ${workspaceId} and ${inMarkedDay('m.created_at')} and ${ai}
                 group by 1) g`,
  );
}

/** AI replies of the period, in all. */
export async function aiReplies(db: Executor, workspaceId: string, span: Span) {
  const days = await aiRepliesByDay(db, workspaceId, span);
  return days.reduce((n, d) => n + d.replies, 0);
}

/** Widget thumbs of the period (`up` / `down`). widget_feedback_workspace_idx. */
export async function feedbackCounts(db: Executor, workspaceId: string, since: Date) {
  const [row] = await queryRows<{ positive: number; negative: number }>(
    db,
    sql`select count(*) filter (where rating = 'up')::int as positive,
               count(*) filter (where rating = 'down')::int as negative
          from widget_feedback
         where workspace_id = ${workspaceId} and created_at >= ${at(since)}`,
  );
  return row ?? { positive: 0, negative: 0 };
}

export type GapRow = { question: string; asked: string | null; count: number; lastAskedAt: Date | string };

/**
 * The questions of the period's knowledge gaps, recorded on each gap reply when it was stored
 * (`gap_question`, features/analytics/gaps.ts), the most frequent first, and how many such
 * replies there were: one index-only scan of messages_gap_question_idx. `asked` is the customer's
 * own wording of the most recent one (the key is lowercased, without its question mark): the
 * customer message before that reply, found by its time (the same index, then
 * messages_conversation_idx), once per listed question.
 */
export async function knowledgeGaps(db: Executor, workspaceId: string, since: Date, limit: number) {
  const rows = await queryRows<GapRow & { total: number }>(
    db,
    sql`with g as (
          select gap_question as question, count(*)::int as count, max(created_at) as "lastAskedAt",
                 (sum(count(*)) over ())::int as total
            from messages
           where workspace_id = ${workspaceId} and created_at >= ${at(since)} and gap_question is not null
           group by gap_question
           order by count desc, "lastAskedAt" desc, question
           limit ${limit}
        )
        select g.*, left(regexp_replace(btrim(a.content), '[[:space:]]+', ' ', 'g'), ${MAX_QUESTION}) as asked
          from g
          left join lateral (
            select u.content
              from messages r
              join lateral (
                select content from messages u
                 where u.conversation_id = r.conversation_id and u.role = 'user'
                   and u.created_at <= r.created_at
                 order by u.created_at desc, u.id desc
                 limit 1
              ) u on true
             where r.workspace_id = ${workspaceId} and r.created_at = g."lastAskedAt"
               and r.gap_question = g.question
             order by r.id desc
             limit 1
          ) a on true
         order by g.count desc, g."lastAskedAt" desc, g.question`,
  );
  const total = rows[0]?.total ?? 0;
  return { total, rows: rows.map(({ total: _, ...r }) => r) };
}

/**
 * Messages of the period per channel of their conversation: inbound (the customer's) and outbound
 * (the AI's and people's; a reply that failed was never sent: db/message-volume.ts). Live days: every message of the
 * tail, joined to the workspace's conversations active since it began (their channel).
 */
export function channelMessages(db: Executor, workspaceId: string, span: Span) {
  return queryRows<{ channel: string; inbound: number; outbound: number }>(
    db,
    sql`with ${marked(workspaceId, span)},
        c as (
          select id, channel from conversations
           where workspace_id = ${workspaceId} and last_message_at >= ${at(tailOf(span))}
        )
        select channel, sum(inbound)::int as inbound, sum(outbound)::int as outbound
          from (select d.channel, sum(d.inbound) as inbound, sum(d.outbound) as outbound
                  from ${dailyOf(workspaceId, span)}
                 group by 1
                union all
                select c.channel, ${messageVolume}
                  from messages m join c on c.id = m.conversation_id
                 where m.workspace_id = ${workspaceId} and m.created_at >= ${at(tailOf(span))}
                   and ${sentMessage}
                 group by 1
                union all
                select cv.channel, ${messageVolume}
                  from dd join messages m
                    on m.workspace_id = ${workspaceId} and ${inMarkedDay('m.created_at')}
                  join conversations cv on cv.id = m.conversation_id
                 where ${sentMessage}
                 group by 1) g
         group by channel`,
  );
}

/** Conversations with a message in the period (their last one is in it), per channel. */
export function activeConversations(db: Executor, workspaceId: string, since: Date) {
  return queryRows<{ channel: string; conversations: number }>(
    db,
    sql`select channel, count(*)::int as conversations
          from conversations
         where workspace_id = ${workspaceId} and last_message_at >= ${at(since)}
         group by channel`,
  );
}
