import { sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.ts';
import { involved, resolvedSoFar, sentAiReply, settled } from './ai-resolution.ts';

/**
 * The queries of the AI analytics (docs/analytics.md "AI analytics"): the conversations of one
 * workspace started since `since` (optionally one assistant's), and the AI replies stored since
 * then. conversations_workspace_idx and messages_ai_day_idx narrow them to the workspace.
 */

const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;
const ofAssistant = (assistantId: string | undefined) =>
  assistantId ? sql`and c.assistant_id = ${assistantId}` : sql``;

export type AiDayRow = {
  day: string;
  conversations: number;
  involved: number;
  resolved: number;
  pending: number;
  /** Involved conversations whose settlement holds: the rate's denominator. */
  settled: number;
  handoffs: number;
  customer_asked: number;
  rule: number;
  low_confidence: number;
  declined: number;
  agent: number;
};

/**
 * The reason a handed-off conversation counts under: the one stored, else (a person released it
 * back to the AI, which clears the reason) the kind of its last change into `handoff`: a
 * takeover is `agent`, anything else `customer_asked` (docs/decisions/0031-ai-resolution.md).
 */
const reason = sql`case when c.handed_off_at is null then null
  when c.handoff_reason is not null then c.handoff_reason
  else coalesce((select case ch.kind when 'takeover' then 'agent' else 'customer_asked' end
                   from conversation_changes ch
                  where ch.conversation_id = c.id and ch.status = 'handoff'
                  order by ch.created_at desc, ch.id desc limit 1), 'customer_asked') end`;

const byReason = (r: string) => sql.raw(`count(*) filter (where reason = '${r}')::int as ${r}`);

/** Per UTC day of creation: the conversation counts of the AI analytics. */
export function aiConversationsByDay(
  db: Executor,
  workspaceId: string,
  since: Date,
  assistantId: string | undefined,
) {
  return queryRows<AiDayRow>(
    db,
    sql`with f as (
          select to_char((c.created_at at time zone 'UTC')::date, 'YYYY-MM-DD') as day,
                 ${involved} as involved, ${settled} as settled,
                 c.ai_resolution, c.id, c.ended_at, c.handed_off_at, c.handoff_reason
            from conversations c
           where c.workspace_id = ${workspaceId} and c.created_at >= ${at(since)} ${ofAssistant(assistantId)}
        ), g as (
          select c.day, c.involved, c.settled, c.ai_resolution, c.handed_off_at,
                 case when c.involved and not c.settled then ${resolvedSoFar} else false end as candidate,
                 ${reason} as reason
            from f c
        )
        select day, count(*)::int as conversations,
               count(*) filter (where involved)::int as involved,
               count(*) filter (where involved and settled and ai_resolution = 'resolved')::int as resolved,
               count(*) filter (where candidate)::int as pending,
               count(*) filter (where involved and settled)::int as settled,
               count(*) filter (where handed_off_at is not null)::int as handoffs,
               ${byReason('customer_asked')}, ${byReason('rule')}, ${byReason('low_confidence')},
               ${byReason('declined')}, ${byReason('agent')}
          from g
         group by day`,
  );
}

/** AI replies the customer got since `since`, by outcome. */
export function aiOutcomes(db: Executor, workspaceId: string, since: Date, assistantId: string | undefined) {
  const join = assistantId
    ? sql`join conversations c on c.id = m.conversation_id and c.workspace_id = ${workspaceId} ${ofAssistant(assistantId)}`
    : sql``;
  return queryRows<{ outcome: string; replies: number }>(
    db,
    sql`select m.outcome, count(*)::int as replies
          from messages m ${join}
         where m.workspace_id = ${workspaceId} and m.created_at >= ${at(since)} and ${sentAiReply}
           and m.outcome is not null
         group by m.outcome`,
  );
}
