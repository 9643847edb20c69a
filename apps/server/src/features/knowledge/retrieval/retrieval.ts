import { sql } from 'drizzle-orm';
import type { AppContext } from '../../../context.ts';
import { namedStatement } from '../../../db/prepared.ts';
import { languageDetector } from '../../../lib/language-detect.ts';
import { STOP_WORDS } from '../../../providers/embeddings/offline.ts';
import { fold, fullTextWord, pgConfigOf, rawWords } from './analysis.ts';
import { type ChunkRow, createLexicalIndex } from './lexical-cache.ts';
import type { LexicalHit } from './lexical-index.ts';
import { namespaceVersions, type Versions, vectorIndexFor } from './vector-index.ts';

export type RetrievedChunk = {
  chunkId: string;
  sourceId: string;
  namespace: string;
  heading: string;
  title: string;
  url: string | null;
  position: number;
  content: string;
  /** The passage's language, detected at ingestion (null: too short to tell, or stored before). */
  language: string | null;
  /** The fused score in [0, 1]: weighted normalised lexical and vector scores; higher is better. */
  score: number;
  /** Cosine similarity, when the chunk was among the nearest vectors. */
  vectorScore: number | null;
  /** BM25 (or PostgreSQL ts_rank for namespaces too large to hold), when the chunk matched the words. */
  textScore: number | null;
  /** 1-based place in the lexical ranking, when the chunk matched the words. */
  lexicalRank: number | null;
  /** 1-based place among the nearest vectors, when it was one. */
  vectorRank: number | null;
  /**
   * How much the chunk is about the question, in [0, 1], whatever the other chunks: the mean of
   * the share of the question's information it contains (lexical-index.ts `coverage`) and the
   * vectors' cosine; for a Q&A pair also, as a third part, the share its question contains
   * (`headingCoverage`: a pair whose question holds the words asked is the likelier answer). In a
   * small knowledge base, a chunk that shares a telling content word with the question
   * (lexical-index.ts `telling`) and is among the nearest vectors (its cosine above the
   * embedder's noise floor) counts as containing all of it. Where the words were ranked by
   * PostgreSQL full text (no coverage), the cosine alone. The offline responder answers from it
   * only when its support (passage-support.ts) is enough.
   */
  relevance: number;
};

/**
 * Weight of the lexical side in the fused score (the vector side has 1 minus it). Normalised
 * scores mixed by weight, not reciprocal-rank fusion: when one signal is much weaker than the
 * other, rank fusion lets the weaker one's order count as much (docs/knowledge.md "Retrieval").
 */
export const LEXICAL_WEIGHT = 0.6;
/**
 * Share of the final score that is the question-to-question match: the chunk's heading coverage
 * (lexical-index.ts `headingCoverage`: for a Q&A pair, how much of the question's information its
 * question holds) mixed with its heading BM25 match; the fused score has the rest. Chosen with
 * HEADING_MATCH by 10-fold cross-validation over the development set's questions
 * (docs/performance.md "Answer quality"): every fold picked 0.7 and 0.3.
 */
export const HEADING_SHARE = 0.7;
/** Within that share, the part that is the heading BM25 match (lexical-index.ts `headingMatch`). */
export const HEADING_MATCH = 0.3;
/** Candidates each side fetches, at least: enough for heading coverage to lift a pair the fusion put lower. */
const MIN_DEPTH = 40;
const MAX_TEXT_MATCHES = 300;

/**
 * Hybrid retrieval (docs/knowledge.md "Retrieval"): nearest vectors and BM25 over the given
 * namespaces (lexical-index.ts), each normalised to [0, 1] over its candidates (min-max) and mixed
 * by weight. Only chunks of each source's current generation count (a sync in progress stays
 * invisible); candidates are over-fetched to absorb that filter. The chat engine and
 * `GET .../search` both call exactly this, so the "test your knowledge" view shows what the chat
 * will use. `versions`: the namespaces' versions, when the caller has them.
 *
 * Round trips: the namespaces' versions (unless given), the vector search (in process over
 * cached namespaces where there is no pgvector, so usually none), the lexical ranking (in
 * process, cached per namespace version, with the chunks' rows: so usually nothing more), else one
 * statement returning the rows of every candidate. Namespaces too large to hold in memory are
 * ranked by PostgreSQL full text in that statement instead.
 */
