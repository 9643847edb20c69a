import type { AppContext } from '../context.ts';
import { ingestionStep } from '../features/knowledge/ingestion/ingest.jobs.ts';
import { backfillStep, setBackfillWaker } from '../features/knowledge/retrieval/vector-backfill.ts';
import { setIngestionWaker } from '../features/knowledge/sources/sources.service.ts';
import { Loop, type LoopLog } from './loop.ts';

/**
 * The ingestion worker (issue 4): claims pending sources (and websites due for re-sync) with
 * SKIP LOCKED, so every process runs one; new sources wake this process's worker at once,
 * others find them on their next poll. Between sources it fills the vectors of namespaces
 * that outgrew the exact search, one small batch a step (retrieval/vector-backfill.ts), so a waiting
 * source never queues behind a whole backfill.
 */
export function startKnowledgeWorker(ctx: AppContext, opts: { log?: LoopLog; idleMs?: number } = {}) {
  const loop = new Loop(
    'knowledge-ingestion',
    async () => (await ingestionStep(ctx, 1)) > 0 || (await backfillStep(ctx)),
    opts.idleMs ?? 2_000,
    opts.log,
  );
  setIngestionWaker(ctx, () => loop.wake());
  setBackfillWaker(ctx, () => loop.wake());
  loop.start();
  return {
    wake: () => loop.wake(),
    /** Waits up to `graceMs` for the source in hand; an unfinished claim's lease expires and is retried. */
    stop: async (graceMs = 10_000) => {
      setIngestionWaker(ctx, () => undefined);
      setBackfillWaker(ctx, () => undefined);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([loop.stop(), new Promise<void>((r) => (timer = setTimeout(r, graceMs)))]);
      clearTimeout(timer);
    },
  };
}
