import { STOP_WORDS } from '../../../providers/embeddings/offline.ts';
import { contentShare, isContentWord } from '../../../providers/embeddings/word-frequency.ts';
import {
  cjkBigrams,
  compoundDictionary,
  compoundParts,
  fold,
  PART_WEIGHT,
  rawWords,
  stopWordsOf,
  termOf,
  termsOf,
} from './analysis.ts';
import type { ChunkRow } from './lexical-cache.ts';

/**
 * Lexical ranking (docs/knowledge.md "Lexical ranking"): BM25 over an in-process inverted index
 * of each namespace's current chunks, cached with the namespace's version exactly as the
 * vector matrices are (vector-cache.ts), so every process sees a change on its next query and
 * PGlite and PostgreSQL rank alike. Words are folded (accents, case) and stemmed (Porter); the query's terms are OR-ed (a paraphrase sharing one rare word still
 * matches); term frequency saturates (k1) and long chunks are normalised (b). Fields count
 * differently (a BM25F-style weighted frequency): a chunk's heading, which for a Q&A pair is its
 * question (also the body's first line), counts HEADING_WEIGHT times more, title and body once.
 *
 * Namespaces above LEXICAL_MAX_CHUNKS are not held in memory: retrieval ranks them with
 * PostgreSQL full text instead (retrieval.ts).
 *
 * Each chunk is read in its own language (its `language`, detected at ingestion; analysis.ts), and
 * the question in the language detected in it (query-terms.ts `queryLanguage`). Beside the words,
 * subword terms, weighted below them (`rank`'s `weights`) and left out of the lengths: a German or
 * Dutch compound's parts, and the character bigrams of Chinese and Japanese.
 */
export const K1 = 1.2;
export const B = 0.75;
export const HEADING_WEIGHT = 2;
export const LEXICAL_MAX_CHUNKS = 50_000;
/**
 * The largest chance of a coincidence at which a content word shared with the question is taken
 * as evidence (`LexicalHit.telling`): one unrelated question in ten. Only small knowledge bases
 * get there: the 68 FAQs of the development set use words that make up a quarter of English
 * content-word use, so there any question's chance is above 0.2 (docs/performance.md "Answer quality").
 */
export const CHANCE = 0.1;

/** The terms of a text as the index sees them (English, or a passage with no language). */
export function terms(text: string): string[] {
  return termsOf(text, null);
}

/**
 * A word that says what a text is about in its language: not a stop word of that language
 * (analysis.ts), a single character or a bare number.
 */
export const isContentWordIn = (word: string, language: string | null) =>
  language === null || language === 'en'
    ? isContentWord(word)
    : word.length > 1 && !/^\p{N}+$/u.test(word) && !stopWordsOf(language, STOP_WORDS).has(fold(word));

/**
 * `tf`: the weighted frequency, negative where the term is also in the chunk's heading (a Q&A
 * pair's question): a sign rather than a third array, which would hold as many entries again.
 */
type Postings = { docs: number[]; tf: number[] };
export type NamespaceTerms = {
  version: number;
  ids: string[];
  /** Weighted length of each chunk. */
  lengths: Float32Array;
  totalLength: number;
  postings: Map<string, Postings>;
  /**
   * The share of English content-word use that the namespace's words make up (counted up to just
   * past CHANCE; 1 or more without the word vectors).
   */
  contentMass: number;
  /** Entries held, for the cache bound. */
  size: number;
  /** Chunks by language ('' for none). */
  languages: Map<string, number>;
  /** The same over the chunks' headings alone (`LexicalHit.headingMatch`). */
  headings?: NamespaceTerms;
  /** The terms compounds are split into (analysis.ts `compoundDictionary`), when any chunk compounds. */
  dictionary?: ReadonlySet<string>;
  /** The chunks' rows by id (lexical-cache.ts `rowsOf`), when loaded whole. */
  rows?: Map<string, ChunkRow>;
};

