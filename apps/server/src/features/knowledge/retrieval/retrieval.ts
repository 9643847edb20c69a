import { sql } from 'drizzle-orm';
import type { AppContext } from '../../../context.ts';
import { namedStatement } from '../../../db/prepared.ts';
import { tokenize } from '../../../providers/embeddings/offline.ts';
import { type Versions, vectorIndexFor } from './vector-index.ts';

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
 * Hybrid retrieval (docs/knowledge.md "Retrieval"): nearest vectors and PostgreSQL full-text ranking over the
 * given namespaces, fused by reciprocal rank. Only chunks of each source's current generation
 * count (a sync in progress stays invisible); candidates are over-fetched to absorb that filter.
 * The chat engine and `GET .../search` both call exactly this, so the "test your knowledge" view
 * shows what the chat will use. `versions`: the namespaces' versions, when the caller has them.
 *
 * Round trips: the vector search first (in process over cached namespaces where there is no
 * pgvector, so usually none), then one statement that ranks the text matches and returns the
 * rows of every candidate of both rankings, from which the top `k` are taken.
 */
export async function retrieve(
  ctx: AppContext,
  namespaces: string[],
  query: string,
  k = 5,
  versions?: Versions,
): Promise<RetrievedChunk[]> {
  if (namespaces.length === 0 || query.trim() === '') return [];
  const depth = Math.max(k * 4, 20);
  const embedder = ctx.embedder;
  const [[vector], index] = await Promise.all([embedder.embed([query]), vectorIndexFor(ctx)]);
  const nearest = vector ? await index.nearest(namespaces, vector, depth, versions) : [];
  const close = nearest.filter((hit) => hit.score >= embedder.minSimilarity);
  const rows = await candidates(
    ctx,
    namespaces,
    query,
    depth,
    close.map((hit) => hit.id),
  );
  // The namespace check is done here rather than in SQL: there, with PGlite's missing planner
  // statistics, it made the lookup scan the whole namespace index (3x slower). The ids come from
  // namespace-filtered searches; this keeps the guarantee should that ever change.
  const allowed = new Set(namespaces);
  const byId = new Map(rows.filter((r) => allowed.has(r.namespace)).map((r) => [r.id, r]));
  const matches = rows
    .filter((r) => r.rank !== null)
    .sort((a, b) => Number(b.rank) - Number(a.rank) || (a.id < b.id ? -1 : 1));

  const fused = new Map<string, { score: number; vectorScore: number | null; textScore: number | null }>();
  close.forEach((hit, rank) => {
    fused.set(hit.id, { score: 1 / (RRF_K + rank + 1), vectorScore: hit.score, textScore: null });
  });
  matches.forEach((hit, rank) => {
    const entry = fused.get(hit.id) ?? { score: 0, vectorScore: null, textScore: null };
    entry.score += 1 / (RRF_K + rank + 1);
    entry.textScore = Number(hit.rank);
    fused.set(hit.id, entry);
  });
  return [...fused.entries()]
    .filter(([id]) => byId.has(id))
    .sort((a, b) => b[1].score - a[1].score || (a[0] < b[0] ? -1 : 1))
    .slice(0, k)
    .map(([id, s]) => {
      const r = byId.get(id)!;
      return {
        chunkId: id,
        sourceId: r.source_id,
        namespace: r.namespace,
        heading: r.heading,
        title: r.title,
        url: r.url,
        position: Number(r.position),
        content: r.content,
        ...s,
      };
    });
}

type CandidateRow = {
  id: string;
  source_id: string;
  namespace: string;
  heading: string;
  title: string;
  url: string | null;
  position: number;
  content: string;
  /** ts_rank when the chunk matched the question's words, else null. */
  rank: number | null;
};

/**
 * The text matches of the question's words (any of them, OR; ranked by cover density; tokens
 * sanitised to letters and digits), at most `limit`, together with the rows of `vectorIds`: the
 * current-generation chunks of both lists, in one statement. With no words (`tsquery` null) the
 * text part finds nothing. Matches are found through the namespace index (there is deliberately
 * no GIN index: common words would make it build a bitmap over every namespace), and at most
 * MAX_TEXT_MATCHES of them are ranked, so the cost is bounded by the namespace, never by the
 * whole table. Every reply runs it: a named statement (db/prepared.ts).
 */
const candidatesStatement = namedStatement<CandidateRow>(
  'parley_retrieval_candidates',
  sql`with t as (
        select m.id, ts_rank(m.tsv, q) as rank
        from to_tsquery('simple', ${sql.placeholder('tsquery')}::text) q,
             lateral (select c.id, c.tsv from knowledge_chunks c
                      join knowledge_sources s on s.id = c.source_id and s.generation = c.generation
                      where c.namespace = any(${sql.placeholder('namespaces')}::text[]) and c.tsv @@ q
                      limit ${sql.raw(String(MAX_TEXT_MATCHES))}) m
        order by rank desc, m.id
        limit ${sql.placeholder('limit')}::int
      ), wanted as (select id from t union select unnest(${sql.placeholder('vectorIds')}::text[]))
      select c.id, c.source_id, c.namespace, c.heading, c.title, c.url, c.position, c.content, t.rank
      from wanted w
      join knowledge_chunks c on c.id = w.id
      join knowledge_sources s on s.id = c.source_id and s.generation = c.generation
      left join t on t.id = c.id`,
);

async function candidates(
  ctx: AppContext,
  namespaces: string[],
  query: string,
  limit: number,
  vectorIds: string[],
): Promise<CandidateRow[]> {
  const words = [...new Set(tokenize(query))].slice(0, 32);
  if (words.length === 0 && vectorIds.length === 0) return [];
  const tsquery = words.length > 0 ? words.map((w) => `${w}:*`).join(' | ') : null;
  return candidatesStatement(ctx.db, { tsquery, namespaces, limit, vectorIds });
}
