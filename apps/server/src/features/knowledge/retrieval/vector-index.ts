import { sql } from 'drizzle-orm';
import type { AppContext } from '../../../context.ts';
import { type Executor, queryRows } from '../../../db/client.ts';
import type { LexicalIndex } from './lexical-cache.ts';
import { hasVectorColumn, requestBackfill } from './vector-backfill.ts';
import { type NamespaceMatrix, type Scored, topK, VectorCache } from './vector-cache.ts';

/** Dimensions that get an HNSW index where pgvector exists (vector-migrations). */
export const INDEXED_DIMS = [384, 768, 1024, 1536] as const;

/**
 * Nearest chunks under some namespaces: pgvector HNSW where the extension is installed (with
 * iterative scans so the namespace filter never starves the result), otherwise an exact scan
 * in process over cached namespace matrices (docs/architecture.md "Stack").
 */
export type IndexKind = 'adaptive' | 'hnsw' | 'exact';

export interface VectorIndex {
  readonly kind: IndexKind;
  /** `versions`: the namespaces' versions when the caller has read them already (else read here). */
  nearest(namespaces: string[], query: Float32Array, k: number, versions?: Versions): Promise<Scored[]>;
}

/**
 * What this process has learnt about vector search, on `AppContext` as `ctx.vectors` (built
 * empty by bootstrap.ts, filled on first use).
 */
export type VectorState = {
  /** The index searches use: detected on the first search, or forced by `useVectorIndex`. */
  index?: Promise<VectorIndex>;
  /** Whether the database has the vector column (vector-backfill.ts `hasVectorColumn`). */
  hasColumn?: Promise<boolean>;
  /** PGlite only: the HNSW search settings are set on its one session. */
  searchSettingsSet?: boolean;
  /** The lexical side's in-process index (lexical-cache.ts), built on first use. */
  lexical?: LexicalIndex;
  /** The embedder for which a re-embedding pass found nothing left (reembed.ts `reembedStep`). */
  reembedDoneFor?: object;
};

export function vectorIndexFor(ctx: AppContext): Promise<VectorIndex> {
  ctx.vectors.index ??= detect(ctx);
  return ctx.vectors.index;
}

async function detect(ctx: AppContext): Promise<VectorIndex> {
  return (await hasVectorColumn(ctx)) ? adaptiveIndex(ctx) : exactIndex(ctx);
}

/** Forces a kind (tests compare both paths on the same data; benchmarks measure each). */
export function useVectorIndex(
  ctx: AppContext,
  kind: IndexKind,
  opts: { exactMaxChunks?: number } = {},
): VectorIndex {
  const index =
    kind === 'hnsw'
      ? hnswIndex(ctx)
      : kind === 'exact'
        ? exactIndex(ctx)
        : adaptiveIndex(ctx, opts.exactMaxChunks);
  ctx.vectors.index = Promise.resolve(index);
  return index;
}

const literal = (v: Float32Array) => `[${Array.from(v, (x) => (Number.isFinite(x) ? x : 0)).join(',')}]`;

/**
 * Runs `query` with the HNSW search settings: iterative scans keep the namespace filter from
 * starving the result (pgvector 0.8). PGlite has one connection, so they are set once for the
 * session; on a pool they are set per transaction, on the connection that searches.
 */
async function withSearchSettings<T>(ctx: AppContext, query: (db: Executor) => Promise<T>): Promise<T> {
  if (ctx.database.kind === 'pglite') {
    if (!ctx.vectors.searchSettingsSet) {
      await ctx.db.execute(sql`set hnsw.iterative_scan = relaxed_order`);
      await ctx.db.execute(sql`set hnsw.ef_search = 100`);
      ctx.vectors.searchSettingsSet = true;
    }
    return query(ctx.db);
  }
  return ctx.db.transaction(async (tx) => {
    await tx.execute(sql`set local hnsw.iterative_scan = relaxed_order`);
    await tx.execute(sql`set local hnsw.ef_search = 100`);
    return query(tx);
  });
}

/**
 * The index alone: it finds only chunks whose vectors were filled (vector-backfill.ts). Both
 * paths compare only vectors of the configured embedder: during a re-index (reembed.ts) older
 * vectors of the same dimension mean nothing to the query's.
 */
function hnswIndex(ctx: AppContext): VectorIndex {
  return {
    kind: 'hnsw',
    async nearest(namespaces, query, k) {
      const dims = query.length;
      if (!(INDEXED_DIMS as readonly number[]).includes(dims))
        return exactIndex(ctx).nearest(namespaces, query, k);
      const cast = sql.raw(`vector(${dims})`);
      const rows = await withSearchSettings(ctx, (db) =>
        queryRows<{ id: string; distance: number }>(
          db,
          sql`select id, embedding_v::${cast} <=> ${literal(query)}::${cast} as distance
            from knowledge_chunks
            where dims = ${dims} and embedder = ${ctx.embedder.id}
              and namespace = any(${sql.param(namespaces)}::text[])
            order by embedding_v::${cast} <=> ${literal(query)}::${cast}
            limit ${k}`,
        ),
      );
      return rows.map((r) => ({ id: r.id, score: 1 - Number(r.distance) }));
    },
  };
}

export type Versions = Map<string, number>;

