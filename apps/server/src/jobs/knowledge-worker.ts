import type { AppContext } from '../context.ts';
import { ingestionStep } from '../features/knowledge/ingest.jobs.ts';
import { setIngestionWaker } from '../features/knowledge/sources.service.ts';
import { Loop, type LoopLog } from './loop.ts';

/**
 * The ingestion worker (issue 4): claims pending sources (and websites due for re-sync) with
 * SKIP LOCKED, so every process runs one; new sources wake this process's worker at once,
 * others find them on their next poll.
 */
export function startKnowledgeWorker(ctx: AppContext, opts: { log?: LoopLog; idleMs?: number } = {}) {
  const loop = new Loop(
    'knowledge-ingestion',
    async () => (await ingestionStep(ctx, 1)) > 0,
    opts.idleMs ?? 2_000,
    opts.log,
  );
  setIngestionWaker(ctx, () => loop.wake());
  loop.start();
  return {
    wake: () => loop.wake(),
    /** Waits up to `graceMs` for the source in hand; an unfinished claim's lease expires and is retried. */
    stop: async (graceMs = 10_000) => {
      setIngestionWaker(ctx, () => undefined);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([loop.stop(), new Promise<void>((r) => (timer = setTimeout(r, graceMs)))]);
      clearTimeout(timer);
    },
  };
}
