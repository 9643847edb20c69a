import type { TestRun } from '@parley/contract/steering';
import type { AppContext } from '../../context.ts';
import { conflict } from '../../http/errors.ts';
import type { Owner } from './steering.repo.ts';
import * as runs from './test-runs.repo.ts';

/** The public shape of a run (docs/steering.md "Test runs"): a queued run shows as `running`. */
export const toTestRun = (r: runs.TestRunRow): TestRun => ({
  id: r.id,
  status: r.status === 'queued' ? 'running' : r.status,
  trigger: r.trigger,
  startedAt: r.startedAt.toISOString(),
  finishedAt: r.finishedAt?.toISOString() ?? null,
  passed: r.passed,
  failed: r.failed,
  results: r.results,
  error: r.error,
});

/**
 * A run started by hand: 409 while one is playing; a run queued by a change starts now instead
 * (and is the one answered), else a new one is queued for now. The test-runs job is woken.
 */
export async function startRun(ctx: AppContext, owner: Owner): Promise<runs.TestRunRow> {
  if (await runs.findPlaying(ctx.db, owner))
    throw conflict('A test run of this assistant is already running');
  const run = await runs.queueNow(ctx.db, owner);
  ctx.jobs.wake('test-runs');
  return run;
}

export const listRuns = runs.listRuns;
export const findRun = runs.findRun;
