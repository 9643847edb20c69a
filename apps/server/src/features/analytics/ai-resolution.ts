import { sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { queryRows } from '../../db/client.ts';
import type { Job } from '../../jobs/catalog.ts';
import { now } from '../../lib/clock.ts';

/**
 * Whether the AI resolved a conversation (docs/measuring.md "Resolution";
 * docs/decisions/0031-ai-resolution.md). The rule, written once as SQL over the alias `c` for
 * `conversations`, is read by the `ai-resolution` job that settles it and by the AI analytics
 * (ai-analytics.repo.ts) for the conversations not settled yet.
 */

/** Days after a conversation ended before its resolution settles. */
export const SETTLE_DAYS = 7;
const settleAfter = sql.raw(`interval '${SETTLE_DAYS} days'`);

/** An AI reply the customer got: the assistant's, not failed, not a draft held back. */
export const sentAiReply = sql`m.role = 'assistant' and m.status <> 'failed' and not m.withheld`;

/** The conversation has at least one AI reply the customer got. */
export const involved = sql`exists (select 1 from messages m where m.conversation_id = c.id and ${sentAiReply})`;

/**
 * Everything the rule needs but the 7 days: ended, never handed to a person (`handed_off_at` is
 * never cleared), never reopened, no customer message after the end, and the last AI reply
 * `answered` or `curated`.
 */
export const resolvedSoFar = sql`(c.ended_at is not null
  and c.handed_off_at is null
  and not exists (select 1 from conversation_changes ch where ch.conversation_id = c.id and ch.kind = 'reopen')
  and not exists (select 1 from messages u where u.conversation_id = c.id and u.role = 'user'
                   and u.created_at > c.ended_at)
  and coalesce((select m.outcome from messages m where m.conversation_id = c.id and ${sentAiReply}
                 order by m.created_at desc, m.id desc limit 1) in ('answered', 'curated'), false))`;

/**
 * The settlement still holds: made 7 days or more after the conversation's current end. A
 * conversation reopened since has no end (or a later one): its settlement no longer counts.
 */
export const settled = sql`coalesce(c.ai_resolution is not null and c.ended_at is not null
  and c.ai_resolution_at >= c.ended_at + ${settleAfter}, false)`;

/** Conversations settled or cleared per statement. */
const BATCH = 200;
/**
 * Conversations that ended before this many days ago are no longer settled: they started before
 * the longest period (90 days) and no figure reads them.
 */
const OLDEST_DAYS = 97;

const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/**
 * Settles up to BATCH involved conversations whose 7 days have passed at `when` and that are not
 * settled (or were reopened and ended again since): `resolved` or `unresolved`, at `when`. Rows
 * are claimed FOR UPDATE SKIP LOCKED and re-checked on their latest version, so two processes
 * running it at once settle each conversation once. Returns the ids it settled.
 */
export async function settleDue(ctx: Pick<AppContext, 'db'>, when: Date = now()): Promise<string[]> {
  const due = new Date(when.getTime() - SETTLE_DAYS * 86_400_000);
  const oldest = new Date(when.getTime() - OLDEST_DAYS * 86_400_000);
  const rows = await queryRows<{ id: string }>(
    ctx.db,
    sql`with picked as (
          select c.id from conversations c
           where c.ended_at is not null and c.ended_at <= ${at(due)} and c.ended_at >= ${at(oldest)}
             and not ${settled} and ${involved}
           order by c.ended_at, c.id
           limit ${BATCH}
             for update of c skip locked
        )
        update conversations c
           set ai_resolution = case when ${resolvedSoFar} then 'resolved' else 'unresolved' end,
               ai_resolution_at = ${at(when)}
          from picked
         where c.id = picked.id
        returning c.id`,
  );
  return rows.map((r) => r.id);
}

/**
 * Clears the settlement of up to BATCH conversations reopened since they settled (no end now):
 * they leave the figures at once (the analytics read `settled`), and this keeps the column true.
 */
export async function clearReopened(ctx: Pick<AppContext, 'db'>): Promise<number> {
  const rows = await queryRows<{ id: string }>(
    ctx.db,
    sql`with picked as (
          select c.id from conversations c
           where c.ai_resolution is not null and c.ended_at is null
           limit ${BATCH}
             for update of c skip locked
        )
        update conversations c set ai_resolution = null, ai_resolution_at = null
          from picked
         where c.id = picked.id and c.ended_at is null
        returning c.id`,
  );
  return rows.length;
}

/** One pass at `when` (the clock's now by default); true while a batch came back full. */
export async function aiResolutionStep(ctx: Pick<AppContext, 'db'>, when: Date = now()): Promise<boolean> {
  const cleared = await clearReopened(ctx);
  const settledNow = await settleDue(ctx, when);
  return cleared === BATCH || settledNow.length === BATCH;
}

/**
 * The `ai-resolution` job (jobs/catalog.ts): settles how the AI's part of each conversation ended
 * once 7 days passed after it ended. Every process may run it: rows are claimed with SKIP LOCKED.
 */
export function aiResolutionJob(ctx: AppContext): Job {
  return { step: () => aiResolutionStep(ctx) };
}
