/**
 * Why a passage ranked, in a support manager's words (docs/knowledge.md "Retrieval"; docs/dashboard.md
 * "Knowledge"): its place among the passages sharing words with the question (lexical), among
 * the passages closest in meaning (vector), and how relevant it is to the question.
 */

const ORDINAL_SUFFIX: Record<string, string> = { one: 'st', two: 'nd', few: 'rd', other: 'th' };
const ordinals = new Intl.PluralRules('en', { type: 'ordinal' });

/** 1 → "1st", 2 → "2nd", 11 → "11th", 23 → "23rd". */
export const ordinal = (n: number) => `${n}${ORDINAL_SUFFIX[ordinals.select(n)] ?? 'th'}`;

export function whyWords(hit: { lexicalRank: number | null; vectorRank: number | null; relevance: number }) {
  const words =
    hit.lexicalRank === null
      ? 'No words in common with the question'
      : hit.lexicalRank === 1
        ? 'Most words in common with the question'
        : `${ordinal(hit.lexicalRank)} most words in common`;
  const meaning =
    hit.vectorRank === null
      ? 'not close in meaning'
      : hit.vectorRank === 1
        ? 'closest in meaning'
        : `${ordinal(hit.vectorRank)} closest in meaning`;
  return `${words} · ${meaning} · relevance to the question: ${Math.round(hit.relevance * 100)}%`;
}
