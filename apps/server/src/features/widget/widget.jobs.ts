import type { AppContext } from '../../context.ts';
import { Loop, type LoopLog } from '../../jobs/loop.ts';
import { endIdleSessions } from './widget.service.ts';

const BATCH = 100;

/** One pass of the inactivity sweep; true while there may be more idle sessions. */
export async function widgetSweepStep(ctx: AppContext): Promise<boolean> {
  return (await endIdleSessions(ctx, BATCH)) === BATCH;
}

export type WidgetJobs = { wake(): void; stop(): Promise<void> };

/**
 * Ends widget sessions idle past their configuration's `sessionTimeoutMinutes` (States → Widget
 * session: active → ended on inactivity; decisions §8), with `conversation.ended` each. Every
 * process may run it: sessions are claimed with SKIP LOCKED. `idleMs` is the pause between
 * sweeps (default one minute, the finest timeout).
 */
export function startWidgetJobs(ctx: AppContext, opts: { log?: LoopLog; idleMs?: number } = {}): WidgetJobs {
  const loop = new Loop('widget-inactivity', () => widgetSweepStep(ctx), opts.idleMs ?? 60_000, opts.log);
  loop.start();
  return { wake: () => loop.wake(), stop: () => loop.stop() };
}
