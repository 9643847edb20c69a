import { and, count, desc, eq, lt, ne, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.ts';
import { type TestResult, testRuns } from '../../db/schema/index.ts';
import { newId } from '../../lib/ids.ts';
import type { Owner } from './steering.repo.ts';

export type TestRunRow = typeof testRuns.$inferSelect;

const owned = (o: Owner) =>
  and(eq(testRuns.workspaceId, o.workspaceId), eq(testRuns.assistantId, o.assistantId));

/** Newest first. */
export async function listRuns(db: Executor, owner: Owner, page: { limit: number; offset: number }) {
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(testRuns)
      .where(owned(owner))
      .orderBy(desc(testRuns.startedAt), desc(testRuns.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(testRuns).where(owned(owner)),
  ]);
  return { rows, total: total?.n ?? 0 };
}

export async function findRun(db: Executor, owner: Owner, id: string): Promise<TestRunRow | undefined> {
  const [row] = await db
    .select()
    .from(testRuns)
    .where(and(eq(testRuns.id, id), owned(owner)))
    .limit(1);
  return row;
}

/** The run being played for the assistant, if one is (its claim not lapsed). */
export async function findPlaying(db: Executor, owner: Owner): Promise<TestRunRow | undefined> {
  const [row] = await db
    .select()
    .from(testRuns)
    .where(and(owned(owner), eq(testRuns.status, 'running'), sql`${testRuns.claimedUntil} >= now()`))
    .limit(1);
  return row;
}

/**
 * A manual run: the assistant's queued run is moved to now and becomes `manual`, or a new one is
 * queued for now. One statement, so that requests racing each other get the same run.
 */
export async function queueNow(db: Executor, owner: Owner): Promise<TestRunRow> {
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`insert into test_runs (id, workspace_id, assistant_id, status, trigger, run_after)
        values (${newId('run')}, ${owner.workspaceId}, ${owner.assistantId}, 'queued', 'manual', now())
        on conflict (assistant_id) where status = 'queued'
        do update set run_after = now(), trigger = 'manual', started_at = now()
        returning id`,
  );
  return (await findRun(db, owner, row!.id)) as TestRunRow;
}

/**
 * Claims the next run due (FOR UPDATE SKIP LOCKED): a queued one whose time has come and whose
 * assistant has no run playing, or a playing one whose claim lapsed (its process died: it is
 * played again from the first test). Its `attempts` fences every later write of this claim.
 */
export async function claimRun(db: Executor, leaseMs: number): Promise<TestRunRow | undefined> {
  const claimed = await queryRows<{ id: string; workspace_id: string; assistant_id: string }>(
    db,
    sql`update test_runs set status = 'running', attempts = attempts + 1, started_at = now(),
               claimed_until = now() + make_interval(secs => ${leaseMs / 1000}), results = '[]'::jsonb,
               passed = 0, failed = 0
         where id = (
           select r.id from test_runs r
            where (r.status = 'queued' and r.run_after <= now()
                   and not exists (select 1 from test_runs o
                                    where o.assistant_id = r.assistant_id and o.status = 'running'))
               or (r.status = 'running' and r.claimed_until < now())
            order by r.run_after
            limit 1
            for update skip locked)
        returning id, workspace_id, assistant_id`,
  );
  const c = claimed[0];
  return c ? findRun(db, { workspaceId: c.workspace_id, assistantId: c.assistant_id }, c.id) : undefined;
}

/** The run, while this process's claim on it holds (`attempts` counts the claims). */
const stillClaimed = (run: TestRunRow) =>
  and(
    eq(testRuns.id, run.id),
    eq(testRuns.workspaceId, run.workspaceId),
    eq(testRuns.status, 'running'),
    eq(testRuns.attempts, run.attempts),
  );

/** Extends the claim while the run plays; false when it was lost (another process took the run over). */
export async function extendClaim(db: Executor, run: TestRunRow, leaseMs: number): Promise<boolean> {
  const rows = await db
    .update(testRuns)
    .set({ claimedUntil: sql`now() + make_interval(secs => ${leaseMs / 1000})` })
    .where(stillClaimed(run))
    .returning({ id: testRuns.id });
  return rows.length > 0;
}

/** Stores a finished run's results, under its claim; false when the claim was lost. */
export async function finishRun(
  db: Executor,
  run: TestRunRow,
  outcome: { status: 'done' | 'failed'; results: TestResult[]; error?: string },
): Promise<boolean> {
  const passed = outcome.results.filter((r) => r.passed).length;
  const rows = await db
    .update(testRuns)
    .set({
      status: outcome.status,
      results: outcome.results,
      passed,
      failed: outcome.results.length - passed,
      finishedAt: sql`now()`,
      claimedUntil: null,
      error: outcome.error ?? null,
    })
    .where(stillClaimed(run))
    .returning({ id: testRuns.id });
  return rows.length > 0;
}

/**
 * Gives a claimed run back to the queue at once (a process stopping mid-run). When a change has
 * queued the next run meanwhile, that one will play what this one would have: this one ends
 * `failed`, saying so.
 */
export async function releaseRun(db: Executor, run: TestRunRow): Promise<void> {
  await db.execute(sql`
    update test_runs
       set status = case when q.id is null then 'queued' else 'failed' end,
           claimed_until = null,
           run_after = now(),
           finished_at = case when q.id is null then null else now() end,
           error = case when q.id is null then null else 'Stopped by a restart; the next run replaces it.' end
      from (select (select id from test_runs where assistant_id = ${run.assistantId} and status = 'queued') as id) q
     where test_runs.id = ${run.id} and test_runs.workspace_id = ${run.workspaceId}
       and test_runs.status = 'running' and test_runs.attempts = ${run.attempts}`);
}

/** The run finished before this one, whose results a new run is compared with. */
export async function previousRun(db: Executor, run: TestRunRow): Promise<TestRunRow | undefined> {
  const [row] = await db
    .select()
    .from(testRuns)
    .where(
      and(
        eq(testRuns.workspaceId, run.workspaceId),
        eq(testRuns.assistantId, run.assistantId),
        eq(testRuns.status, 'done'),
        ne(testRuns.id, run.id),
        lt(testRuns.finishedAt, sql`now()`),
      ),
    )
    .orderBy(desc(testRuns.finishedAt))
    .limit(1);
  return row;
}
