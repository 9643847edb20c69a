import type { AppContext } from '../../context.ts';
import type { Job } from '../../jobs/catalog.ts';
import { now } from '../../lib/clock.ts';
import { periodOf } from './allowance.ts';
import * as repo from './credits.repo.ts';

const BATCH = 500;

/** One pass of the monthly reset; true while there may be more due rows. */
export async function resetStep(ctx: AppContext): Promise<boolean> {
  const at = now();
  return (await repo.resetEndedPeriods(ctx.db, periodOf(at), at, BATCH)) === BATCH;
}

/**
 * The scheduled monthly reset as a job (jobs/catalog.ts `credits-reset`; no rollover:
 * docs/credits.md). Every process may run it: rows are claimed with SKIP LOCKED. It
 * is a tidy-up, not a dependency: a reservation already starts the new period itself, and the
 * billing summary reads an ended period as zero.
 */
export function creditsResetJob(ctx: AppContext): Job {
  return { step: () => resetStep(ctx) };
}
