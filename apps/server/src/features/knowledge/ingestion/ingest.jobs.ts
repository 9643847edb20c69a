import type { AppContext } from '../../../context.ts';
import type { Job } from '../../../jobs/catalog.ts';
import { now } from '../../../lib/clock.ts';
import { reembedStep } from '../retrieval/reembed.ts';
import { backfillStep } from '../retrieval/vector-backfill.ts';
import * as repo from '../sources/sources.repo.ts';
import { ingestSource } from './ingest.ts';

/** A claim lasts this long; a worker that dies mid-ingestion is replaced once it runs out. */
export const INGEST_LEASE_SECONDS = 300;

/**
 * One step of the ingestion worker: re-queues websites whose scheduled re-sync is due, claims
 * up to `limit` sources and ingests them one after another. Returns how many it claimed.
 */
export async function ingestionStep(ctx: AppContext, limit = 2): Promise<number> {
  await repo.requeueDueSyncs(ctx.db, now());
  const claimed = await repo.claimSources(ctx.db, limit, INGEST_LEASE_SECONDS, now());
  for (const { id } of claimed) await ingestSource(ctx, id);
  return claimed.length;
}

/**
 * The ingestion worker as a job (jobs/catalog.ts `ingestion`): claims pending sources (and
 * websites due for re-sync) with SKIP LOCKED, so every process runs one; a new source wakes
 * this process's job at once (`ctx.jobs.wake('ingestion')`), others find it on their next poll.
 * Between sources it fills the vectors of namespaces that outgrew the exact search, one small
 * batch a pass (retrieval/vector-backfill.ts), so a waiting source never queues behind a whole
 * backfill; and, when the embedder changed, re-embeds older chunks one batch a pass
 * (retrieval/reembed.ts), after both.
 */
export function ingestionJob(ctx: AppContext): Job {
  return {
    step: async () =>
      (await ingestionStep(ctx, 1)) > 0 || (await backfillStep(ctx)) || (await reembedStep(ctx)),
  };
}
