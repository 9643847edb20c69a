import { describe, expect, it } from 'vitest';
import {
  CURATED_THRESHOLD,
  containsPhrase,
  normalise,
  prepareQuestion,
  similarity,
} from '../../src/features/steering/match.ts';

/** docs/steering.md "Matching": normalising, whole-word triggers, the curated similarity and its threshold. */
const sim = (a: string, b: string) => similarity(prepareQuestion(a), prepareQuestion(b));

describe('normalise', () => {
  it('lower case, accents and punctuation gone, spaces collapsed, compatibility forms folded', () => {
    expect(normalise('  Ça coûte COMBIEN?!  Le “prix”… ')).toBe('ca coute combien le prix');
    expect(normalise('Ｆｕｌｌ－width ＲＥＦＵＮＤ')).toBe('full width refund');
    expect(normalise('straße—ÖL')).toBe('straße ol');
    expect(normalise('😀 ??? ')).toBe('');
  });
});

describe('containsPhrase', () => {
  it('whole words only, in spaced scripts; anywhere in unspaced ones', () => {
    expect(containsPhrase(normalise('I want a REFUND!'), normalise('refund'))).toBe(true);
    expect(containsPhrase(normalise('refunding it'), normalise('refund'))).toBe(false);
    expect(containsPhrase(normalise('money-back please'), normalise('money back'))).toBe(true);
    expect(containsPhrase(normalise('返金してください'), normalise('返金'))).toBe(true);
    expect(containsPhrase(normalise('anything'), '')).toBe(false);
  });
});

describe('similarity', () => {
  it('1 for the same words in any order; near misses well below the threshold', () => {
    expect(sim('Can I return opened software?', 'opened software: can I return it')).toBeLessThan(1);
    expect(sim('can i return opened software', 'software opened return i can')).toBe(1);
    expect(sim('Should I wear a mask?', 'Should I wear a face mask?')).toBeLessThan(CURATED_THRESHOLD);
    expect(sim('can I return shoes', 'Can I return opened software?')).toBeLessThan(0.5);
    expect(sim('Can I return unopened software?', 'Can I return opened software?')).toBeLessThan(0.6);
    expect(sim('What are your opening hours on Sunday', 'What are your opening hours?')).toBeLessThan(
      CURATED_THRESHOLD,
    );
    expect(sim('so do you deliver on sundays', 'Do you deliver on Sundays?')).toBeGreaterThanOrEqual(
      CURATED_THRESHOLD,
    );
    expect(sim('', 'anything')).toBe(0);
  });

  it('counts each character of an unspaced script as a word', () => {
    expect(sim('返金できますか', '返金できますか？')).toBe(1);
    expect(sim('返品できますか', '返金できますか')).toBeLessThan(CURATED_THRESHOLD);
  });
});
