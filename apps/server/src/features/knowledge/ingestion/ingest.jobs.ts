import type { AppContext } from '../../../context.ts';
import { now } from '../../../lib/clock.ts';
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
