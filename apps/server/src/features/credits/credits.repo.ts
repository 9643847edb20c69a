import { and, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { preparedFor } from '../../db/prepared.ts';
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

export type Reserved = Pick<CreditRow, 'periodStart' | 'periodEnd' | 'used' | 'alert80For' | 'alert100For'>;

/** A timestamp placeholder: ISO text with an explicit cast, as `at` (identical on both drivers). */
const atPlaceholder = (name: string) => sql`${sql.placeholder(name)}::timestamptz`;

// Every AI reply runs it: prepared once (db/prepared.ts).
const reserveStatement = preparedFor((db) => {
  const now = atPlaceholder('now');
  const ended = sql`${workspaceCredits.periodEnd} <= ${now}`;
  return db
    .insert(workspaceCredits)
    .values({
      workspaceId: sql.placeholder('workspaceId'),
      periodStart: atPlaceholder('periodStart'),
      periodEnd: atPlaceholder('periodEnd'),
      used: 1,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: workspaceCredits.workspaceId,
      set: {
        periodStart: sql`case when ${ended} then excluded.period_start else ${workspaceCredits.periodStart} end`,
        periodEnd: sql`case when ${ended} then excluded.period_end else ${workspaceCredits.periodEnd} end`,
        used: sql`case when ${ended} then 1 else ${workspaceCredits.used} + 1 end`,
        updatedAt: now,
      },
      setWhere: sql`${ended} or ${workspaceCredits.used} < ${sql.placeholder('limit')}::int`,
    })
    .returning({
      periodStart: workspaceCredits.periodStart,
      periodEnd: workspaceCredits.periodEnd,
      used: workspaceCredits.used,
      alert80For: workspaceCredits.alert80For,
      alert100For: workspaceCredits.alert100For,
    })
    .prepare('parley_credit_reserve');
});

/**
 * One credit, in one statement: creates the row for a new workspace, starts the new period when
 * the stored one has ended (the reset never waits for the scheduler), and otherwise adds one only
 * while `used < limit`. ON CONFLICT DO UPDATE locks the row and re-checks its WHERE against the
 * latest version, so two processes cannot both take the last credit. No row back: none left.
 */
export async function reserve(
  db: Executor,
  workspaceId: string,
  limit: number,
  period: Period,
  now: Date,
): Promise<Reserved | undefined> {
  const [row] = await reserveStatement(db).execute({
    workspaceId,
    periodStart: period.start.toISOString(),
    periodEnd: period.end.toISOString(),
    now: now.toISOString(),
    limit,
  });
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
