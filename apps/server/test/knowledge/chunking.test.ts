import { describe, expect, it } from 'vitest';
import { chunkQa, chunkText, estimateTokens } from '../../src/features/knowledge/ingestion/chunking.ts';

const para = (n: number, word = 'alpha') =>
  `${Array.from({ length: n }, (_, i) => `${word}${i}`).join(' ')}.`;

describe('chunkText', () => {
  it('keeps headings as a path and never mixes sections', () => {
    const doc =
      '# Billing\n\nIntro text.\n\n## Refunds\n\nRefunds take 5 days.\n\n# Shipping\n\nWe ship worldwide.';
    const chunks = chunkText(doc);
    expect(chunks.map((c) => [c.heading, c.content])).toEqual([
      ['Billing', 'Intro text.'],
      ['Billing › Refunds', 'Refunds take 5 days.'],
      ['Shipping', 'We ship worldwide.'],
    ]);
    expect(chunks.map((c) => c.position)).toEqual([0, 1, 2]);
  });

  it('packs paragraphs up to the budget with one paragraph of overlap', () => {
    const paragraphs = Array.from({ length: 12 }, (_, i) => para(30, `p${i}w`));
    const chunks = chunkText(paragraphs.join('\n\n'), { maxTokens: 300, overlapTokens: 120 });
    expect(chunks.length).toBeGreaterThan(2);
    for (const c of chunks) expect(c.tokenCount).toBeLessThanOrEqual(300);
    for (let i = 1; i < chunks.length; i++) {
      const prevLast = chunks[i - 1]!.content.split('\n\n').at(-1)!;
      expect(chunks[i]!.content.startsWith(prevLast)).toBe(true);
    }
    // every paragraph appears somewhere, in order
    const all = chunks.map((c) => c.content).join('\n\n');
    let at = -1;
    for (const p of paragraphs) {
      const idx = all.indexOf(p, at);
      expect(idx).toBeGreaterThan(at);
      at = idx;
    }
  });

  it('splits a giant paragraph at sentences and words, within budget', () => {
    const giant =
      Array.from({ length: 200 }, (_, i) => `Sentence number ${i} is here.`).join(' ') +
      ` ${'x'.repeat(5000)}`;
    const chunks = chunkText(giant, { maxTokens: 200, overlapTokens: 20 });
    for (const c of chunks) expect(estimateTokens(c.content)).toBeLessThanOrEqual(200);
    expect(chunks.map((c) => c.content).join(' ')).toContain('Sentence number 199 is here.');
  });

  it('keeps fenced code blocks whole and handles empty or whitespace input', () => {
    const doc = 'Intro.\n\n```js\nconst a = 1;\n\nconst b = 2;\n```\n\nAfter.';
    const chunks = chunkText(doc);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.content).toContain('const a = 1;\n\nconst b = 2;');
    expect(chunkText('')).toEqual([]);
    expect(chunkText('  \n\n \r\n')).toEqual([]);
  });

  it('handles unicode text', () => {
    const chunks = chunkText('# 配送\n\n我们在全球范围内发货。 🚚\n\nDélais: 3–5 jours.');
    expect(chunks[0]).toMatchObject({ heading: '配送' });
    expect(chunks[0]!.content).toContain('🚚');
  });
});

describe('chunkQa', () => {
  it('keeps each pair whole, however long', () => {
    const long = 'word '.repeat(2000);
    const chunks = chunkQa([
      { question: 'How long do refunds take?', answer: 'Five business days.' },
      { question: 'Long one?', answer: long },
    ]);
    expect(chunks).toHaveLength(2);
    expect(chunks[0]).toMatchObject({
      heading: 'How long do refunds take?',
      content: 'Q: How long do refunds take?\nA: Five business days.',
      position: 0,
    });
    expect(chunks[1]!.content).toContain(long.trim());
  });
});
