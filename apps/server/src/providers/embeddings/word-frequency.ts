import { STOP_WORDS } from './offline.ts';
import { lookup } from './semantic.ts';
import { type WordVectors, wordVectors } from './word-vectors.ts';

/**
 * How common a word is in English, from the word vectors' frequency ranks by Zipf's law (the
 * estimate SIF's weights use, semantic.ts). Retrieval uses it to tell whether a content word a
 * question shares with a small knowledge base is evidence or a coincidence (docs/knowledge.md
 * "Retrieval", `relevance`).
 */

/** A word that says what a text is about: not a stop word, a single character or a bare number. */
export const isContentWord = (word: string) =>
  word.length > 1 && !/^\p{N}+$/u.test(word) && !STOP_WORDS.has(word);

let contentUse: { table: WordVectors; zipf: number; total: number } | undefined;

/**
 * The share of English content-word use that `word` accounts for (a word the vocabulary does not
 * hold counts as the rarest it could), or null without the word vectors package.
 */
export function contentShare(word: string): number | null {
  const table = wordVectors();
  if (!table) return null;
  if (contentUse?.table !== table) {
    const zipf = Math.log(table.size) + 0.5772;
    let total = 0;
    for (const [w, r] of table.rank) if (isContentWord(w)) total += 1 / ((r + 1) * zipf);
    contentUse = { table, zipf, total };
  }
  const rank = lookup(table, word, true) ?? table.size;
  return 1 / ((rank + 1) * contentUse.zipf * contentUse.total);
}
