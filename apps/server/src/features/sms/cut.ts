/**
 * Cuts a reply to fit one provider message of `max` characters (docs/sms.md "Limits"). Length is
 * counted in UTF-16 code units, the larger of the usual counts, so the result fits however the
 * provider counts (docs/decisions/0019-sms-channel.md). The text is handled as graphemes (what a
 * reader sees as one character: an emoji with its modifiers, a letter with its accents), so no
 * character is ever split, not even by the trimming. The cut falls after the last whole word
 * that fits, marked with `…`, unless that would throw away more than half of the room; then
 * (and for a single word longer than the limit) it falls between two graphemes.
 */
const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const ELLIPSIS = '…';
const isSpace = (grapheme: string) => /^\s+$/u.test(grapheme);

export function cutToLength(text: string, max: number): string {
  const all = Array.from(segmenter.segment(text), (s) => s.segment);
  let first = 0;
  let last = all.length;
  while (first < last && isSpace(all[first] as string)) first++;
  while (last > first && isSpace(all[last - 1] as string)) last--;
  const parts = all.slice(first, last);
  const whole = parts.join('');
  if (whole.length <= max) return whole;
  const budget = max - ELLIPSIS.length;
  let length = 0;
  let fit = 0;
  let space = -1;
  let spaceAt = 0;
  for (const [i, part] of parts.entries()) {
    if (length + part.length > budget) break;
    if (isSpace(part)) {
      space = i;
      spaceAt = length;
    }
    length += part.length;
    fit = i + 1;
  }
  // The word that ends exactly at the limit is whole when a space follows it.
  if (fit < parts.length && isSpace(parts[fit] as string)) {
    space = fit;
    spaceAt = length;
  }
  let cut = space > 0 && spaceAt >= budget / 2 ? space : fit;
  while (cut > 0 && isSpace(parts[cut - 1] as string)) cut--;
  return parts.slice(0, cut).join('') + ELLIPSIS;
}
