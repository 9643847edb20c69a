import type { ServiceFigure } from '@parley/contract/service-analytics';
import { type SQL, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.ts';

/**
 * The queries of the service report (docs/analytics.md "Service"): ratings, SLA clocks and the
 * times to a person's reply and to closing, of one workspace since `since`. Each figure's
 * conversations are named once (`FIGURES`), so the CSV lists exactly those a figure counts
 * (docs/decisions/0038-service-analytics.md). Aggregates are computed in the database.
 */

const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;
/** A timestamp as ISO 8601 in UTC, as the API writes times. */
const iso = (column: string) =>
  sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);
const utcDate = (column: string) => sql.raw(`to_char((${column} at time zone 'UTC')::date, 'YYYY-MM-DD')`);

/** A person's first reply after the (first) handoff, for the conversation `c`. */
const firstReply = sql`(select min(m.created_at) from messages m
   where m.conversation_id = c.id and m.role = 'agent' and m.created_at >= c.handed_off_at)`;

const breached = sql`jsonb_array_length(c.sla_breaches) > 0`;
/** Clocks started in the period under a policy that still exists. */
const slaStarted = (since: Date) => sql`c.sla_policy_id is not null and c.sla_started_at >= ${at(since)}`;

/**
 * What each figure counts over the conversations `c` (with `fr`, the first reply, joined): the
 * aggregates and the CSV share these conditions.
 */
const FIGURES: Record<ServiceFigure, (since: Date) => SQL> = {
  csat: (since) => sql`c.csat_rating is not null and c.csat_rated_at >= ${at(since)}`,
  sla_breached: (since) => sql`${slaStarted(since)} and ${breached}`,
  sla_met: (since) => sql`${slaStarted(since)} and c.status = 'closed' and not ${breached}`,
  first_response: (since) => sql`c.handed_off_at >= ${at(since)} and fr.at is not null`,
  resolution: (since) =>
    sql`c.status = 'closed' and c.ended_at >= ${at(since)} and c.handed_off_at is not null
        and c.ended_at >= c.handed_off_at`,
};

const withFirstReply = sql`cross join lateral (select ${firstReply} as at) fr`;

type Avg = { responses: number; average: number | null };

/** The ratings of the period: all, the satisfied ones, by assignee and by assistant. */
export async function csatFigures(db: Executor, workspaceId: string, since: Date) {
  const where = sql`c.workspace_id = ${workspaceId} and ${FIGURES.csat(since)}`;
  const [totals, byAgent, byAssistant] = await Promise.all([
    queryRows<Avg & { satisfied: number }>(
      db,
      sql`select count(*)::int as responses, avg(c.csat_rating)::float8 as average,
                 count(*) filter (where c.csat_rating >= 4)::int as satisfied
            from conversations c where ${where}`,
    ),
    queryRows<Avg & { user_id: string | null; name: string | null }>(
      db,
      sql`select c.assignee_id as user_id, min(u.name) as name, count(*)::int as responses,
                 avg(c.csat_rating)::float8 as average
            from conversations c left join users u on u.id = c.assignee_id
           where ${where}
           group by c.assignee_id
           order by (c.assignee_id is null), count(*) desc, min(u.name), c.assignee_id`,
    ),
    queryRows<Avg & { assistant_id: string; name: string }>(
      db,
      sql`select c.assistant_id, min(a.name) as name, count(*)::int as responses,
                 avg(c.csat_rating)::float8 as average
            from conversations c join assistants a on a.id = c.assistant_id
           where ${where}
           group by c.assistant_id
           order by count(*) desc, min(a.name), c.assistant_id`,
    ),
  ]);
  return { totals: totals[0] ?? { responses: 0, average: null, satisfied: 0 }, byAgent, byAssistant };
}

