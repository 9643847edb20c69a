import snowball from 'snowball-stemmers';
import { stemmer as porter } from 'stemmer';
import * as stopword from 'stopword';

/**
 * Text analysis per language for retrieval (docs/languages.md "Retrieval"): a text's words, and
 * the terms the lexical index and PostgreSQL full text match them by.
 *
 * - Words: letters and digits, lower-cased (Turkish dotted and dotless i as Turkish writes them);
 *   runs in scripts written without spaces (Chinese, Japanese, Thai, ...) are split into words by
 *   `Intl.Segmenter` (ICU's dictionaries; nothing loaded per query).
 * - Terms: the word stemmed, then folded (accents and case): English with the Porter stemmer, as
 *   it always was; es, fr, de, pt, it, nl, tr, ar and the other languages Snowball has with
 *   Snowball (`snowball-stemmers`); languages without a maintained stemmer (pl, ja, zh, ...) keep
 *   the word. Stemming before folding lets each stemmer see the accents it was written for;
 *   folding after lets "como" meet "cómo".
 * - Stop words (`stopword` lists, folded): they stay terms, as in English (IDF makes them cheap
 *   and they carry part of a question's meaning), but never count as content words
 *   (lexical-index.ts `telling`).
 *
 * A passage with no language (stored before languages were detected, or too short to tell) is
 * analysed as English was before: the same terms as ever.
 */

/** Snowball algorithm names by stored language tag. */
const SNOWBALL: Record<string, string> = {
  ar: 'arabic',
  ca: 'catalan',
  cs: 'czech',
  da: 'danish',
  de: 'german',
  es: 'spanish',
  eu: 'basque',
  fi: 'finnish',
  fr: 'french',
  ga: 'irish',
  hu: 'hungarian',
  hy: 'armenian',
  it: 'italian',
  nb: 'norwegian',
  nl: 'dutch',
  no: 'norwegian',
  pt: 'portuguese',
  ro: 'romanian',
  ru: 'russian',
  sl: 'slovene',
  sv: 'swedish',
  ta: 'tamil',
  tr: 'turkish',
};

/**
 * Languages with no maintained stemmer whose words inflect at the end (Polish: seven cases):
 * a word's first letters stand for its stem ("truncation stemming").
 */
const TRUNCATE: Record<string, number> = { pl: 5 };

/** `stopword` list names (ISO 639-3) by stored language tag. */
const STOP_LISTS: Record<string, string> = {
  ar: 'ara',
  de: 'deu',
  en: 'eng',
  es: 'spa',
  fr: 'fra',
  it: 'ita',
  ja: 'jpn',
  nl: 'nld',
  pl: 'pol',
  pt: 'por',
  tr: 'tur',
  'zh-Hans': 'zho',
  'zh-Hant': 'zho',
  ru: 'rus',
  sv: 'swe',
  da: 'dan',
  fi: 'fin',
  ko: 'kor',
};

/**
 * PostgreSQL text search configurations (those PostgreSQL 15 and PGlite both ship) by stored
 * language tag; every other language, and a passage with none, uses 'simple'. Migration
 * 0032_passage_language.sql holds the same table in the generated `tsv` column.
 */
export const PG_CONFIGS: Record<string, string> = {
  ar: 'arabic',
  da: 'danish',
  de: 'german',
  en: 'english',
  es: 'spanish',
  fi: 'finnish',
  fr: 'french',
  hu: 'hungarian',
  it: 'italian',
  nl: 'dutch',
  no: 'norwegian',
  pt: 'portuguese',
  ro: 'romanian',
  ru: 'russian',
  sv: 'swedish',
  tr: 'turkish',
};
export const pgConfigOf = (language: string | null) => (language && PG_CONFIGS[language]) || 'simple';

/**
 * A question's word as a full-text prefix: cut as the index cuts it where the language is
 * truncation-stemmed (PostgreSQL's 'simple' keeps such passages' words whole; the prefix meets them).
 */
export const fullTextWord = (word: string, language: string | null) => {
  const cut = TRUNCATE[language ?? ''];
  return cut ? [...word].slice(0, cut).join('') : word;
};

