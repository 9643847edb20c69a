import { sql } from 'drizzle-orm';
import type { AppContext } from '../../../context.ts';
import { queryRows } from '../../../db/client.ts';
import * as repo from '../sources/sources.repo.ts';

/**
 * What a chunk's vector is made of (docs/knowledge.md "Embeddings"). A Q&A pair is embedded by
 * its question alone: people ask in the words of questions, and the answer's many words pulled
 * the pair's vector away from them (P@1 0.41 -> 0.50 on the development set, docs/performance.md
 * "Answer quality"). Its answer still counts on the lexical side.
 */
export function embeddingText(
  sourceType: string,
  chunk: { title: string; heading: string; content: string },
): string {
  if (sourceType === 'qa' && chunk.heading.trim() !== '') return chunk.heading;
  return [chunk.title, chunk.heading, chunk.content].filter(Boolean).join('\n');
}

/** Chunks re-embedded per step: a few hundred ms of offline embedding, one remote request. */
export const REEMBED_BATCH = 128;

/**
 * The re-index after the embedder changed (docs/knowledge.md "Changing the embedder"): every
 * chunk records the embedder that produced its vector (`embedder`, `dims`); a chunk whose
 * embedder is not the configured one is embedded again, a batch per step of the ingestion job,
 * with the same text ingestion uses. Until then searches compare only vectors of the configured
 * embedder (vector-index.ts) and the words still find the older chunks. Rows are read without a
 * lock and written only if still stale, so two processes doing the same batch do no harm; the
 * embedding (possibly a network call) happens outside any transaction. The vector column, where
 * pgvector exists, follows through its trigger, whatever the new dimension.
 * Once a pass finds nothing the process stops looking (new chunks get the configured embedder).
 * Returns whether there was work.
 */
export async function reembedStep(ctx: AppContext, batch = REEMBED_BATCH): Promise<boolean> {
  if (ctx.vectors.reembedDoneFor === ctx.embedder) return false;
  const embedder = ctx.embedder;
  const rows = await queryRows<{
    id: string;
    namespace: string;
    type: string;
    title: string;
    heading: string;
    content: string;
  }>(
    ctx.db,
    sql`select c.id, c.namespace, s.type, c.title, c.heading, c.content
        from knowledge_chunks c join knowledge_sources s on s.id = c.source_id
        where c.embedder <> ${embedder.id} or c.dims <> ${embedder.dimensions}
        limit ${batch}`,
  );
  if (rows.length === 0) {
    // the embedder changes only with the configuration (a restart): nothing to look for until then
    ctx.vectors.reembedDoneFor = embedder;
    return false;
  }
  const vectors = await embedder.embed(rows.map((r) => embeddingText(r.type, r)));
  const literals = vectors.map((v) => `{${Array.from(v, (x) => (Number.isFinite(x) ? x : 0)).join(',')}}`);
  await ctx.db.transaction(async (tx) => {
    await tx.execute(
      sql`update knowledge_chunks c set embedding = v.embedding::real[], embedder = ${embedder.id},
            dims = ${embedder.dimensions}
          from (select unnest(${sql.param(rows.map((r) => r.id))}::text[]) as id,
                       unnest(${sql.param(literals)}::text[]) as embedding) v
          where c.id = v.id and (c.embedder <> ${embedder.id} or c.dims <> ${embedder.dimensions})`,
    );
    for (const ns of [...new Set(rows.map((r) => r.namespace))].sort()) await repo.bumpNamespace(tx, ns);
  });
  return true;
}

/**
 * Per source, its chunks still embedded by another embedder (the knowledge page shows the
 * re-index's progress). Bounded by the sources asked for (the source index), never the table.
 */
export async function staleChunks(ctx: AppContext, sourceIds: string[]): Promise<Map<string, number>> {
  if (sourceIds.length === 0) return new Map();
  const rows = await queryRows<{ source_id: string; n: number }>(
    ctx.db,
    sql`select source_id, count(*)::int as n from knowledge_chunks
        where source_id = any(${sql.param(sourceIds)}::text[])
          and (embedder <> ${ctx.embedder.id} or dims <> ${ctx.embedder.dimensions})
        group by source_id`,
  );
  return new Map(rows.map((r) => [r.source_id, Number(r.n)]));
}
