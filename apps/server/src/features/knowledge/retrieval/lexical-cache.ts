import { sql } from 'drizzle-orm';
import type { AppContext } from '../../../context.ts';
import { queryRows } from '../../../db/client.ts';
import { languageDetector } from '../../../lib/language-detect.ts';
import { rawWords, termOf } from './analysis.ts';
import {
  build,
  isContentWordIn,
  LEXICAL_MAX_CHUNKS,
  type LexicalHit,
  type NamespaceTerms,
  rank,
} from './lexical-index.ts';
import { queryLanguage, subwordTerms } from './query-terms.ts';
import type { RetrievedChunk } from './retrieval.ts';
import type { Versions } from './vector-index.ts';

/**
 * The lexical index held in process (docs/knowledge.md "Lexical ranking"): each namespace's terms
 * (lexical-index.ts `build`) and its chunks' rows, loaded on the first search and cached with the
 * namespace's version, as the vector matrices are (vector-cache.ts).
 */

/** A current chunk's row, as the database gives it to retrieval (retrieval.ts). */
export type ChunkRow = Pick<
  RetrievedChunk,
  'namespace' | 'heading' | 'title' | 'url' | 'position' | 'content' | 'language'
> & { id: string; source_id: string };

/** Cached namespaces, least recently used dropped beyond `maxEntries` postings. */
class TermsCache {
  private readonly entries = new Map<string, NamespaceTerms | 'large'>();
  private held = 0;
  constructor(private readonly maxEntries = 16_000_000) {}
  get(namespace: string, version: number) {
    const e = this.entries.get(namespace);
    if (e === undefined) return undefined;
    if (e !== 'large' && e.version !== version) return undefined;
    this.entries.delete(namespace);
    this.entries.set(namespace, e);
    return e;
  }
  /** The namespace's terms held at `version`, if they are (its place in the order unchanged). */
  peek(namespace: string, version: number): NamespaceTerms | undefined {
    const e = this.entries.get(namespace);
    return e !== undefined && e !== 'large' && e.version === version ? e : undefined;
  }
  set(namespace: string, e: NamespaceTerms | 'large') {
    const old = this.entries.get(namespace);
    if (old && old !== 'large') this.held -= old.size;
    this.entries.delete(namespace);
    this.entries.set(namespace, e);
    if (e !== 'large') this.held += e.size;
    for (const [key, v] of this.entries) {
      if (this.held <= this.maxEntries || key === namespace) break;
      this.entries.delete(key);
      if (v !== 'large') this.held -= v.size;
    }
  }
}

export type LexicalIndex = {
  /**
   * BM25 top `k` over the namespaces, or null when one of them is too large to hold (the
   * caller ranks with PostgreSQL full text then).
   */
  search(namespaces: string[], versions: Versions, query: string, k: number): Promise<LexicalHit[] | null>;
  /**
   * The rows of `ids` from the namespaces as held at `versions` (read with their terms, so a
   * reply's candidates need no statement of their own), or null when one is not held at that
   * version: the caller reads them from the database then. Ids of no held namespace are left out.
   */
  rowsOf(namespaces: string[], versions: Versions, ids: string[]): ChunkRow[] | null;
};

export function createLexicalIndex(ctx: AppContext, maxChunks = LEXICAL_MAX_CHUNKS): LexicalIndex {
  const cache = new TermsCache();
  const loading = new Map<string, Promise<NamespaceTerms | 'large'>>();
  async function load(namespace: string, version: number): Promise<NamespaceTerms | 'large'> {
    const rows = await queryRows<ChunkRow>(
      ctx.db,
      sql`select c.id, c.source_id, c.namespace, c.heading, c.title, c.url, c.position, c.content, c.language
          from knowledge_chunks c
          join knowledge_sources s on s.id = c.source_id and s.generation = c.generation
          where c.namespace = ${namespace} order by c.id limit ${maxChunks + 1}`,
    );
    const entry = rows.length > maxChunks ? ('large' as const) : withRows(build(version, rows), rows);
    cache.set(namespace, entry);
    return entry;
  }
  function entryOf(namespace: string, version: number) {
    const hit = cache.get(namespace, version);
    if (hit) return Promise.resolve(hit);
    const key = `${namespace}\u0000${version}`;
    let pending = loading.get(key);
    if (!pending) {
      pending = load(namespace, version).finally(() => loading.delete(key));
      loading.set(key, pending);
    }
    return pending;
  }
  return {
    async search(namespaces, versions, query, k) {
      const [entries, detect] = await Promise.all([
        Promise.all(namespaces.map((ns) => entryOf(ns, versions.get(ns) ?? 0))),
        languageDetector(),
      ]);
      if (entries.some((e) => e === 'large')) return null;
      const held = entries as NamespaceTerms[];
      const language = queryLanguage(held, query, detect(query));
      const asked = rawWords(query, language);
      const words = [...new Set(asked.map((w) => termOf(w, language)))].slice(0, 64);
      const content = new Set(
        asked.filter((w) => isContentWordIn(w, language)).map((w) => termOf(w, language)),
      );
      const { weights, parts } = subwordTerms(held, query, asked, language, new Set(words));
      for (const t of parts) content.add(t);
      return rank(held, [...words, ...weights.keys()], k, content, weights);
    },
    rowsOf(namespaces, versions, ids) {
      const held: Map<string, ChunkRow>[] = [];
      for (const ns of namespaces) {
        const e = cache.peek(ns, versions.get(ns) ?? 0);
        if (!e?.rows) return null;
        held.push(e.rows);
      }
      const rows: ChunkRow[] = [];
      for (const id of ids) {
        for (const m of held) {
          const row = m.get(id);
          if (row) {
            rows.push(row);
            break;
          }
        }
      }
      return rows;
    },
  };
}

/**
 * The rows kept beside the terms, counted in the cache's bound as the postings are (an entry
 * about 16 bytes: a row's text by the same measure).
 */
function withRows(terms: NamespaceTerms, rows: ChunkRow[]): NamespaceTerms {
  let chars = 0;
  for (const r of rows) chars += r.heading.length + r.title.length + r.content.length + (r.url?.length ?? 0);
  terms.rows = new Map(rows.map((r) => [r.id, { ...r, position: Number(r.position) }]));
  terms.size += rows.length + Math.ceil(chars / 8);
  return terms;
}
