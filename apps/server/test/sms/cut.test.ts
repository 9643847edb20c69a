import { MESSAGE_LENGTH } from '@parley/contract/sms-limits';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutToLength } from '../../src/features/sms/cut.ts';

/**
 * docs/sms.md "Limits": a reply is cut to `maxMessageLength` (UTF-16 code units) at a word
 * boundary, never splitting a character. Properties over any text, including emoji with
 * modifiers and joiners, flags, combining accents, surrogate pairs and every kind of space.
 */
const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const graphemes = (s: string) => Array.from(segmenter.segment(s), (g) => g.segment);
const isSpace = (g: string) => /^\s+$/u.test(g);
/** No lone surrogate (String.prototype.isWellFormed, not in the compiler's library yet). */
const wellFormed = (s: string) => !/\p{Surrogate}/u.test(s);
const boundaries = (s: string) => {
  const out = new Set<number>([s.length]);
  for (const g of segmenter.segment(s)) out.add(g.index);
  return out;
};

// Words of tricky characters, joined by assorted spaces, so cuts land everywhere.
const tricky = fc.constantFrom(
  'a',
  'é',
  'e\u0301',
  'ñ',
  '字',
  '👍',
  '👍🏽',
  '👩‍👩‍👧‍👦',
  '🇫🇷',
  '\u0600',
  'ก\u0e33',
  '\ud83d\ude00',
);
const word = fc.array(fc.oneof(tricky, fc.string({ unit: 'grapheme', minLength: 1, maxLength: 3 })), {
  minLength: 1,
  maxLength: 12,
});
const gap = fc.constantFrom(' ', '  ', '\n', '\t', '\u00a0', '\u3000', '\r\n');
const text = fc
  .array(fc.tuple(word, gap), { minLength: 0, maxLength: 400 })
  .map((ws) => ws.map(([w, g]) => w.join('') + g).join(''));
const anyText = fc.oneof(
  text,
  fc.string({ unit: 'binary', maxLength: 2000 }),
  fc.string({ unit: 'grapheme', maxLength: 2000 }),
);
const max = fc.integer({ min: MESSAGE_LENGTH.min, max: MESSAGE_LENGTH.max });

/** The text without the whole space graphemes at either end, and where it starts in `s`. */
function trimmed(s: string) {
  const parts = graphemes(s);
  let first = 0;
  let last = parts.length;
  while (first < last && isSpace(parts[first] as string)) first++;
  while (last > first && isSpace(parts[last - 1] as string)) last--;
  return { text: parts.slice(first, last).join(''), start: parts.slice(0, first).join('').length };
}
/** What the cut kept of the text: all of it, or a prefix followed by the ellipsis. */
function keptOf(s: string, out: string) {
  const { text, start } = trimmed(s);
  if (out === text) return { kept: out, text, start, cut: false };
  expect(out.endsWith('…')).toBe(true);
  return { kept: out.slice(0, -1), text, start, cut: true };
}

describe('cutToLength', () => {
  it('is never longer than the limit', () => {
    fc.assert(
      fc.property(anyText, max, (s, m) => {
        expect(cutToLength(s, m).length).toBeLessThanOrEqual(m);
      }),
      { numRuns: 400 },
    );
  });

  it('a text that fits is returned whole (without surrounding spaces); a longer one is cut', () => {
    fc.assert(
      fc.property(anyText, max, (s, m) => {
        const out = cutToLength(s, m);
        const { text, cut } = keptOf(s, out);
        expect(cut).toBe(text.length > m);
      }),
      { numRuns: 400 },
    );
  });

  it('never splits a character: what is kept is whole graphemes of the original, no lone surrogate', () => {
    fc.assert(
      fc.property(anyText, max, (s, m) => {
        const out = cutToLength(s, m);
        const { kept, text, start } = keptOf(s, out);
        expect(text.startsWith(kept)).toBe(true);
        const bounds = boundaries(s);
        expect(bounds.has(start)).toBe(true);
        expect(bounds.has(start + kept.length)).toBe(true);
        if (!wellFormed(s)) return;
        expect(wellFormed(out)).toBe(true);
        const ours = graphemes(kept);
        expect(graphemes(text).slice(0, ours.length)).toEqual(ours);
      }),
      { numRuns: 400 },
    );
  });

  it('cuts after a whole word when a word boundary falls in the second half of the room', () => {
    fc.assert(
      fc.property(text, max, (s, m) => {
        const out = cutToLength(s, m);
        const { kept, text: whole, cut } = keptOf(s, out);
        if (!cut) return;
        const budget = m - 1;
        let offset = 0;
        let boundaryInRoom = false;
        for (const g of graphemes(whole)) {
          if (offset + g.length > budget) break;
          if (isSpace(g) && offset >= budget / 2) boundaryInRoom = true;
          offset += g.length;
        }
        if (!boundaryInRoom) return;
        // The grapheme after what was kept is a space: no word was cut.
        const next = graphemes(whole.slice(kept.length))[0];
        expect(next !== undefined && isSpace(next)).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it('examples', () => {
    expect(cutToLength('  hello  ', 50)).toBe('hello');
    expect(cutToLength(`${'word '.repeat(20)}end`, 50)).toBe(`${'word '.repeat(9)}word…`);
    expect(cutToLength('👩‍👩‍👧‍👦'.repeat(20), 50)).toBe(`${'👩‍👩‍👧‍👦'.repeat(4)}…`);
    expect(cutToLength('x'.repeat(60), 50)).toBe(`${'x'.repeat(49)}…`);
    // A prepended mark and a space form one grapheme: trimming keeps them together.
    expect(cutToLength('hi \u0600 ', 50)).toBe('hi \u0600 ');
  });
});
