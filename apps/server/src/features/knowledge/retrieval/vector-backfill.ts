import { sql } from 'drizzle-orm';
import type { AppContext } from '../../../context.ts';
import { type Executor, queryRows } from '../../../db/client.ts';

/**
 * Deferred vectors (docs/decisions/0004-knowledge.md): where pgvector exists, a chunk's
 * `embedding_v` (the HNSW-indexed column) stays NULL until its namespace is listed in
 * `knowledge_vector_namespaces` (vector-migrations 0002), because maintaining the HNSW graph
 * in WASM cost two thirds of PGlite's ingestion time and small namespaces are searched exactly.
 * A namespace is listed once searches over it grow past the exact threshold (or it does alone);
 * from then on inserts fill the column (trigger), this backfill fills older rows in small
 * batches, and the namespace becomes `ready` for the HNSW path.
 */

/** Rows per backfill step: about a third of a second of HNSW inserts on PGlite, which has one connection. */
export const BACKFILL_BATCH = 200;

/** Whether this database has the vector column (the vector history ran: pgvector exists). Asked once. */
export function hasVectorColumn(ctx: AppContext): Promise<boolean> {
  ctx.vectors.hasColumn ??= queryRows<{ ok: number }>(
    ctx.db,
    sql`select 1 as ok from information_schema.columns where table_name = 'knowledge_chunks' and column_name = 'embedding_v'`,
  ).then((rows) => rows.length > 0);
  return ctx.vectors.hasColumn;
}

/** Lists namespaces for vectors (idempotent) and wakes this process's ingestion job, which fills them. */
export async function requestBackfill(ctx: AppContext, namespaces: string[]): Promise<void> {
  if (namespaces.length === 0 || !(await hasVectorColumn(ctx))) return;
  await ctx.db.execute(
    sql`insert into knowledge_vector_namespaces (namespace)
        select unnest(${sql.param(namespaces)}::text[]) on conflict (namespace) do nothing`,
  );
  ctx.jobs.wake('ingestion');
}

/** After a sync: a namespace that alone outgrew the exact path gets its vectors before it is searched. */
export async function requestIfLarge(ctx: AppContext, namespace: string, exactMax: number): Promise<void> {
  if (!(await hasVectorColumn(ctx))) return;
  const [row] = await queryRows<{ n: number }>(
    ctx.db,
    sql`select count(*)::int as n from knowledge_chunks where namespace = ${namespace}`,
  );
  if (Number(row?.n ?? 0) > exactMax) await requestBackfill(ctx, [namespace]);
}

/**
 * One step of the backfill: fills up to `batch` rows of the oldest requested namespace, or marks
 * it ready when none is left. Returns whether there was work. Small steps keep PGlite's single
 * connection free for requests in between.
 */
export async function backfillStep(ctx: AppContext, batch = BACKFILL_BATCH): Promise<boolean> {
  if (!(await hasVectorColumn(ctx))) return false;
  const [next] = await queryRows<{ namespace: string }>(
    ctx.db,
    sql`select namespace from knowledge_vector_namespaces where not ready order by requested_at, namespace limit 1`,
  );
  if (!next) return false;
  const filled = await queryRows<{ id: string }>(
    ctx.db,
    sql`update knowledge_chunks set embedding_v = embedding::vector
        where embedding_v is null
          and id in (select id from knowledge_chunks
                     where namespace = ${next.namespace} and embedding_v is null limit ${batch})
        returning id`,
  );
  // Another process filling the same rows makes this one wait, then skip them (embedding_v is
  // rechecked), so `ready` is only set once every committed row has its vector.
  if (filled.length === 0) {
    await ctx.db.execute(
      sql`update knowledge_vector_namespaces set ready = true where namespace = ${next.namespace}`,
    );
  }
  return true;
}

/**
 * Called in the transaction that switches a source to its new generation. Rows inserted before
 * their namespace was listed, and committed after the backfill passed them, would otherwise keep
 * a NULL vector: the switch runs after all of them committed, so it sees the listing or the
 * backfill sees them. Costs nothing for unlisted namespaces (a one-time filter). Only where
 * `hasVectorColumn` (ask before the transaction: PGlite's one connection is held by it).
 */
export async function fillGeneration(
  tx: Executor,
  sourceId: string,
  generation: number,
  namespace: string,
): Promise<void> {
  await tx.execute(
    sql`update knowledge_chunks set embedding_v = embedding::vector
        where source_id = ${sourceId} and generation = ${generation} and embedding_v is null
          and exists (select 1 from knowledge_vector_namespaces where namespace = ${namespace})`,
  );
}