export async function retrieve(
  ctx: AppContext,
  namespaces: string[],
  query: string,
  k = 5,
  versions?: Versions,
): Promise<RetrievedChunk[]> {
  if (namespaces.length === 0 || query.trim() === '') return [];
  const depth = Math.max(k * 4, MIN_DEPTH);
  const embedder = ctx.embedder;
  const known = versions ?? (await namespaceVersions(ctx, namespaces));
  ctx.vectors.lexical ??= createLexicalIndex(ctx);
  const [[vector], index, lexical] = await Promise.all([
    embedder.embed([query]),
    vectorIndexFor(ctx),
    ctx.vectors.lexical.search(namespaces, known, query, depth),
  ]);
  const nearest = vector ? await index.nearest(namespaces, vector, depth, known) : [];
  const close = nearest.filter((hit) => hit.score >= embedder.minSimilarity);
  const ids = [...new Set([...close.map((hit) => hit.id), ...(lexical ?? []).map((hit) => hit.id)])];
  // Where the words were ranked in process, the rows came with the terms: no statement at all.
  const held = lexical === null ? null : ctx.vectors.lexical.rowsOf(namespaces, known, ids);
  const rows: CandidateRow[] = held
    ? held.map((r) => ({ ...r, rank: null }))
    : await candidates(ctx, namespaces, lexical === null ? query : null, depth, ids);
  // The namespace check is done here rather than in SQL: there, with PGlite's missing planner
  // statistics, it made the lookup scan the whole namespace index (3x slower). The ids come from
  // namespace-filtered searches; this keeps the guarantee should that ever change.
  const allowed = new Set(namespaces);
  const byId = new Map(rows.filter((r) => allowed.has(r.namespace)).map((r) => [r.id, r]));
  const words =
    lexical?.filter((hit) => byId.has(hit.id)) ??
    rows
      .filter((r) => r.rank !== null)
      .map((r) => ({ id: r.id, score: Number(r.rank) }))
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
  const vectors = close.filter((hit) => byId.has(hit.id));

  type Fused = Pick<RetrievedChunk, 'score' | 'vectorScore' | 'textScore' | 'lexicalRank' | 'vectorRank'> & {
    coverage: number | null;
    headingCoverage: number;
    headingMatch: number;
    telling: boolean;
  };
  const fused = new Map<string, Fused>();
  const entry = (id: string) => {
    let e = fused.get(id);
    if (!e) {
      e = {
        score: 0,
        vectorScore: null,
        textScore: null,
        lexicalRank: null,
        vectorRank: null,
        coverage: lexical === null ? null : 0,
        headingCoverage: 0,
        headingMatch: 0,
        telling: false,
      };
      fused.set(id, e);
    }
    return e;
  };
  const spread = (xs: Array<{ score: number }>) => {
    const max = xs[0]?.score ?? 0;
    const min = xs.length > 1 ? (xs.at(-1)?.score ?? 0) : 0;
    return (x: number) => (max > min ? (x - min) / (max - min) : 1);
  };
  const lexNorm = spread(words.length > 1 ? words : [...words, { score: 0 }]);
  // Min-max makes the best lexical match 1 even when it shares only "how" and "my" with the
  // question; the words count in proportion to how much of the question the best match covers
  // (fully when it shares a telling content word: in a small base, the vectors' order over a
  // few candidates is noise beside it).
  const best = lexical?.[0];
  const confidence = lexical === null ? 1 : best?.telling ? 1 : (best?.coverage ?? 0);
  words.forEach((hit, rank) => {
    const e = entry(hit.id);
    e.textScore = hit.score;
    if (lexical !== null) {
      e.coverage = (hit as LexicalHit).coverage;
      e.headingCoverage = (hit as LexicalHit).headingCoverage;
      e.headingMatch = (hit as LexicalHit).headingMatch;
      e.telling = (hit as LexicalHit).telling;
    }
    e.lexicalRank = rank + 1;
    e.score += LEXICAL_WEIGHT * confidence * lexNorm(hit.score);
  });
  const vecNorm = spread(vectors.length > 1 ? vectors : [...vectors, { score: embedder.minSimilarity }]);
  vectors.forEach((hit, rank) => {
    const e = entry(hit.id);
    e.vectorScore = hit.score;
    e.vectorRank = rank + 1;
    e.score += (1 - LEXICAL_WEIGHT) * vecNorm(hit.score);
  });
  // people ask in the words of questions: a chunk whose heading holds what was asked moves up
  // (every chunk alike; with no headings the order stays the fused one)
  // (a telling word in a small base counts as all of it, as in `relevance`)
  for (const e of fused.values()) {
    const asked =
      e.telling && e.vectorScore !== null
        ? 1
        : (1 - HEADING_MATCH) * e.headingCoverage + HEADING_MATCH * e.headingMatch;
    e.score = (1 - HEADING_SHARE) * e.score + HEADING_SHARE * asked;
  }
  return [...fused.entries()]
    .sort((a, b) => b[1].score - a[1].score || (a[0] < b[0] ? -1 : 1))
    .slice(0, k)
    .map(([id, { coverage, headingCoverage, headingMatch: _, telling, ...s }]) => {
      const r = byId.get(id)!;
      const cosine = Math.max(0, s.vectorScore ?? 0);
      const told = telling && s.vectorScore !== null;
      const covered = told ? 1 : coverage;
      const qa = covered !== null && r.heading !== '' && r.content.startsWith(`Q: ${r.heading}`);
      const asked = told ? 1 : headingCoverage;
      return {
        chunkId: id,
        sourceId: r.source_id,
        namespace: r.namespace,
        heading: r.heading,
        title: r.title,
        url: r.url,
        position: Number(r.position),
        content: r.content,
        language: r.language,
        ...s,
        relevance: covered === null ? cosine : qa ? (covered + asked + cosine) / 3 : (covered + cosine) / 2,
      };
    });
}

