import { sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.ts';

/**
 * The analytics queries (docs/analytics.md "How each figure is computed"). Every one filters by
 * workspace and by `created_at >= since`, and reads an index made for it (migration 0008, and
 * docs/analytics.md "Indexes"); days are UTC days.
 */

const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;
const utcDay = (column: string) => sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`);

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
    sql`select ${utcDay('created_at')} as day, channel,
               count(*)::int as conversations,
               count(*) filter (where handed_off_at is not null)::int as "handedOff",
               count(*) filter (where handed_off_at is null and message_count >= 2)::int as resolved
          from conversations
         where workspace_id = ${workspaceId} and created_at >= ${at(since)}
         group by 1, 2`,
  );
}

/** AI replies stored per UTC day: one credit each (docs/credits.md). messages_ai_day_idx. */
export function aiRepliesByDay(db: Executor, workspaceId: string, since: Date) {
  return queryRows<{ day: string; replies: number }>(
    db,
    sql`select ${utcDay('created_at')} as day, count(*)::int as replies
          from messages
         where workspace_id = ${workspaceId} and created_at >= ${at(since)}
           and role = 'assistant' and status <> 'failed'
         group by 1`,
  );
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

/**
 * Greetings, thanks and farewells on their own: an answer to them cites nothing, and they are not
 * questions the knowledge lacks (docs/analytics.md "Knowledge gaps").
 */
const PLEASANTRY =
  '^(hi|hello|hey|hiya|howdy|yo|good (morning|afternoon|evening|night)|thanks|thank you|thank you very much|thx|ty|cheers|ok|okay|great|cool|bye|goodbye|see you)( there| so much| again)?$';
/** The normalised question: lower case, single spaces, no trailing punctuation, 300 characters. */
const QUESTION = sql`left(rtrim(lower(regexp_replace(btrim(u.content), '[[:space:]]+', ' ', 'g')), ' ?!.'), 300)`;

export type GapRow = { question: string; count: number; lastAskedAt: Date | string };

/**
 * The AI replies that cited no passage and called no tool but `search_knowledge`
 * (messages_gap_idx), each with the customer's message it answered, grouped by that message
 * normalised: the most frequent first. Returns the top `limit` and the number of such replies.
 */
export async function knowledgeGaps(db: Executor, workspaceId: string, since: Date, limit: number) {
  const rows = await queryRows<GapRow & { total: number }>(
    db,
    sql`with gaps as (
          select a.conversation_id, a.created_at, a.id
            from messages a
           where a.workspace_id = ${workspaceId} and a.created_at >= ${at(since)}
             and a.role = 'assistant' and a.status <> 'failed' and a.citations = '[]'::jsonb
             and not jsonb_path_exists(a.tool_calls, '$[*] ? (@.toolName != "search_knowledge")')
        ), asked as (
          select q.question, g.created_at
            from gaps g
            cross join lateral (
              select ${QUESTION} as question
                from messages u
               where u.conversation_id = g.conversation_id and u.role = 'user'
                 and (u.created_at, u.id) <= (g.created_at, g.id)
               order by u.created_at desc, u.id desc
               limit 1) q
           where q.question !~ ${PLEASANTRY} and q.question <> ''
        ), grouped as (
          select question, count(*)::int as count, max(created_at) as "lastAskedAt"
            from asked group by question
        )
        select question, count, "lastAskedAt", (select count(*)::int from asked) as total
          from grouped
         order by count desc, "lastAskedAt" desc, question
         limit ${limit}`,
  );
  const total = rows[0]?.total ?? 0;
  return { total, rows: rows.map(({ total: _, ...r }) => r) };
}

export type ChannelRow = { channel: string; conversations: number; inbound: number; outbound: number };

/**
 * Messages of the period per channel of their conversation: inbound (the customer's) and outbound
 * (the AI's and people's; a reply that failed was never sent), and the conversations they belong
 * to. Counted per conversation first, then per channel.
 */
export function channelCounts(db: Executor, workspaceId: string, since: Date) {
  return queryRows<ChannelRow>(
    db,
    sql`with per as (
          select conversation_id,
                 count(*) filter (where role = 'user') as inbound,
                 count(*) filter (where role in ('assistant', 'agent')) as outbound
            from messages
           where workspace_id = ${workspaceId} and created_at >= ${at(since)} and status <> 'failed'
           group by conversation_id
        )
        select c.channel, count(*)::int as conversations, sum(per.inbound)::int as inbound,
               sum(per.outbound)::int as outbound
          from per join conversations c on c.id = per.conversation_id
         group by c.channel`,
  );
}
