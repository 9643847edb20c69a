import type { AppContext } from '../../context.ts';
import type { Job } from '../../jobs/catalog.ts';
import { endIdleSessions } from './widget.service.ts';

const BATCH = 100;

/** One pass of the inactivity sweep; true while there may be more idle sessions. */
export async function widgetSweepStep(ctx: AppContext): Promise<boolean> {
  return (await endIdleSessions(ctx, BATCH)) === BATCH;
}

/**
 * Ends widget sessions idle past their configuration's `sessionTimeoutMinutes` (a widget session
 * goes from active to ended on inactivity; docs/widget.md), with `conversation.ended` each: a job
 * of jobs/catalog.ts (`widget-inactivity`, every minute, the finest timeout). Every process may
 * run it: sessions are claimed with SKIP LOCKED.
 */
export function widgetInactivityJob(ctx: AppContext): Job {
  return { step: () => widgetSweepStep(ctx) };
}
