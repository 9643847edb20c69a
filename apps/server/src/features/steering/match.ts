/**
 * How a customer's message is compared with trigger phrases and curated questions
 * (docs/steering.md "Matching"). Pure functions: no database, no model.
 */

/** Lower case, accents removed, every character that is not a letter or a digit a space, spaces collapsed. */
export function normalise(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLocaleLowerCase('und')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Scripts written without spaces between words: there a character stands for a word. */
const UNSPACED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

/**
 * Whether `phrase` is in `message` as whole words, both already normalised. A phrase in a script
 * written without spaces (Chinese, Japanese, Thai) has no word boundaries to hold to: it is found
 * anywhere in the message.
 */
export function containsPhrase(normalisedMessage: string, normalisedPhrase: string): boolean {
  if (normalisedPhrase === '') return false;
  if (UNSPACED.test(normalisedPhrase)) return normalisedMessage.includes(normalisedPhrase);
  return ` ${normalisedMessage} `.includes(` ${normalisedPhrase} `);
}

/** A question prepared for comparison: its normalised text and its words. */
export type PreparedQuestion = { text: string; words: Set<string> };

export const prepareQuestion = (question: string): PreparedQuestion => {
  const text = normalise(question);
  const words = new Set<string>();
  for (const token of text.split(' ')) {
    if (token === '') continue;
    if (!UNSPACED.test(token)) words.add(token);
    else for (const ch of token) words.add(ch);
  }
  return { text, words };
};

/**
 * The similarity at or above which a message asks the same thing as a curated question: a
 * weighted overlap of their words (`similarity`). Chosen on the public FAQ set for precision
 * (docs/steering.md "Matching"): a wrong verbatim answer costs more than the model's own.
 */
export const CURATED_THRESHOLD = 0.85;

/**
 * A word weighs by its length, up to 8 letters: short function words ("is", "my", "a") move the
 * score little, the words that carry the question ("refund", "software") move it most. For
 * scripts written without spaces each character is a word, and weighs fully.
 */
const weight = (word: string) => Math.min([...word].length, 8) / 8;

/**
 * Weighted Jaccard similarity of two questions' word sets: the weight of the shared words over
 * the weight of all words. 1 for the same words in any order; a word that changes the question
 * ("shoes" for "opened software", "unopened" for "opened") pulls it well below the threshold.
 */
export function similarity(a: PreparedQuestion, b: PreparedQuestion): number {
  let shared = 0;
  let all = 0;
  for (const w of a.words) {
    const x = weight(w);
    all += x;
    if (b.words.has(w)) shared += x;
  }
  for (const w of b.words) if (!a.words.has(w)) all += weight(w);
  return all === 0 ? 0 : shared / all;
}
