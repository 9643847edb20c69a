import { formatPercent } from '../../i18n/format.ts';
import { i18n } from '../../i18n/index.ts';

/**
 * Why a passage ranked, in a support manager's words (docs/knowledge.md "Retrieval"; docs/dashboard.md
 * "Knowledge"): its place among the passages sharing words with the question (lexical), among
 * the passages closest in meaning (vector), and how relevant it is to the question. In the
 * dashboard's language (docs/languages.md "Dashboard").
 */

/** 1 → "1st", 2 → "2nd", 11 → "11th", 23 → "23rd" ("1.º" in Spanish): i18next's ordinal plurals. */
export const ordinal = (n: number) => i18n.t('knowledge:why.rank', { count: n, ordinal: true });

export function whyWords(hit: { lexicalRank: number | null; vectorRank: number | null; relevance: number }) {
  const words =
    hit.lexicalRank === null
      ? i18n.t('knowledge:why.wordsNone')
      : hit.lexicalRank === 1
        ? i18n.t('knowledge:why.wordsFirst')
        : i18n.t('knowledge:why.wordsRank', { rank: ordinal(hit.lexicalRank) });
  const meaning =
    hit.vectorRank === null
      ? i18n.t('knowledge:why.meaningNone')
      : hit.vectorRank === 1
        ? i18n.t('knowledge:why.meaningFirst')
        : i18n.t('knowledge:why.meaningRank', { rank: ordinal(hit.vectorRank) });
  return i18n.t('knowledge:why.line', { words, meaning, relevance: formatPercent(hit.relevance, 0) });
}
