import { mapOnEventLoop } from '../../lib/on-event-loop.ts';
import type { Embedder } from './types.ts';

/**
 * The built-in offline embedder: deterministic feature hashing of words, word pairs and
 * character trigrams into a fixed number of dimensions, L2-normalised. No downloads, no network.
 *
 * What it is: a fast lexical embedding. Texts that share words (or parts of words, so plurals
 * and small typos still meet) land close together. What it is not: semantic. It does not know
 * that "refund" and "money back" mean the same thing; configure an embeddings provider for that.
 */
export const OFFLINE_DIMENSIONS = 384;

/** Words too common to say what a text is about (also retrieval's content words, word-frequency.ts). */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  'a an and are as at be by for from has have how i in is it its of on or that the this to was what when where which who why will with you your do does can we our my me'.split(
    ' ',
  ),
);

/** FNV-1a, 32 bit. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * Words of a text for the hashed features, accents and case folded. Runs of Chinese or Japanese
 * stay whole: their character trigrams did as well as segmented words on the multilingual
 * development set (docs/performance.md "Answer quality in every language"), and the vectors
 * stored so far stay valid.
 */
export function tokenize(text: string): string[] {
  return (
    text
      .normalize('NFKD')
      .replace(/\p{M}+/gu, '')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  ).filter((w) => !STOP_WORDS.has(w));
}

/** A light stemmer so "refunds", "refunded" and "refunding" share a feature. */
function stem(word: string): string {
  if (word.length <= 4) return word;
  return word.replace(/(ing|edly|ed|ies|es|s|ly)$/, '');
}

function add(vec: Float32Array, feature: string, weight: number) {
  const h = fnv1a(feature);
  const index = h % vec.length;
  vec[index] = (vec[index] ?? 0) + (h & 0x80000000 ? -weight : weight);
}

export function embedOffline(text: string, dimensions = OFFLINE_DIMENSIONS): Float32Array {
  const vec = new Float32Array(dimensions);
  const words = tokenize(text).map(stem);
  for (let i = 0; i < words.length; i++) {
    const w = words[i] ?? '';
    add(vec, `w:${w}`, 1);
    if (i + 1 < words.length) add(vec, `b:${w} ${words[i + 1]}`, 0.5);
    const padded = `^${w}$`;
    for (let j = 0; j + 3 <= padded.length; j++) add(vec, `c:${padded.slice(j, j + 3)}`, 0.25);
  }
  let norm = 0;
  for (let i = 0; i < vec.length; i++) {
    // sublinear term frequency keeps one repeated word from dominating
    const v = vec[i] ?? 0;
    const s = Math.sign(v) * Math.sqrt(Math.abs(v));
    vec[i] = s;
    norm += s * s;
  }
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < vec.length; i++) vec[i] = (vec[i] ?? 0) / norm;
  return vec;
}

export function createOfflineEmbedder(dimensions = OFFLINE_DIMENSIONS): Embedder {
  return {
    id: `offline-hash-v1-${dimensions}`,
    dimensions,
    // unrelated texts score near 0 with hashed features; 0.1 keeps shared-word matches
    minSimilarity: 0.1,
    embed: (texts, signal) => mapOnEventLoop(texts, (t) => embedOffline(t, dimensions), signal),
  };
}
