import {
  BIGRAM_WEIGHT,
  cjkBigrams,
  compoundParts,
  isCompounding,
  PART_WEIGHT,
  termOf,
  termsOf,
} from './analysis.ts';
import type { NamespaceTerms } from './lexical-index.ts';

/** Subword terms of a question at most (its words have their own bound). */
const MAX_SUBWORDS = 64;

/**
 * The language to read a question in: the one detected in it when the knowledge has passages in
 * that language. Otherwise (too short or unclear to tell, or a language the knowledge lacks),
 * language-neutrally: each language the knowledge has is tried, and the reading whose terms the
 * knowledge holds most of wins (ties: the knowledge's most common language first, the detected one
 * last). A few map lookups per language; no model.
 */
export function queryLanguage(
  entries: NamespaceTerms[],
  query: string,
  detected: string | null,
): string | null {
  const counts = new Map<string, number>();
  for (const e of entries) for (const [l, n] of e.languages) counts.set(l, (counts.get(l) ?? 0) + n);
  if (detected !== null && counts.has(detected)) return detected;
  const candidates = [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([l]) => l || null);
  if (detected !== null) candidates.push(detected);
  let best: string | null = candidates[0] ?? detected;
  let most = -1;
  for (const language of candidates) {
    const ts = new Set(termsOf(query, language));
    let found = 0;
    for (const t of ts) if (entries.some((e) => e.postings.has(t))) found++;
    if (found > most) {
      most = found;
      best = language;
    }
  }
  return best;
}

/**
 * The question's subword terms with their weights (lexical-index.ts `rank`), beside its words
 * (`words`, weight 1): the parts of its compounds, split with the knowledge's own dictionary as the
 * passages' were (analysis.ts `compoundParts`), and the character bigrams of its Chinese and
 * Japanese runs (`cjkBigrams`). A part that is also one of its words stays a word. `parts`: the
 * compounds' parts, which are content words of the question as the compounds are.
 */
export function subwordTerms(
  entries: NamespaceTerms[],
  query: string,
  asked: string[],
  language: string | null,
  words: ReadonlySet<string>,
): { weights: Map<string, number>; parts: string[] } {
  const weights = new Map<string, number>();
  const parts: string[] = [];
  const add = (t: string, weight: number) => {
    if (words.has(t) || weights.has(t) || weights.size >= MAX_SUBWORDS) return false;
    weights.set(t, weight);
    return true;
  };
  if (isCompounding(language)) {
    const known = (t: string) => entries.some((e) => e.dictionary?.has(t));
    for (const w of asked) {
      // a word the knowledge holds whole is met whole: its parts would only add what it is not about
      if (known(termOf(w, language))) continue;
      for (const t of compoundParts(w, language, known)) if (add(t, PART_WEIGHT)) parts.push(t);
    }
  }
  for (const g of cjkBigrams(query)) add(g, BIGRAM_WEIGHT);
  return { weights, parts };
}
