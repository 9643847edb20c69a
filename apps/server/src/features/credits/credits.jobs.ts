import type { AppContext } from '../../context.ts';
import { Loop, type LoopLog } from '../../jobs/loop.ts';
import { now } from '../../lib/clock.ts';
import { setCreditLog } from './alerts.ts';
import { periodOf } from './allowance.ts';
import * as repo from './credits.repo.ts';

const BATCH = 500;

/** One pass of the monthly reset; true while there may be more due rows. */
export async function resetStep(ctx: AppContext): Promise<boolean> {
  const at = now();
  return (await repo.resetEndedPeriods(ctx.db, periodOf(at), at, BATCH)) === BATCH;
}

export type CreditScheduler = { wake(): void; stop(): Promise<void> };

/**
 * The scheduled monthly reset (spec States: any → monthly reset, no rollover). Every process may
 * run it: rows are claimed with SKIP LOCKED. It is a tidy-up, not a dependency: a reservation
 * already starts the new period itself, and the billing summary reads an ended period as zero.
 * `log` also receives credit-alert failures (alerts.ts).
 */
export function startCreditScheduler(
  ctx: AppContext,
  opts: { log?: LoopLog; idleMs?: number } = {},
): CreditScheduler {
  if (opts.log) setCreditLog(ctx, opts.log);
  const loop = new Loop('credits-reset', () => resetStep(ctx), opts.idleMs ?? 5 * 60_000, opts.log);
  loop.start();
  return { wake: () => loop.wake(), stop: () => loop.stop() };
}
