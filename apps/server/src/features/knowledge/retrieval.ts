import { sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { queryRows } from '../../db/client.ts';
import { tokenize } from '../../providers/embeddings/offline.ts';
import { embedderFor } from './embedder.ts';
import { vectorIndexFor } from './vector-index.ts';

export type RetrievedChunk = {
  chunkId: string;
  sourceId: string;
  namespace: string;
  heading: string;
  title: string;
  url: string | null;
  position: number;
  content: string;
  /** Reciprocal-rank fusion of the two rankings; higher is better. */
  score: number;
  /** Cosine similarity, when the chunk was among the nearest vectors. */
  vectorScore: number | null;
  /** PostgreSQL ts_rank, when the chunk matched the words. */
  textScore: number | null;
};

const RRF_K = 60;
const MAX_TEXT_MATCHES = 300;

/**
 * Hybrid retrieval (issue 4 item 5): nearest vectors and PostgreSQL full-text ranking over the
 * given namespaces, fused by reciprocal rank. Only chunks of each source's current generation
 * count (a sync in progress stays invisible); candidates are over-fetched to absorb that filter. The chat engine and `GET .../search` both call
 * exactly this, so the "test your knowledge" view shows what the chat will use.
 */
export async function retrieve(
  ctx: AppContext,
  namespaces: string[],
  query: string,
  k = 5,
): Promise<RetrievedChunk[]> {
  if (namespaces.length === 0 || query.trim() === '') return [];
  const depth = Math.max(k * 4, 20);
  const embedder = embedderFor(ctx);
  const [[vector], index] = await Promise.all([embedder.embed([query]), vectorIndexFor(ctx)]);
  const [nearest, matches] = await Promise.all([
    vector ? index.nearest(namespaces, vector, depth) : Promise.resolve([]),
    textSearch(ctx, namespaces, query, depth),
  ]);
  const fused = new Map<string, { score: number; vectorScore: number | null; textScore: number | null }>();
  nearest.forEach((hit, rank) => {
    if (hit.score < embedder.minSimilarity) return;
    fused.set(hit.id, { score: 1 / (RRF_K + rank + 1), vectorScore: hit.score, textScore: null });
  });
  matches.forEach((hit, rank) => {
    const entry = fused.get(hit.id) ?? { score: 0, vectorScore: null, textScore: null };
    entry.score += 1 / (RRF_K + rank + 1);
    entry.textScore = hit.score;
    fused.set(hit.id, entry);
  });
  const top = [...fused.entries()]
    .sort((a, b) => b[1].score - a[1].score || (a[0] < b[0] ? -1 : 1))
    .slice(0, k);
  if (top.length === 0) return [];
  const rows = await queryRows<{
    id: string;
    source_id: string;
    namespace: string;
    heading: string;
    title: string;
    url: string | null;
    position: number;
    content: string;
  }>(
    ctx.db,
    sql`select c.id, c.source_id, c.namespace, c.heading, c.title, c.url, c.position, c.content
        from knowledge_chunks c join knowledge_sources s on s.id = c.source_id and s.generation = c.generation
        where c.id = any(${sql.param(top.map(([id]) => id))}::text[])`,
  );
  // The namespace check is done here rather than in SQL: there, with PGlite's missing planner
  // statistics, it made the lookup scan the whole namespace index (3x slower). The ids come from
  // namespace-filtered searches; this keeps the guarantee should that ever change.
  const allowed = new Set(namespaces);
  const byId = new Map(rows.filter((r) => allowed.has(r.namespace)).map((r) => [r.id, r]));
  return top.flatMap(([id, s]) => {
    const r = byId.get(id);
    if (!r) return [];
    return [
      {
        chunkId: id,
        sourceId: r.source_id,
        namespace: r.namespace,
        heading: r.heading,
        title: r.title,
        url: r.url,
        position: Number(r.position),
        content: r.content,
        ...s,
      },
    ];
  });
}

/** Any of the question's words (OR), ranked by cover density; tokens are sanitised to letters and digits. */
async function textSearch(ctx: AppContext, namespaces: string[], query: string, limit: number) {
  const words = [...new Set(tokenize(query))].slice(0, 32);
  if (words.length === 0) return [];
  const tsquery = words.map((w) => `${w}:*`).join(' | ');
  const rows = await queryRows<{ id: string; rank: number }>(
    ctx.db,
    // Matches are found through the namespace index (there is deliberately no GIN index: common
    // words would make it build a bitmap over every namespace), and at most MAX_TEXT_MATCHES of
    // them are ranked, so the cost is bounded by the namespace, never by the whole table.
    sql`select m.id, ts_rank(m.tsv, q) as rank
        from to_tsquery('simple', ${tsquery}) q,
             lateral (select c.id, c.tsv from knowledge_chunks c
                      join knowledge_sources s on s.id = c.source_id and s.generation = c.generation
                      where c.namespace = any(${sql.param(namespaces)}::text[]) and c.tsv @@ q
                      limit ${MAX_TEXT_MATCHES}) m
        order by rank desc, m.id
        limit ${limit}`,
  );
  return rows.map((r) => ({ id: r.id, score: Number(r.rank) }));
}