/**
 * `telling`: the chunk contains a content word of the question (stemmed; not a stop word or a bare
 * number) and the knowledge is small enough that an unrelated question would share one of its
 * content words with it at most CHANCE of the time (`chanceOfSharing`). In a base of a few
 * passages the question's other words are mostly ones it never uses whatever the question, so
 * `coverage` says little there, and a shared content word says much.
 *
 * `coverage`: the share of the question's information (the sum of its distinct terms' IDF, a word
 * the namespace never uses counting as the rarest) that the chunk contains, in [0, 1]. Unlike the
 * score it does not depend on the other chunks' scores, so it can say "nothing here is about
 * this" (retrieval.ts `relevance`).
 *
 * `headingCoverage`: the same share, of the information the chunk's heading contains (for a Q&A
 * pair, its question): people ask in the words of questions, so a pair whose question holds most
 * of what was asked is the likely answer, however long the other pairs' answers are. In a small
 * base (as for `telling`) only where the heading has a content word of the question: there every
 * word's IDF is alike, and sharing "how" and "my" would count as much as sharing "refund".
 *
 * `headingMatch`: BM25 of the question against the chunks' headings alone (their own statistics:
 * a word rare among questions counts more, a short heading matched is a closer match), over the
 * best heading's, in [0, 1]: a second view of the same question-to-question match.
 */
export type LexicalHit = {
  id: string;
  score: number;
  coverage: number;
  headingCoverage: number;
  headingMatch: number;
  telling: boolean;
};

export type ChunkText = {
  id: string;
  heading: string;
  title: string;
  content: string;
  language?: string | null;
};

export function build(
  version: number,
  rows: ChunkText[],
  withHeadings = true,
  dictionary = compoundDictionary(rows),
): NamespaceTerms {
  const postings = new Map<string, Postings>();
  const lengths = new Float32Array(rows.length);
  let totalLength = 0;
  let size = rows.length;
  const vocabulary = new Map<string, string | null>();
  const languages = new Map<string, number>();
  const partsOf = new Map<string, string[]>();
  rows.forEach((r, doc) => {
    const tf = new Map<string, number>();
    const inHeading = new Set<string>();
    const language = r.language ?? null;
    languages.set(language ?? '', (languages.get(language ?? '') ?? 0) + 1);
    let length = 0;
    const count = (t: string, weight: number, heading: boolean) => {
      if (heading) inHeading.add(t);
      tf.set(t, (tf.get(t) ?? 0) + weight);
    };
    const add = (text: string, weight: number, heading = false) => {
      for (const w of rawWords(text, language)) {
        count(termOf(w, language), weight, heading);
        length += weight;
        vocabulary.set(w, language);
        if (!dictionary) continue;
        let parts = partsOf.get(w);
        if (!parts) {
          parts = compoundParts(w, language, (t) => dictionary.has(t));
          partsOf.set(w, parts);
        }
        for (const t of parts) count(t, weight * PART_WEIGHT, heading);
      }
      // subword terms add evidence, not length: the words' normalisation stays as it was
      for (const g of cjkBigrams(text)) count(g, weight, heading);
    };
    add(r.heading, HEADING_WEIGHT, true);
    add(r.title, 1);
    add(r.content, 1);
    lengths[doc] = length;
    totalLength += length;
    for (const [t, f] of tf) {
      let p = postings.get(t);
      if (!p) {
        p = { docs: [], tf: [] };
        postings.set(t, p);
      }
      p.docs.push(doc);
      p.tf.push(inHeading.has(t) ? -f : f);
      size++;
    }
  });
  let contentMass = 0;
  for (const [w, language] of vocabulary) {
    // past CHANCE no question can find a telling word here: a large namespace stops counting early
    if (contentMass > CHANCE) break;
    // (how common a word is comes from English word frequencies, whatever its language)
    if (isContentWordIn(w, language)) contentMass += contentShare(fold(w)) ?? 1;
  }
  const headings = withHeadings
    ? build(
        version,
        rows.map((r) => ({ id: r.id, heading: r.heading, title: '', content: '', language: r.language })),
        false,
        dictionary,
      )
    : undefined;
  if (headings) size += headings.size;
  if (dictionary && withHeadings) size += dictionary.size;
  const ids = rows.map((r) => r.id);
  return { version, ids, lengths, totalLength, postings, size, contentMass, headings, languages, dictionary };
}

