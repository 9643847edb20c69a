import { and, eq, inArray, lte, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { namedStatement, preparedFor } from '../../db/prepared.ts';
import { workspaceCredits, workspaces } from '../../db/schema/index.ts';

/**
 * Data access for credits (docs/credits.md; docs/decisions/0005-credits.md). The counter row changes only
 * through single conditional statements, so concurrent replies on any number of processes can never
 * spend past the limit (docs/decisions/0005-credits.md). Every query filters by workspace.
 */

export type Period = { start: Date; end: Date };
export type CreditRow = typeof workspaceCredits.$inferSelect;

/** Timestamps go in as ISO text with an explicit cast: identical on node-postgres and PGlite. */
const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/** What decides the allowance: the plan in force and the agreed figure. */
// Read before every credit reservation: prepared once (db/prepared.ts).
const allowanceOf = preparedFor((db) =>
  db
    .select({
      id: workspaces.id,
      name: workspaces.name,
      plan: workspaces.plan,
      trialEndsAt: workspaces.trialEndsAt,
      billingStatus: workspaces.billingStatus,
      monthlyCredits: workspaces.monthlyCredits,
    })
    .from(workspaces)
    .where(eq(workspaces.id, sql.placeholder('id')))
    .limit(1)
    .prepare('parley_credit_allowance'),
);

export async function findWorkspace(db: Executor, workspaceId: string) {
  const [row] = await allowanceOf(db).execute({ id: workspaceId });
  return row;
}

/** The credit row as a reservation leaves it (its timestamps as epoch milliseconds: the same on both drivers). */
export type Reserved = {
  periodStart: number;
  periodEnd: number;
  used: number;
  alert80For: number | null;
  alert100For: number | null;
};

/** What taking one credit needs: the workspace, its limit, the current period, the time (ISO text). */
export type CreditClaim = {
  workspaceId: string;
  limit: number;
  periodStart: string;
  periodEnd: string;
  now: string;
};

const ms = (column: string) => sql.raw(`(extract(epoch from ${column}) * 1000)::float8`);

/**
 * One credit, as SQL for a statement of its own or the first step of a data-modifying WITH
 * (beginTurn's, conversation-start.ts): creates the row for a new workspace, starts the new period
 * when the stored one has ended (the reset never waits for the scheduler), and otherwise adds one
 * only while `used < limit`. ON CONFLICT DO UPDATE locks the row and re-checks its WHERE against
 * the latest version, so two processes cannot both take the last credit. No row back: none left.
 * `v`: each value, a parameter (the claim itself) or a named placeholder (`CLAIM_PLACEHOLDERS`).
 */
export function takeCreditSql(v: Record<keyof CreditClaim, unknown>): SQL {
  const now = sql`${v.now}::timestamptz`;
  const ended = sql`workspace_credits.period_end <= ${now}`;
  return sql`insert into workspace_credits (workspace_id, period_start, period_end, used, updated_at)
    values (${v.workspaceId}::text, ${v.periodStart}::timestamptz, ${v.periodEnd}::timestamptz, 1, ${now})
    on conflict (workspace_id) do update
       set period_start = case when ${ended} then excluded.period_start else workspace_credits.period_start end,
           period_end = case when ${ended} then excluded.period_end else workspace_credits.period_end end,
           used = case when ${ended} then 1 else workspace_credits.used + 1 end,
           updated_at = ${now}
     where ${ended} or workspace_credits.used < ${v.limit}::int
    returning ${ms('workspace_credits.period_start')} as "periodStart", ${ms('workspace_credits.period_end')} as "periodEnd",
              workspace_credits.used, ${ms('workspace_credits.alert80_for')} as "alert80For",
              ${ms('workspace_credits.alert100_for')} as "alert100For"`;
}

/** takeCreditSql's values as placeholders of their own names, for a named statement. */
export const CLAIM_PLACEHOLDERS: Record<keyof CreditClaim, unknown> = {
  workspaceId: sql.placeholder('workspaceId'),
  limit: sql.placeholder('limit'),
  periodStart: sql.placeholder('periodStart'),
  periodEnd: sql.placeholder('periodEnd'),
  now: sql.placeholder('now'),
};

/** The credit's columns of a statement that took one (`select ${CREDIT_TAKEN} from k`). */
export const CREDIT_TAKEN = sql.raw(
  'k."periodStart", k."periodEnd", k.used, k."alert80For", k."alert100For"',
);

// Every AI reply that is not a chat turn's (translations) runs it: named once (db/prepared.ts).
const reserveStatement = namedStatement<Reserved>('parley_credit_reserve', takeCreditSql(CLAIM_PLACEHOLDERS));

/** One credit in a statement of its own (takeCreditSql); undefined: none left. */
export async function reserve(db: Executor, claim: CreditClaim): Promise<Reserved | undefined> {
  const [row] = await reserveStatement(db, claim);
  return row;
}

/** Gives one credit back, only within the period it was taken from and never below zero. */
export async function refund(db: Executor, workspaceId: string, periodStart: Date, now: Date) {
  await db
    .update(workspaceCredits)
    .set({ used: sql`${workspaceCredits.used} - 1`, updatedAt: now })
    .where(
      and(
        eq(workspaceCredits.workspaceId, workspaceId),
        sql`${workspaceCredits.periodStart} = ${at(periodStart)}`,
        sql`${workspaceCredits.used} > 0`,
      ),
    );
}

/**
 * Claims the 80% or 100% alert of the current period: the conditional UPDATE succeeds for exactly
 * one caller per period, whichever process it runs in. Claiming 100% also claims 80%, so a
 * workspace that jumps past both hears only the one that matters. Returns the row when claimed.
 */
export async function claimAlert(
  tx: Executor,
  workspaceId: string,
  level: 80 | 100,
  threshold: number,
  now: Date,
) {
  const column = level === 100 ? workspaceCredits.alert100For : workspaceCredits.alert80For;
  const set =
    level === 100
      ? {
          alert100For: sql`${workspaceCredits.periodStart}`,
          alert80For: sql`${workspaceCredits.periodStart}`,
        }
      : { alert80For: sql`${workspaceCredits.periodStart}` };
  const [row] = await tx
    .update(workspaceCredits)
    .set(set)
    .where(
      and(
        eq(workspaceCredits.workspaceId, workspaceId),
        sql`${workspaceCredits.periodEnd} > ${at(now)}`,
        sql`${workspaceCredits.used} >= ${threshold}`,
        sql`${column} is distinct from ${workspaceCredits.periodStart}`,
      ),
    )
    .returning({ used: workspaceCredits.used, periodEnd: workspaceCredits.periodEnd });
  return row;
}

export async function findCredits(db: Executor, workspaceId: string): Promise<CreditRow | undefined> {
  const [row] = await db
    .select()
    .from(workspaceCredits)
    .where(eq(workspaceCredits.workspaceId, workspaceId))
    .limit(1);
  return row;
}

/**
 * The scheduled monthly reset (docs/credits.md "The period"): rows whose period has ended
 * start the current one at zero, no rollover. SKIP LOCKED lets every process run it; a row a
 * reservation holds is skipped (that reservation rolls it over itself). Alerts need no clearing:
 * they name the period they were sent for. Returns how many rows were reset.
 */
export async function resetEndedPeriods(db: Executor, period: Period, now: Date, batch: number) {
  const due = db
    .select({ id: workspaceCredits.workspaceId })
    .from(workspaceCredits)
    .where(lte(workspaceCredits.periodEnd, sql`${at(now)}`))
    .limit(batch)
    .for('update', { skipLocked: true });
  const rows = await db
    .update(workspaceCredits)
    .set({ periodStart: period.start, periodEnd: period.end, used: 0, updatedAt: now })
    .where(and(inArray(workspaceCredits.workspaceId, due), lte(workspaceCredits.periodEnd, sql`${at(now)}`)))
    .returning({ workspaceId: workspaceCredits.workspaceId });
  return rows.length;
}
