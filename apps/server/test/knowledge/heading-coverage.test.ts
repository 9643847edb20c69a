import { describe, expect, it } from 'vitest';
import { build, rank, terms } from '../../src/features/knowledge/retrieval/lexical-index.ts';
import { isContentWord } from '../../src/providers/embeddings/word-frequency.ts';

/** The share of a question's information a chunk's heading holds (docs/knowledge.md "Lexical ranking"). */
const pair = (id: string, question: string, answer: string) => ({
  id,
  heading: question,
  title: 'FAQ',
  content: `Q: ${question}\nA: ${answer}`,
});

describe('heading coverage', () => {
  const index = build(1, [
    pair(
      'masks',
      'Should I wear a mask outside?',
      'Wear a mask where you cannot keep your distance from others.',
    ),
    pair(
      'travel',
      'Can I travel abroad?',
      'Check the rules of the country; a mask is required on most flights.',
    ),
    pair('tests', 'Where can I get tested?', 'Pharmacies and test centres offer free tests.'),
  ]);
  // as the index's search does: every term, and the content words for what a small base needs
  const ask = (q: string) =>
    rank([index], [...new Set(terms(q))], 10, new Set(q.split(/\W+/).filter(isContentWord).flatMap(terms)));

  it("counts only the words of the pair's question, not of its answer", () => {
    const hits = ask('do I need a mask when I travel');
    const masks = hits.find((h) => h.id === 'masks')!;
    const travel = hits.find((h) => h.id === 'travel')!;
    // both answers mention masks; only one question does
    expect(masks.coverage).toBeGreaterThan(0);
    expect(travel.coverage).toBeGreaterThan(masks.headingCoverage);
    expect(masks.headingCoverage).toBeGreaterThan(0);
    expect(travel.headingCoverage).toBeLessThan(travel.coverage);
  });

  it('is all of it when the question is asked in the words of the pair', () => {
    const [best] = ask('Where can I get tested?');
    expect(best?.id).toBe('tests');
    expect(best?.headingCoverage).toBeCloseTo(1, 5);
    expect(best?.coverage).toBeCloseTo(1, 5);
  });

  it('in a base this small, counts only a heading that shares a content word with the question', () => {
    // "can" and "i" are the travel question's, but no content word: no match however flat the IDF
    const travel = ask('can i have my money back').find((h) => h.id === 'travel');
    expect(travel?.headingCoverage ?? 0).toBe(0);
    expect(ask('can i travel').find((h) => h.id === 'travel')?.headingCoverage).toBeGreaterThan(0.5);
  });

  it('heading match: 1 for the best heading BM25, less for a heading that holds fewer of the words', () => {
    const hits = ask('where can i get tested');
    expect(hits.find((h) => h.id === 'tests')?.headingMatch).toBeCloseTo(1, 5);
    const travel = hits.find((h) => h.id === 'travel');
    expect(travel?.headingMatch ?? 0).toBeLessThan(1);
  });

  it('is never more than the coverage of the whole chunk', () => {
    for (const h of ask('mask abroad tests pharmacy'))
      expect(h.headingCoverage).toBeLessThanOrEqual(h.coverage + 1e-9);
  });
});