/** Scripts written without spaces between words (Chinese, Japanese, Thai, ...): passages in them store their words spaced. */
export const UNSPACED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

const segmenters = new Map<string, Intl.Segmenter>();
/**
 * Runs of letters split into words where their script is written without spaces, by
 * `Intl.Segmenter` (ICU's dictionaries); other runs as they are.
 */
export function splitUnspaced(runs: string[], locale = 'und'): string[] {
  if (!runs.some((r) => UNSPACED.test(r))) return runs;
  let segmenter = segmenters.get(locale);
  if (!segmenter) {
    segmenter = new Intl.Segmenter(locale, { granularity: 'word' });
    segmenters.set(locale, segmenter);
  }
  const out: string[] = [];
  for (const run of runs) {
    if (!UNSPACED.test(run)) out.push(run);
    else for (const s of segmenter.segment(run)) if (s.isWordLike) out.push(s.segment);
  }
  return out;
}

/** Accents and compatibility forms folded (not kana's voicing marks: ガ is not カ), dotless ı as i. */
export const fold = (word: string) =>
  word
    .normalize('NFKD')
    .replace(/[^\P{M}\u3099\u309a]+/gu, '')
    .normalize('NFC')
    .replace(/ı/g, 'i');

/** A text's words, lower-cased, not folded (see above). */
export function rawWords(text: string, language: string | null): string[] {
  const english = language === null || language === 'en';
  // English (and no language) as the index always read it: folded first
  const lower = english
    ? fold(text).toLowerCase()
    : language === 'tr'
      ? text.normalize('NFC').toLocaleLowerCase('tr')
      : text.normalize('NFC').toLowerCase();
  const runs = lower.match(english ? /[\p{L}\p{N}]+/gu : /[\p{L}\p{M}\p{N}]+/gu) ?? [];
  return splitUnspaced(runs, language === 'ja' || language?.startsWith('zh') ? language : 'und');
}

type Stemmer = { stem(word: string): string };
const stemmers = new Map<string, Stemmer | null>();
function snowballFor(language: string): Stemmer | null {
  let s = stemmers.get(language);
  if (s === undefined) {
    const algorithm = SNOWBALL[language];
    s = algorithm ? (snowball.newStemmer(algorithm) as Stemmer) : null;
    stemmers.set(language, s);
  }
  return s;
}

const memo = new Map<string, string>();
/** The term of a (raw) word in a language, memoised (a vocabulary repeats; stemming is most of indexing). */
export function termOf(word: string, language: string | null): string {
  const key = language === null || language === 'en' ? word : `${language}\u0000${word}`;
  let t = memo.get(key);
  if (t === undefined) {
    const stemmer = language === null || language === 'en' ? null : snowballFor(language);
    const cut = TRUNCATE[language ?? ''];
    if (stemmer) t = fold(stemmer.stem(word));
    else if (cut) t = fold([...word].slice(0, cut).join(''));
    else {
      const folded = fold(word);
      // English (and no language): Porter over ASCII words, as the index always did
      t = (language === null || language === 'en') && /^[a-z]+$/.test(folded) ? porter(folded) : folded;
    }
    if (memo.size > 200_000) memo.clear();
    memo.set(key, t);
  }
  return t;
}

/** The terms of a text as the index sees them. */
export const termsOf = (text: string, language: string | null) =>
  rawWords(text, language).map((w) => termOf(w, language));

const stopSets = new Map<string, ReadonlySet<string>>();
/** The language's stop words, folded (English's own short list for English and no language). */
export function stopWordsOf(language: string | null, english: ReadonlySet<string>): ReadonlySet<string> {
  const list = language ? STOP_LISTS[language] : undefined;
  if (!list || language === 'en') return english;
  let s = stopSets.get(list);
  if (!s) {
    const words = (stopword as unknown as Record<string, string[]>)[list] ?? [];
    s = new Set(words.map((w) => fold(w.toLowerCase())));
    stopSets.set(list, s);
  }
  return s;
}