type CandidateRow = ChunkRow & {
  /** ts_rank when the chunk matched the question's words, else null. */
  rank: number | null;
};

/**
 * The rows of `vectorIds` (the candidates of both rankings), and, where a namespace is too large
 * for the in-process lexical index (`query` given), the text matches of the question's words (any of them, OR; ranked by cover density; tokens
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
        from to_tsquery(${sql.placeholder('config')}::regconfig, ${sql.placeholder('tsquery')}::text) q,
             lateral (select c.id, c.tsv from knowledge_chunks c
                      join knowledge_sources s on s.id = c.source_id and s.generation = c.generation
                      where c.namespace = any(${sql.placeholder('namespaces')}::text[]) and c.tsv @@ q
                      limit ${sql.raw(String(MAX_TEXT_MATCHES))}) m
        order by rank desc, m.id
        limit ${sql.placeholder('limit')}::int
      ), wanted as (select id from t union select unnest(${sql.placeholder('vectorIds')}::text[]))
      select c.id, c.source_id, c.namespace, c.heading, c.title, c.url, c.position, c.content, c.language, t.rank
      from wanted w
      join knowledge_chunks c on c.id = w.id
      join knowledge_sources s on s.id = c.source_id and s.generation = c.generation
      left join t on t.id = c.id`,
);

/**
 * The rows of `ids` alone: the candidates when the words were ranked in process but the rows are
 * no longer held (a namespace's terms dropped from the cache meanwhile). The statement above with
 * no words would still walk the namespace's chunks testing each against an empty query (1.7 ms of
 * PostgreSQL's time a chat: docs/performance.md "Chat capacity").
 */
const rowsStatement = namedStatement<CandidateRow>(
  'parley_retrieval_rows',
  sql`select c.id, c.source_id, c.namespace, c.heading, c.title, c.url, c.position, c.content, c.language,
             null::real as rank
      from knowledge_chunks c
      join knowledge_sources s on s.id = c.source_id and s.generation = c.generation
      where c.id = any(${sql.placeholder('ids')}::text[])`,
);

async function candidates(
  ctx: AppContext,
  namespaces: string[],
  query: string | null,
  limit: number,
  vectorIds: string[],
): Promise<CandidateRow[]> {
  if (query === null) return vectorIds.length === 0 ? [] : rowsStatement(ctx.db, { ids: vectorIds });
  const { config, tsquery } = await textQuery(query);
  if (tsquery === null && vectorIds.length === 0) return [];
  return candidatesStatement(ctx.db, { config, tsquery, namespaces, limit, vectorIds });
}

/** Letters kept of each word of a question whose language is unclear (below). */
const NEUTRAL_PREFIX = 5;

/**
 * The full-text query of a question (any of its words, OR, each as a prefix): in the text search
 * configuration of the language detected in it, which stems it as the passages in that language
 * were (analysis.ts `PG_CONFIGS`); when the language is unclear, language-neutrally: 'simple', each
 * word cut to its first NEUTRAL_PREFIX letters, which meets the stems of most languages' inflections.
 */
async function textQuery(query: string): Promise<{ config: string; tsquery: string | null }> {
  const language = (await languageDetector())(query);
  const config = pgConfigOf(language);
  let words = [...new Set(rawWords(query, language))].filter((w) => !STOP_WORDS.has(fold(w)));
  words = [
    ...new Set(
      words.map((w) =>
        language === null ? [...w].slice(0, NEUTRAL_PREFIX).join('') : fullTextWord(w, language),
      ),
    ),
  ];
  words = words.slice(0, 32);
  return { config, tsquery: words.length > 0 ? words.map((w) => `${w}:*`).join(' | ') : null };
}