/** Every SLA policy of the workspace, in the order one is chosen, with its settled clocks of the period. */
export function slaFigures(db: Executor, workspaceId: string, since: Date) {
  return queryRows<{ policy_id: string; name: string; met: number; breached: number }>(
    db,
    sql`select p.id as policy_id, p.name,
               count(c.id) filter (where ${FIGURES.sla_met(since)})::int as met,
               count(c.id) filter (where ${FIGURES.sla_breached(since)})::int as breached
          from sla_policies p
          left join conversations c on c.sla_policy_id = p.id and c.workspace_id = ${workspaceId}
                and ${slaStarted(since)}
         where p.workspace_id = ${workspaceId}
         group by p.id, p.name, p.priority, p.created_at
         order by p.priority, p.created_at, p.id`,
  );
}

/** The medians, in seconds: handoff to a person's first reply, and handoff to closing. */
export async function medians(db: Executor, workspaceId: string, since: Date) {
  const [first, resolution] = await Promise.all([
    queryRows<{ median: number | null }>(
      db,
      sql`select percentile_cont(0.5) within group (order by extract(epoch from fr.at - c.handed_off_at))::float8 as median
            from conversations c ${withFirstReply}
           where c.workspace_id = ${workspaceId} and ${FIGURES.first_response(since)}`,
    ),
    queryRows<{ median: number | null }>(
      db,
      sql`select percentile_cont(0.5) within group (order by extract(epoch from c.ended_at - c.handed_off_at))::float8 as median
            from conversations c
           where c.workspace_id = ${workspaceId} and ${FIGURES.resolution(since)}`,
    ),
  ]);
  return { firstResponse: first[0]?.median ?? null, resolution: resolution[0]?.median ?? null };
}

/** Per UTC day: the ratings given and their mean, and the SLA breaches whose due time fell on it. */
export async function serviceByDay(db: Executor, workspaceId: string, since: Date) {
  const [ratings, breaches] = await Promise.all([
    queryRows<Avg & { day: string }>(
      db,
      sql`select ${utcDate('c.csat_rated_at')} as day, count(*)::int as responses,
                 avg(c.csat_rating)::float8 as average
            from conversations c
           where c.workspace_id = ${workspaceId} and ${FIGURES.csat(since)}
           group by 1`,
    ),
    queryRows<{ day: string; breaches: number }>(
      db,
      sql`select ${utcDate("(b.value->>'at')::timestamptz")} as day, count(*)::int as breaches
            from conversations c cross join lateral jsonb_array_elements(c.sla_breaches) b
           where c.workspace_id = ${workspaceId} and ${breached}
             and (b.value->>'at')::timestamptz >= ${at(since)}
           group by 1`,
    ),
  ]);
  return { ratings, breaches };
}

export type ServiceCsvRow = {
  id: string;
  assistant: string;
  assignee: string | null;
  channel: string;
  handed_off_at: string | null;
  first_response_at: string | null;
  closed_at: string | null;
  rating: number | null;
  comment: string | null;
  policy: string | null;
  breaches: Array<{ kind: string; at: string }>;
};

/** The conversations behind one figure, oldest first by the figure's own time, at most `limit`. */
export function figureConversations(
  db: Executor,
  workspaceId: string,
  since: Date,
  figure: ServiceFigure,
  limit: number,
) {
  const order: Record<ServiceFigure, string> = {
    csat: 'c.csat_rated_at',
    sla_breached: 'c.sla_started_at',
    sla_met: 'c.sla_started_at',
    first_response: 'c.handed_off_at',
    resolution: 'c.ended_at',
  };
  return queryRows<ServiceCsvRow>(
    db,
    sql`select c.id, a.name as assistant, u.name as assignee, c.channel,
               ${iso('c.handed_off_at')} as handed_off_at, ${iso('fr.at')} as first_response_at,
               case when c.status = 'closed' then ${iso('c.ended_at')} end as closed_at,
               c.csat_rating as rating, c.csat_comment as comment, p.name as policy,
               c.sla_breaches as breaches
          from conversations c ${withFirstReply}
          join assistants a on a.id = c.assistant_id
          left join users u on u.id = c.assignee_id
          left join sla_policies p on p.id = c.sla_policy_id
         where c.workspace_id = ${workspaceId} and ${FIGURES[figure](since)}
         order by ${sql.raw(order[figure])}, c.id
         limit ${limit}`,
  );
}
