import { describe, expect, it } from 'vitest';
import { ordinal, whyWords } from '../../../web/src/features/knowledge/why.ts';

/** Why a search hit ranked, in the dashboard's words (apps/web/src/features/knowledge/why.ts). */
describe('a search hit explained', () => {
  it('says in words where the passage stands on words, on meaning, and its relevance', () => {
    expect(whyWords({ lexicalRank: 1, vectorRank: 1, relevance: 0.412 })).toBe(
      'Most words in common with the question · closest in meaning · relevance to the question: 41%',
    );
    expect(whyWords({ lexicalRank: 2, vectorRank: 3, relevance: 0.2 })).toBe(
      '2nd most words in common · 3rd closest in meaning · relevance to the question: 20%',
    );
    expect(whyWords({ lexicalRank: null, vectorRank: null, relevance: 0 })).toBe(
      'No words in common with the question · not close in meaning · relevance to the question: 0%',
    );
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101].map(ordinal)).toEqual([
      '1st',
      '2nd',
      '3rd',
      '4th',
      '11th',
      '12th',
      '13th',
      '21st',
      '22nd',
      '23rd',
      '101st',
    ]);
  });
});
