import { sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { type Executor, queryRows } from '../../db/client.ts';
import { messageVolume, sentMessage } from '../../db/message-volume.ts';
import type { Job } from '../../jobs/catalog.ts';

/**
 * The per-day counters (docs/analytics.md "Per-day counters"; docs/decisions/0022-analytics.md
 * "Per-day counters"): `analytics_daily` holds, per workspace, closed UTC day and channel, what
 * the analytics endpoints count, so a 90-day view reads about 90 rows per series.
 *
 * - `analytics_rollups.through`: every day up to it is rolled up. The job rolls a workspace up to
 *   the day before yesterday (the database's UTC date): yesterday and today stay live, so a
 *   writer that started on a day has a full day to commit before that day is read from here.
 * - `analytics_dirty`: days that changed after they ended (a handoff or a reply in an older
 *   conversation, a row written late or deleted), marked by triggers in the same transaction as
 *   the change (migration 0014). A marked day is counted live until the job rolls it up again.
 *
 * Reads (analytics.repo.ts) take rolled days that are not marked from here and every other day
 * from the base tables, in one statement: the figures are the live computation's whether or not
 * the job has run.
 */

/** The oldest day kept: the longest period is 90 days, today included. */
const KEEP_DAYS = 90;
/** The days a workspace's counters hold, `through` included: `through` is today - 2, the oldest today - 90. */
export const ROLLED_DAYS = KEEP_DAYS - 1;
/** Workspaces rolled up per pass, each in its own transaction. */
const BATCH = 20;

const dayStart = (day: string) => sql`(${day}::date)::timestamp at time zone 'UTC'`;
const utcDay = (column: string) => sql.raw(`(${column} at time zone 'UTC')::date`);

/** The counters of the days `from`..`to` (dates, inclusive) of one workspace, as rows to insert. */
async function rollDays(tx: Executor, workspaceId: string, from: string, to: string) {
  const start = dayStart(from);
  const end = sql`((${to}::date + 1)::timestamp at time zone 'UTC')`;
  await tx.execute(sql`
    insert into analytics_daily (workspace_id, day, channel, conversations, handed_off, resolved,
                                 ai_replies, inbound, outbound)
    select ${workspaceId}, coalesce(c.day, m.day), coalesce(c.channel, m.channel),
           coalesce(c.conversations, 0), coalesce(c.handed_off, 0), coalesce(c.resolved, 0),
           coalesce(m.ai_replies, 0), coalesce(m.inbound, 0), coalesce(m.outbound, 0)
      from (select ${utcDay('created_at')} as day, channel, count(*)::int as conversations,
                   count(*) filter (where handed_off_at is not null)::int as handed_off,
                   count(*) filter (where handed_off_at is null and message_count >= 2)::int as resolved
              from conversations
             where workspace_id = ${workspaceId} and created_at >= ${start} and created_at < ${end}
             group by 1, 2) c
      full join
           (select ${utcDay('m.created_at')} as day, cv.channel,
                   count(*) filter (where m.role = 'assistant')::int as ai_replies,
                   ${messageVolume}
              from messages m join conversations cv on cv.id = m.conversation_id
             where m.workspace_id = ${workspaceId} and m.created_at >= ${start} and m.created_at < ${end}
               and ${sentMessage}
             group by 1, 2) m
        on m.day = c.day and m.channel = c.channel`);
}

type Claimed = { workspaceId: string; through: string | null; target: string; oldest: string };

/**
 * Rolls up one workspace that is behind or has marked days, if one is free: its watermark row is
 * claimed FOR UPDATE SKIP LOCKED, so two processes never roll the same workspace at once. Its
 * marks are deleted before the days are counted, in a later statement: a change that holds a
 * mark's lock is committed before the DELETE returns, so the counting sees it; a mark inserted
 * meanwhile stays for the next pass. false: nothing to do.
 */
export async function rollupOne(tx: Executor): Promise<boolean> {
  const [claimed] = await queryRows<Claimed>(
    tx,
    sql`with today as (select (now() at time zone 'UTC')::date as d)
        select r.workspace_id as "workspaceId", r.through::text as through,
               ((select d from today) - 2)::text as target,
               ((select d from today) - ${KEEP_DAYS}::int)::text as oldest
          from analytics_rollups r
         where r.through is null or r.through < (select d from today) - 2
            or exists (select 1 from analytics_dirty m
                        where m.workspace_id = r.workspace_id and m.day <= (select d from today) - 2)
         order by r.through nulls first, r.workspace_id
         limit 1
           for update of r skip locked`,
  );
  if (!claimed) return false;
  const { workspaceId, target, oldest } = claimed;
  const marked = await queryRows<{ day: string }>(
    tx,
    sql`delete from analytics_dirty where workspace_id = ${workspaceId} and day <= ${target}::date
        returning day::text as day`,
  );
  const through = claimed.through && claimed.through >= oldest ? claimed.through : null;
  // Days not rolled yet (the first run: the last 89 closed days, the backfill), then marked ones.
  const fresh = through === null ? oldest : nextDay(through);
  const again = marked.map((m) => m.day).filter((d) => d >= oldest && (through === null || d <= through));
  const days = [...new Set(again)].filter((d) => d < fresh && /^\d{4}-\d{2}-\d{2}$/.test(d));
  await tx.execute(sql`
    delete from analytics_daily
     where workspace_id = ${workspaceId}
       and (day < ${oldest}::date or day >= ${fresh}::date
            or day = any(${dateArray(days)}))`);
  if (fresh <= target) await rollDays(tx, workspaceId, fresh, target);
  for (const day of days) await rollDays(tx, workspaceId, day, day);
  await tx.execute(sql`
    update analytics_rollups set through = ${target}::date, rolled_at = now()
     where workspace_id = ${workspaceId}`);
  return true;
}

/** Dates as a literal array: each came from PostgreSQL's own `day::text` (checked above). */
const dateArray = (days: string[]) => sql.raw(`array[${days.map((d) => `'${d}'`).join(',')}]::date[]`);

function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

/**
 * One pass: every workspace gets its watermark row, then up to BATCH workspaces are rolled up,
 * each in its own transaction. true while there may be more.
 */
export async function rollupStep(ctx: Pick<AppContext, 'db'>): Promise<boolean> {
  await ctx.db.execute(sql`
    insert into analytics_rollups (workspace_id)
    select w.id from workspaces w
     where not exists (select 1 from analytics_rollups r where r.workspace_id = w.id)
    on conflict do nothing`);
  for (let i = 0; i < BATCH; i++) {
    if (!(await ctx.db.transaction((tx) => rollupOne(tx)))) return false;
  }
  return true;
}

/**
 * The `analytics-rollup` job (jobs/catalog.ts): every process may run it, workspaces are claimed
 * with SKIP LOCKED. The figures never wait for it: a day it has not rolled up is counted live.
 */
export function analyticsRollupJob(ctx: AppContext): Job {
  return { step: () => rollupStep(ctx) };
}