/**
 * The chance that a question with `k` distinct content words, about something else, shares at
 * least one with knowledge whose words make up `mass` of English content-word use (each word an
 * independent draw).
 */
export const chanceOfSharing = (mass: number, k: number) => 1 - (1 - Math.min(1, mass)) ** k;

/**
 * BM25 with statistics over all the given namespaces together (one collection to the asker).
 * `content`: the query's content terms (for `telling`). `weights`: a query term's weight (1 when
 * absent), which scales its IDF wherever it counts: the subword terms' (query-terms.ts).
 */
export function rank(
  entries: NamespaceTerms[],
  queryTerms: string[],
  k: number,
  content: ReadonlySet<string> = new Set(),
  weights: ReadonlyMap<string, number> = new Map(),
): LexicalHit[] {
  let n = 0;
  let total = 0;
  let mass = 0; // words two namespaces share count twice: the chance errs high
  for (const e of entries) {
    n += e.ids.length;
    total += e.totalLength;
    mass += e.contentMass;
  }
  const small = chanceOfSharing(mass, content.size) <= CHANCE;
  if (n === 0 || queryTerms.length === 0) return [];
  const avg = total / n || 1;
  // Per namespace, dense arrays by chunk (a Map a term was the hot spot of a chat's CPU:
  // docs/performance.md "Chat capacity"), and the chunks touched, in the order first met.
  const acc = entries.map((e) => ({
    score: new Float64Array(e.ids.length),
    found: new Float64Array(e.ids.length),
    inHeading: new Float64Array(e.ids.length),
    /** Bit 1: touched; 2: a content term in its heading; 4: telling. */
    flags: new Uint8Array(e.ids.length),
    touched: [] as number[],
  }));
  let information = 0;
  for (const t of queryTerms) {
    let df = 0;
    for (const e of entries) df += e.postings.get(t)?.docs.length ?? 0;
    const idf = (weights.get(t) ?? 1) * Math.log(1 + (n - df + 0.5) / (df + 0.5));
    information += idf;
    if (df === 0) continue;
    const isContent = content.has(t);
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i]!;
      const p = e.postings.get(t);
      if (!p) continue;
      const a = acc[i]!;
      for (let j = 0; j < p.docs.length; j++) {
        const doc = p.docs[j]!;
        const signed = p.tf[j]!;
        const f = Math.abs(signed);
        const norm = K1 * (1 - B + (B * e.lengths[doc]!) / avg);
        if ((a.flags[doc]! & 1) === 0) {
          a.flags[doc] = 1;
          a.touched.push(doc);
        }
        a.score[doc]! += (idf * f * (K1 + 1)) / (f + norm);
        a.found[doc]! += idf;
        if (signed < 0) a.inHeading[doc]! += idf;
        if (signed < 0 && isContent) a.flags[doc]! |= 2;
        if (small && isContent) a.flags[doc]! |= 4;
      }
    }
  }
  const hits: LexicalHit[] = [];
  entries.forEach((e, i) => {
    const a = acc[i]!;
    for (const doc of a.touched)
      hits.push({
        id: e.ids[doc]!,
        score: a.score[doc]!,
        coverage: a.found[doc]! / information,
        headingCoverage: !small || (a.flags[doc]! & 2) !== 0 ? a.inHeading[doc]! / information : 0,
        headingMatch: 0,
        telling: (a.flags[doc]! & 4) !== 0,
      });
  });
  const top = hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1)).slice(0, k);
  if (top.length > 0 && entries.every((e) => e.headings)) {
    const matched = new Set(top.filter((h) => h.headingCoverage > 0).map((h) => h.id));
    const heads = rank(
      entries.map((e) => e.headings!),
      queryTerms,
      Number.POSITIVE_INFINITY,
      undefined,
      weights,
    ).filter((h) => matched.has(h.id));
    const best = heads[0]?.score ?? 0;
    const scores = new Map(heads.map((h) => [h.id, h.score]));
    for (const h of top) h.headingMatch = best > 0 ? (scores.get(h.id) ?? 0) / best : 0;
  }
  return top;
}
