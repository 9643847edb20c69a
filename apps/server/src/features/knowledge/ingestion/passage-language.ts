import { languageDetector } from '../../../lib/language-detect.ts';
import { mapOnEventLoop } from '../../../lib/on-event-loop.ts';
import { rawWords, UNSPACED } from '../retrieval/analysis.ts';

/** Characters of a source read to tell its language, for passages too short to tell alone. */
const SOURCE_SAMPLE = 4000;

export type PassageLanguage = { language: string | null; segmented: string | null };

/**
 * The language of each passage of a source (docs/languages.md "Retrieval"): detected in the
 * passage itself (a Q&A pair's content holds its question); a passage too short to tell (a one-line Q&A answer) takes
 * the language of the source as a whole, when that can be told. `segmented`: the passage's words
 * spaced, for scripts written without spaces (PostgreSQL full text cannot split them).
 */
export async function passageLanguages(
  chunks: ReadonlyArray<{ heading: string; title: string; content: string }>,
): Promise<PassageLanguage[]> {
  const detect = await languageDetector();
  let sample = '';
  for (const c of chunks) {
    if (sample.length >= SOURCE_SAMPLE) break;
    sample += `${c.content.slice(0, SOURCE_SAMPLE)}\n`;
  }
  const whole = detect(sample);
  return mapOnEventLoop(chunks, (c) => {
    const language = detect(c.content) ?? whole;
    const text = `${c.heading} ${c.title} ${c.content}`;
    return { language, segmented: UNSPACED.test(text) ? rawWords(text, language).join(' ') : null };
  });
}
