import { sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.ts';

/**
 * The analytics queries (docs/analytics.md "How each figure is computed"). Every one filters by
 * workspace and by `created_at >= since`, and reads an index made for it (migration 0008, and
 * docs/analytics.md "Indexes"); days are UTC days.
 */

const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;
/**
 * The UTC day of a timestamp, as a date: grouped on this, and formatted once per group (to_char
 * on every row cost more than the scan).
 */
const utcDay = (column: string) => sql.raw(`(${column} at time zone 'UTC')::date`);

export type ConversationDayRow = {
  day: string;
  channel: string;
  conversations: number;
  handedOff: number;
  resolved: number;
};

/**
 * Conversations started per UTC day and channel; of them, those a person was asked for or took
 * over (`handed_off_at` set), and those that got an answer with no person (none set, and at least
 * the customer's message and one reply). An index-only scan of conversations_analytics_idx.
 */
export function conversationsByDay(db: Executor, workspaceId: string, since: Date) {
  return queryRows<ConversationDayRow>(
    db,
    sql`select to_char(d, 'YYYY-MM-DD') as day, channel, conversations, "handedOff", resolved
          from (select ${utcDay('created_at')} as d, channel,
                       count(*)::int as conversations,
                       count(*) filter (where handed_off_at is not null)::int as "handedOff",
                       count(*) filter (where handed_off_at is null and message_count >= 2)::int as resolved
                  from conversations
                 where workspace_id = ${workspaceId} and created_at >= ${at(since)}
                 group by 1, 2) g`,
  );
}

/** AI replies stored per UTC day: one credit each (docs/credits.md). messages_ai_day_idx. */
export function aiRepliesByDay(db: Executor, workspaceId: string, since: Date) {
  return queryRows<{ day: string; replies: number }>(
    db,
    sql`select to_char(d, 'YYYY-MM-DD') as day, replies
          from (select ${utcDay('created_at')} as d, count(*)::int as replies
                  from messages
                 where workspace_id = ${workspaceId} and created_at >= ${at(since)}
                   and role = 'assistant' and status <> 'failed'
                 group by 1) g`,
  );
}

/** AI replies of the period, in all (messages_ai_day_idx). */
export async function aiReplies(db: Executor, workspaceId: string, since: Date) {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from messages
         where workspace_id = ${workspaceId} and created_at >= ${at(since)}
           and role = 'assistant' and status <> 'failed'`,
  );
  return row?.n ?? 0;
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

export type GapRow = { question: string; count: number; lastAskedAt: Date | string };

/**
 * The questions of the period's knowledge gaps, recorded on each gap reply when it was stored
 * (`gap_question`, features/analytics/gaps.ts), the most frequent first, and how many such
 * replies there were: one index-only scan of messages_gap_question_idx.
 */
export async function knowledgeGaps(db: Executor, workspaceId: string, since: Date, limit: number) {
  const rows = await queryRows<GapRow & { total: number }>(
    db,
    sql`select gap_question as question, count(*)::int as count, max(created_at) as "lastAskedAt",
               (sum(count(*)) over ())::int as total
          from messages
         where workspace_id = ${workspaceId} and created_at >= ${at(since)} and gap_question is not null
         group by gap_question
         order by count desc, "lastAskedAt" desc, question
         limit ${limit}`,
  );
  const total = rows[0]?.total ?? 0;
  return { total, rows: rows.map(({ total: _, ...r }) => r) };
}

/**
 * Messages of the period per channel of their conversation: inbound (the customer's) and outbound
 * (the AI's and people's; a reply that failed was never sent). An index-only scan of
 * messages_volume_idx joined to the workspace's conversations active in the period (their channel).
 */
export function channelMessages(db: Executor, workspaceId: string, since: Date) {
  return queryRows<{ channel: string; inbound: number; outbound: number }>(
    db,
    sql`with c as (
          select id, channel from conversations
           where workspace_id = ${workspaceId} and last_message_at >= ${at(since)}
        )
        select c.channel,
               count(*) filter (where m.role = 'user')::int as inbound,
               count(*) filter (where m.role in ('assistant', 'agent'))::int as outbound
          from messages m join c on c.id = m.conversation_id
         where m.workspace_id = ${workspaceId} and m.created_at >= ${at(since)} and m.status <> 'failed'
         group by c.channel`,
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
