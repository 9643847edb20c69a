import { describe, expect, it } from 'vitest';
import { answerFromPassages, NOT_FOUND } from '../../src/providers/llm/offline-answers.ts';
import { ANSWER_SUPPORT, passageSupport } from '../../src/providers/llm/passage-support.ts';
import type { Passage } from '../../src/providers/llm/types.ts';

/** A passage's support: relevance and lead over rivals (docs/performance.md "Confidence"). */
const faq = (n: number, relevance: number, sourceId = `src_${n}`): Passage => ({
  index: n,
  chunkId: `chk_${n}`,
  sourceId,
  title: `Question ${n}?`,
  url: null,
  content: `Q: Question ${n}?\nA: Answer ${n}.`,
  relevance,
});
const text = (n: number, relevance: number, sourceId: string): Passage => ({
  ...faq(n, relevance, sourceId),
  content: `Part ${n} of a document.`,
});

describe('passage support', () => {
  it('grows with the lead over the best passage of another source', () => {
    const alone = passageSupport(faq(1, 0.7), [faq(1, 0.7), faq(2, 0.3)]);
    const close = passageSupport(faq(1, 0.7), [faq(1, 0.7), faq(2, 0.65)]);
    expect(alone).toBeGreaterThan(0.5);
    expect(close).toBeLessThan(0.5);
    // neck and neck, a coin toss, however relevant both look
    expect(passageSupport(faq(1, 0.6), [faq(1, 0.6), faq(2, 0.59)])).toBeLessThan(ANSWER_SUPPORT);
  });

  it("does not count another chunk of the same document as a rival, but does another Q&A pair's", () => {
    const doc = [text(1, 0.7, 'src_doc'), text(2, 0.68, 'src_doc')];
    expect(passageSupport(doc[0]!, doc)).toBeGreaterThan(0.5);
    const pairs = [faq(1, 0.6, 'src_faq'), faq(2, 0.59, 'src_faq')];
    expect(passageSupport(pairs[0]!, pairs)).toBeLessThan(ANSWER_SUPPORT);
  });

  it('a lone passage needs its own relevance: a lead over nothing says nothing', () => {
    expect(passageSupport(faq(1, 0.3), [faq(1, 0.3)])).toBeLessThan(ANSWER_SUPPORT);
    expect(passageSupport(faq(1, 0.6), [faq(1, 0.6)])).toBeGreaterThan(ANSWER_SUPPORT);
  });

  it('the offline responder declines below ANSWER_SUPPORT and answers above, with the same measure', () => {
    expect(answerFromPassages('Question one?', [faq(1, 0.6), faq(2, 0.59)])).toBe(NOT_FOUND);
    expect(answerFromPassages('Question one?', [faq(1, 0.7), faq(2, 0.3)])).toBe('Answer 1. [1]');
    // no relevance measured: taken as it comes
    const { relevance: _, ...unmeasured } = faq(1, 0);
    expect(answerFromPassages('Question one?', [unmeasured])).toBe('Answer 1. [1]');
  });
});
