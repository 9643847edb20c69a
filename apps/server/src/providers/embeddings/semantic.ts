import { stemmer } from 'stemmer';
import { mapOnEventLoop } from '../../lib/on-event-loop.ts';
import { createOfflineEmbedder, embedOffline, OFFLINE_DIMENSIONS } from './offline.ts';
import type { Embedder } from './types.ts';
import { WORD_DIMENSIONS, type WordVectors, wordVectors } from './word-vectors.ts';

/**
 * The default offline embedder (docs/knowledge.md "Embeddings"): a frequency-weighted average of
 * English word vectors (word-vectors.ts), so "refund" and "money back" land near each other,
 * beside the hashed word and trigram features of offline.ts (words the vectors do not know,
 * names, codes, typos). Each part is unit length and weighted so that the cosine of two texts is
 * `share` of the word-vector cosine plus the rest of the hashed one.
 *
 * Word weights follow SIF (smooth inverse frequency, Arora et al. 2017): a / (a + p(w)), with p(w)
 * the word's frequency estimated from its rank in the vectors' vocabulary (Zipf's law), so "the"
 * counts almost nothing and "refund" fully; the vocabulary's common direction is then removed.
 * A word the vectors do not know is looked up again stemmed and without a common suffix
 * ("quarantining" -> "quarantine"). Without the package installed it hashes only.
 */
export type SemanticOptions = {
  /** Share of the cosine that comes from the word vectors (the rest from hashed features). */
  share: number;
  /** SIF's a. */
  sifA: number;
  /** Remove the vocabulary's common direction. */
  removeCommon: boolean;
  /** Look unknown words up again stemmed / without a suffix. */
  fallback: boolean;
};

/** Measured on the development set (docs/performance.md "Answer quality"). */
export const SEMANTIC_DEFAULTS: SemanticOptions = {
  share: 0.7,
  sifA: 0.03,
  removeCommon: true,
  fallback: true,
};

/** Bump when the vectors this produces change: stored chunks are then re-embedded (reembed.ts). */
const VERSION = 3;

const SUFFIXES = ['ing', 'ed', 'es', 's', 'ly', 'er', 'ers', 'ment', 'ness'];

/** The word's row in the table, trying a stem and a shorter form when it is not there as is. */
export function lookup(table: WordVectors, word: string, fallback: boolean): number | undefined {
  const direct = table.rank.get(word);
  if (direct !== undefined || !fallback || !/^[a-z]+$/.test(word)) return direct;
  const stem = stemmer(word);
  const candidates = [stem, `${stem}e`];
  for (const suffix of SUFFIXES) {
    if (word.length > suffix.length + 2 && word.endsWith(suffix)) {
      const base = word.slice(0, -suffix.length);
      candidates.push(base, `${base}e`);
    }
  }
  for (const c of candidates) {
    const r = table.rank.get(c);
    if (r !== undefined) return r;
  }
  return undefined;
}

const words = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .match(/[\p{L}\p{N}]+/gu) ?? [];

/** The SIF average of a text's known words (unit length), or null when it knows none. */
export function sifVector(table: WordVectors, text: string, o: SemanticOptions): Float32Array | null {
  const sem = new Float32Array(WORD_DIMENSIONS);
  const zipf = Math.log(table.size) + 0.5772;
  let any = false;
  for (const w of words(text)) {
    const r = lookup(table, w, o.fallback);
    if (r === undefined) continue;
    const p = 1 / ((r + 1) * zipf);
    const weight = o.sifA / (o.sifA + p);
    const base = r * WORD_DIMENSIONS;
    for (let i = 0; i < WORD_DIMENSIONS; i++) sem[i] = sem[i]! + weight * table.data[base + i]!;
    any = true;
  }
  if (!any) return null;
  if (o.removeCommon) {
    const u = commonDirection(table);
    let along = 0;
    for (let i = 0; i < WORD_DIMENSIONS; i++) along += sem[i]! * u[i]!;
    for (let i = 0; i < WORD_DIMENSIONS; i++) sem[i] = sem[i]! - along * u[i]!;
  }
  let norm = 0;
  for (let i = 0; i < WORD_DIMENSIONS; i++) norm += sem[i]! * sem[i]!;
  norm = Math.sqrt(norm);
  if (norm === 0) return null;
  for (let i = 0; i < WORD_DIMENSIONS; i++) sem[i] = sem[i]! / norm;
  return sem;
}

export function embedSemantic(
  text: string,
  dimensions = OFFLINE_DIMENSIONS,
  o: SemanticOptions = SEMANTIC_DEFAULTS,
): Float32Array {
  const table = wordVectors();
  if (!table || o.share <= 0) return embedOffline(text, dimensions);
  const hashed = embedOffline(text, dimensions - WORD_DIMENSIONS);
  const sem = sifVector(table, text, o);
  const out = new Float32Array(dimensions);
  const semScale = sem ? Math.sqrt(o.share) : 0;
  const hashScale = Math.sqrt(1 - o.share);
  if (sem) for (let i = 0; i < WORD_DIMENSIONS; i++) out[i] = sem[i]! * semScale;
  for (let i = 0; i < hashed.length; i++) out[WORD_DIMENSIONS + i] = hashed[i]! * hashScale;
  // a text with no known word is hashed only: renormalise so it stays unit length
  if (!sem) for (let i = WORD_DIMENSIONS; i < dimensions; i++) out[i] = out[i]! / hashScale;
  return out;
}

let common: { table: WordVectors; u: Float32Array } | undefined;
/**
 * What every average of word vectors shares (SIF's "common component"): the frequency-weighted
 * mean direction of the vocabulary. Removed from each text's average, it stops unrelated texts
 * from looking alike merely for being English sentences.
 */
function commonDirection(table: WordVectors): Float32Array {
  if (common?.table === table) return common.u;
  const u = new Float32Array(WORD_DIMENSIONS);
  const n = table.data.length / WORD_DIMENSIONS;
  for (let r = 0; r < n; r++) {
    const p = 1 / (r + 1);
    for (let i = 0; i < WORD_DIMENSIONS; i++) u[i] = u[i]! + p * table.data[r * WORD_DIMENSIONS + i]!;
  }
  let norm = 0;
  for (let i = 0; i < WORD_DIMENSIONS; i++) norm += u[i]! * u[i]!;
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < WORD_DIMENSIONS; i++) u[i] = u[i]! / norm;
  common = { table, u };
  return u;
}

export function createSemanticEmbedder(dimensions = OFFLINE_DIMENSIONS): Embedder {
  // without the vectors package it is the hashing embedder, and says so in its id
  if (!wordVectors()) return createOfflineEmbedder(dimensions);
  return {
    id: `offline-wv-v${VERSION}-${dimensions}`,
    dimensions,
    // related texts share meaning even with no word in common; below this it is noise (a word the
    // vectors do not know matches on its spelling alone, at 0.1 to 0.14 against unrelated text)
    minSimilarity: 0.15,
    embed: (texts, signal) => mapOnEventLoop(texts, (t) => embedSemantic(t, dimensions), signal),
  };
}
