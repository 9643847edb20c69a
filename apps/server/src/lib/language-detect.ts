/**
 * The language of a text (docs/languages.md "Retrieval"), as Parley stores languages: the primary
 * language subtag (`es`, `ja`, `ar`, ...), with the script for Chinese (`zh-Hans`, `zh-Hant`); any of
 * the detector's 60 languages, not only the supported ones (packages/contract/src/languages.ts).
 *
 *   const detect = await languageDetector();   // loads once per process (about half a second)
 *   detect('¿Dónde está mi pedido?')           // 'es'
 *   detect('ok thanks')                        // null: too short to tell
 *   await detectLanguage(text)                 // the same, loading on first use
 *   await loadLanguageDetector()               // at startup; then, synchronously:
 *   loadedDetector()?.detect(text)             // null before it is loaded
 *   loadedDetector()?.guess(text)              // its best guess even when unsure
 *
 * null when the text is too short or unclear: fewer than MIN_LETTERS letters in alphabetic scripts
 * (fewer than MIN_CJK characters of Chinese, Japanese or Korean, where one character carries a
 * word), or when the detector is not confident. A mixed text gets its main language when one
 * dominates, else null. After loading, a call takes tens of microseconds (no I/O, no model per call).
 *
 * The detector is `eld` (Nito-ELD, Apache-2.0; n-gram statistics, pure JavaScript, the "small"
 * database): among the maintained detectors it is the most accurate on short texts of the ones that
 * need no native code (docs/decisions/0043-retrieval-languages.md). It says `zh` for both Chinese
 * scripts; the script is told by opencc-js (the OpenCC conversion tables): a text with traditional
 * characters that simplified Chinese writes otherwise is `zh-Hant`.
 */
export const MIN_LETTERS = 12;
export const MIN_CJK = 2;
/** Letters below which even a guess is not made. */
const MIN_GUESS_LETTERS = 4;
/** Share of Chinese characters with a distinct simplified form above which a text is zh-Hant. */
const TRADITIONAL_SHARE = 0.1;

type Eld = { detect(text: string): { language: string; isReliable(): boolean } };
export type Detect = (text: string) => string | null;
export type LanguageDetector = {
  /** The language of `text`, or null when too short or unclear (see above). */
  detect: Detect;
  /**
   * The detector's best guess even when it is not sure (null only without enough letters, or
   * with no guess at all): for callers that weigh a guess themselves.
   */
  guess: Detect;
};

let loading: Promise<LanguageDetector> | undefined;
let loaded: LanguageDetector | null = null;

/** Loads the detector once per process (the same promise afterwards). */
export function loadLanguageDetector(): Promise<LanguageDetector> {
  loading ??= load().then((d) => {
    loaded = d;
    return d;
  });
  return loading;
}

/** The detector if it has been loaded (`loadLanguageDetector`), else null: for synchronous callers. */
export function loadedDetector(): LanguageDetector | null {
  return loaded;
}

/** The detector's `detect`, loaded on the first call. */
export async function languageDetector(): Promise<Detect> {
  return (await loadLanguageDetector()).detect;
}

/** The language of `text`, or null (see above). */
export async function detectLanguage(text: string): Promise<string | null> {
  return (await languageDetector())(text);
}

const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/gu;
const HAN = /\p{Script=Han}/gu;
const HANGUL = /\p{Script=Hangul}/gu;
const LETTER = /\p{L}/gu;
const count = (text: string, re: RegExp) => text.match(re)?.length ?? 0;

async function load(): Promise<LanguageDetector> {
  const [{ eld }, opencc] = await Promise.all([import('eld/small'), import('opencc-js/t2cn')]);
  const toSimplified = opencc.Converter({ from: 't', to: 'cn' });
  const detector = eld as Eld;
  const read = (text: string, sure: boolean): string | null => {
    const sample = text.length > 2000 ? text.slice(0, 2000) : text;
    const letters = count(sample, LETTER);
    const kana = count(sample, KANA);
    const han = count(sample, HAN);
    const hangul = count(sample, HANGUL);
    const cjk = kana + han + hangul;
    // East Asian scripts tell the language by themselves: kana is only Japanese, hangul only
    // Korean, and Chinese characters without either are Chinese (n-gram scores on a few
    // characters are less sure than the script)
    if (cjk >= MIN_CJK && cjk * 2 >= letters) {
      if (kana > 0 && kana >= hangul) return 'ja';
      if (hangul > 0) return 'ko';
      const chars = sample.match(HAN) ?? [];
      const simplified = [...toSimplified(chars.join(''))];
      const changed = chars.filter((c, i) => c !== simplified[i]).length;
      return changed > 0 && changed >= TRADITIONAL_SHARE * han ? 'zh-Hant' : 'zh-Hans';
    }
    if (letters < (sure ? MIN_LETTERS : MIN_GUESS_LETTERS)) return null;
    const result = detector.detect(sample);
    if (!result.language || (sure && !result.isReliable())) return null;
    return result.language === 'zh' ? 'zh-Hans' : result.language;
  };
  return { detect: (text) => read(text, true), guess: (text) => read(text, false) };
}
