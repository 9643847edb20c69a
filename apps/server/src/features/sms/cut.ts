/**
 * Cuts a reply to fit one provider message of `max` characters (docs/sms.md "Replies and delivery
 * status"). Length is counted in UTF-16 code units, the larger of the usual counts, so the result
 * fits however the provider counts. The cut falls after the last whole word that fits, marked
 * with `…`; a single word longer than the limit is cut between graphemes, so no character (an
 * emoji, a letter with its accent) is ever split.
 */
const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const ELLIPSIS = '…';

export function cutToLength(text: string, max: number): string {
  const trimmed = text.trim();
  if (trimmed.length <= max) return trimmed;
  const budget = max - ELLIPSIS.length;
  let end = 0;
  let lastSpace = -1;
  for (const { segment, index } of segmenter.segment(trimmed)) {
    if (index + segment.length > budget) break;
    end = index + segment.length;
    if (/^\s+$/u.test(segment)) lastSpace = index;
  }
  // Prefer a word boundary unless it would throw most of the message away.
  const cutAt = lastSpace > 0 && lastSpace >= budget / 2 ? lastSpace : end;
  return trimmed.slice(0, cutAt).trimEnd() + ELLIPSIS;
}
