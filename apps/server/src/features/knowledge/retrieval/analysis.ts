import { createStemmer } from 'multilingual-stemmer';
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
 *   Snowball (`snowball-stemmers`); Dutch with Kraaij and Pohlmann's stemmer (`KRAAIJ_POHLMANN`);
 *   languages without a maintained stemmer (pl, ja, zh, ...) keep the word. Stemming before folding lets each stemmer see the accents it was written for;
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

/**
 * Languages stemmed with Snowball's current algorithm (`multilingual-stemmer`: Snowball 3.1 in
 * WebAssembly) rather than `snowball-stemmers` (a port of the 2014 algorithms). Dutch only: Snowball
 * 3.0 made Kraaij and Pohlmann's stemmer (1994; "kraaij_pohlmann" in Snowball before) its Dutch
 * algorithm, in place of Porter's, which removes inflections and a few derivational suffixes
 * (-heid, -ing, -lijk, -baar, -ig). Kraaij-Pohlmann removes more, as Porter's English stemmer does
 * ("vaccinatie" and "vaccineer"; -iteit, -isme, -atief, -achtig), the ge- of participles and a
 * verb's -t ("gewerkt", "werkt" and "werken"), and spells the vowel of an open syllable as a closed
 * one does ("bomen" and "boom", "betalen" and "betaalbaar"). PostgreSQL's 'dutch' configuration is
 * still Porter's (docs/languages.md "Retrieval").
 */
const KRAAIJ_POHLMANN: ReadonlySet<string> = new Set(['nl']);