export async function namespaceVersions(ctx: AppContext, namespaces: string[]): Promise<Versions> {
  const rows = await queryRows<{ namespace: string; version: number }>(
    ctx.db,
    sql`select namespace, version from namespace_versions where namespace = any(${sql.param(namespaces)}::text[])`,
  );
  return new Map(rows.map((v) => [v.namespace, Number(v.version)]));
}

type ExactIndex = VectorIndex & {
  nearestAt(versions: Versions, namespaces: string[], query: Float32Array, k: number): Promise<Scored[]>;
};

function exactIndex(ctx: AppContext): ExactIndex {
  const cache = new VectorCache();
  // One load per namespace version at a time: when a source changes, the chats that arrive
  // together all wait for the same read instead of each parsing the whole namespace.
  const loading = new Map<string, Promise<NamespaceMatrix>>();
  function matrix(namespace: string, version: number, dims: number): Promise<NamespaceMatrix> {
    const hit = cache.get(namespace, version, dims);
    if (hit) return Promise.resolve(hit);
    const key = `${namespace}\u0000${version}\u0000${dims}`;
    let pending = loading.get(key);
    if (!pending) {
      pending = load(namespace, version, dims).finally(() => loading.delete(key));
      loading.set(key, pending);
    }
    return pending;
  }
  async function load(namespace: string, version: number, dims: number): Promise<NamespaceMatrix> {
    const rows = await queryRows<{ id: string; embedding: number[] | string }>(
      ctx.db,
      sql`select id, embedding from knowledge_chunks
          where namespace = ${namespace} and dims = ${dims} and embedder = ${ctx.embedder.id} order by id`,
    );
    const data = new Float32Array(rows.length * dims);
    for (const [i, r] of rows.entries()) data.set(parseArray(r.embedding).slice(0, dims), i * dims);
    const entry = { version, dims, ids: rows.map((r) => r.id), data };
    cache.set(namespace, entry);
    return entry;
  }
  const nearestAt = async (versions: Versions, namespaces: string[], query: Float32Array, k: number) => {
    const matrices = await Promise.all(
      namespaces.map((ns) => matrix(ns, versions.get(ns) ?? 0, query.length)),
    );
    return topK(matrices, query, k);
  };
  return {
    kind: 'exact',
    nearestAt,
    async nearest(namespaces, query, k, versions) {
      if (namespaces.length === 0) return [];
      return nearestAt(versions ?? (await namespaceVersions(ctx, namespaces)), namespaces, query, k);
    },
  };
}

/**
 * Below this many vectors an exact scan in process beats HNSW on this hardware (on PGlite by
 * 8x at 10,000 chunks: docs/performance.md); above it the index answers and no process holds
 * the whole namespace in memory.
 */
export const EXACT_MAX_CHUNKS = 50_000;

/**
 * Where pgvector exists: exact for small namespaces, HNSW for large ones, decided per query.
 * Vectors are only in the index for namespaces whose backfill is done (vector-backfill.ts), so
 * a large search uses HNSW for those and scans the rest exactly (asking for their backfill);
 * both give cosine similarity, so the merged top-k is the same as one search over all.
 */
function adaptiveIndex(ctx: AppContext, exactMax = EXACT_MAX_CHUNKS): VectorIndex {
  const exact = exactIndex(ctx);
  const hnsw = hnswIndex(ctx);
  const sizes = new Map<string, { version: number; n: number }>();
  async function sizeOf(namespace: string, version: number): Promise<number> {
    const known = sizes.get(namespace);
    if (known && known.version === version) return known.n;
    const [row] = await queryRows<{ n: number }>(
      ctx.db,
      sql`select count(*)::int as n from knowledge_chunks where namespace = ${namespace}`,
    );
    if (sizes.size > 10_000) sizes.clear();
    sizes.set(namespace, { version, n: Number(row?.n ?? 0) });
    return Number(row?.n ?? 0);
  }
  return {
    kind: 'adaptive',
    async nearest(namespaces, query, k, known) {
      if (namespaces.length === 0) return [];
      const versions = known ?? (await namespaceVersions(ctx, namespaces));
      let total = 0;
      for (const ns of namespaces) total += await sizeOf(ns, versions.get(ns) ?? 0);
      if (total <= exactMax) return exact.nearestAt(versions, namespaces, query, k);
      const states = await queryRows<{ namespace: string; ready: boolean }>(
        ctx.db,
        sql`select namespace, ready from knowledge_vector_namespaces where namespace = any(${sql.param(namespaces)}::text[])`,
      );
      const indexed = new Set(states.filter((s) => s.ready === true).map((s) => s.namespace));
      const scanned = namespaces.filter((ns) => !indexed.has(ns));
      const listed = new Set(states.map((s) => s.namespace));
      await requestBackfill(
        ctx,
        namespaces.filter((ns) => !listed.has(ns)),
      );
      const [fromIndex, fromScan] = await Promise.all([
        indexed.size > 0 ? hnsw.nearest([...indexed], query, k) : Promise.resolve([]),
        scanned.length > 0 ? exact.nearestAt(versions, scanned, query, k) : Promise.resolve([]),
      ]);
      return [...fromIndex, ...fromScan].sort((a, b) => b.score - a.score).slice(0, k);
    },
  };
}

/** node-postgres returns real[] as an array; PGlite may too, older drivers as '{...}' text. */
function parseArray(v: number[] | string): number[] {
  if (Array.isArray(v)) return v.map(Number);
  return v.replace(/[{}]/g, '').split(',').map(Number);
}