type Stemmer = { stem(word: string): string };
const stemmers = new Map<string, Stemmer | null>();
function snowballFor(language: string): Stemmer | null {
  let s = stemmers.get(language);
  if (s === undefined) {
    const algorithm = SNOWBALL[language];
    if (KRAAIJ_POHLMANN.has(language)) s = { stem: createStemmer('nl') };
    else s = algorithm ? (snowball.newStemmer(algorithm) as Stemmer) : null;
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

/**
 * Languages that write compounds as one word ("Versandkosten", "leveringskosten"), which no
 * stemmer splits: their long words also yield their parts (`compoundParts`).
 */
const COMPOUNDING: ReadonlySet<string> = new Set(['de', 'nl']);
export const isCompounding = (language: string | null) => COMPOUNDING.has(language ?? '');
/**
 * Weight of a compound's part (`compoundParts`) and of a CJK character bigram (`cjkBigrams`)
 * beside a word's (1), as the question's term weight (a part also in the passage's term frequency):
 * evidence where the words fail to meet, never as much as a word met whole.
 */
export const PART_WEIGHT = 0.5;
export const BIGRAM_WEIGHT = 0.5;
/** Letters of the shortest part, and of the rest of the word around it (less is an inflection). */
const MIN_PART = 4;
const MIN_REST = 3;
/** Letters of the longest part, and of the longest word looked into (longer: not a word). */
const MAX_PART = 24;
const MAX_COMPOUND = 64;
const NONE: ReadonlySet<string> = new Set();

/** Linking letters between a compound's parts ("Versicherung-s-nummer", "Kind-er-arzt", "pann-en-koek"). */
const LINKS = ['', 's', 'es', 'n', 'en', 'e', 'er', 'ens'];

/**
 * Decompounding with the knowledge's own vocabulary as the dictionary (Koehn and Knight's
 * splitting into known words with linking letters): from the left, the longest known term of at
 * least MIN_PART letters that leaves at least MIN_REST, then, past a linking letter or two, the rest
 * the same way; the rest is a part when its term is known ("Versand-kosten"), is dropped when it is
 * not and cannot be split ("Liefer-zeit" with no "Zeit" known: only "liefer"). Terms are stems, so
 * an inflected modifier still counts ("kind" in "Kinderarzt"); stop words are never parts, nor the
 * word's own term (an inflection, which the stemmer handles). A word that starts with no known part
 * is left whole, so a known word inside another ("stel" in "bestelling") is not taken for a part.
 * Passages and questions against the same vocabulary, so both split a word the same way (a
 * question's word only when the knowledge lacks it whole: query-terms.ts `subwordTerms`).
 */
export function compoundParts(
  word: string,
  language: string | null,
  known: (term: string) => boolean,
): string[] {
  const w = fold(word);
  if (!isCompounding(language) || w.length < MIN_PART + MIN_REST || w.length > MAX_COMPOUND) return [];
  if (!/^\p{L}+$/u.test(w)) return [];
  const stop = stopWordsOf(language, NONE);
  const own = termOf(word, language);
  const isPart = (t: string) => t.length >= MIN_PART && t !== own && !stop.has(t) && known(t);
  // Kraaij-Pohlmann's terms are not always the word's start ("levering": "leveer"), so there a
  // start of the word is looked up by its term
  const termOfPart = KRAAIJ_POHLMANN.has(language ?? '') ? (p: string) => termOf(p, language) : undefined;
  const parts: string[] = [];
  let rest = w;
  while (rest.length >= MIN_PART + MIN_REST) {
    const next = knownPrefix(rest, isPart, termOfPart);
    if (!next) break;
    parts.push(next.part);
    // the rest's own term: its ending inflected as a whole word's would be
    const whole = next.rests.map((r) => termOf(r, language)).find(isPart);
    if (whole) {
      parts.push(whole);
      break;
    }
    const further = next.rests.find((r) => knownPrefix(r, isPart, termOfPart));
    if (!further) break;
    rest = further;
  }
  return parts;
}

/**
 * The dictionary `compoundParts` splits with: the terms of the words of the chunks in languages
 * that compound (the knowledge's own vocabulary). Undefined when no chunk is in one.
 */
export function compoundDictionary(
  rows: ReadonlyArray<{ heading: string; title: string; content: string; language?: string | null }>,
): ReadonlySet<string> | undefined {
  let dictionary: Set<string> | undefined;
  for (const r of rows) {
    const language = r.language ?? null;
    if (!isCompounding(language)) continue;
    dictionary ??= new Set();
    for (const text of [r.heading, r.title, r.content])
      for (const w of rawWords(text, language)) dictionary.add(termOf(w, language));
  }
  return dictionary;
}

/**
 * The longest known start of `s` (by its term, with `termOfPart`), and what may follow it past each
 * linking letter.
 */
function knownPrefix(s: string, isPart: (t: string) => boolean, termOfPart?: (p: string) => string) {
  for (let i = Math.min(s.length - MIN_REST, MAX_PART); i >= MIN_PART; i--) {
    const part = termOfPart ? termOfPart(s.slice(0, i)) : s.slice(0, i);
    if (!isPart(part)) continue;
    const rests = LINKS.filter((l) => s.startsWith(l, i) && s.length - i - l.length >= MIN_REST).map((l) =>
      s.slice(i + l.length),
    );
    return { part, rests };
  }
  return null;
}

/** Key prefix of character bigrams: never a word's term. */
export const BIGRAM = '\u0002';
const CJK = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}]+/gu;
/**
 * The overlapping character bigrams of a text's Chinese and Japanese runs (the usual CJK retrieval
 * baseline, as Lucene's CJK bigram filter makes them), beside the segmenter's words: they meet
 * where the question and the passage were cut into words differently ("开发|票" and "发票",
 * "領収証" and "領収|書"), or a word in another inflection ("届ける", "届けた"). Whatever the
 * text's language, as the characters are the same in every one; keyed apart from the words (BIGRAM).
 */
export function cjkBigrams(text: string): string[] {
  const out: string[] = [];
  if (!UNSPACED.test(text)) return out;
  for (const letters of text.match(/[\p{L}\p{M}\p{N}]+/gu) ?? [])
    for (const run of fold(letters).match(CJK) ?? []) {
      const chars = [...run];
      for (let i = 0; i + 1 < chars.length; i++) out.push(`${BIGRAM}${chars[i]}${chars[i + 1]}`);
    }
  return out;
}

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
