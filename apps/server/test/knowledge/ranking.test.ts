import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addSource, createAssistant } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { createWorld, type World } from '../support/world.ts';
import { drainIngestion } from './helpers.ts';

/** Lexical ranking through the search endpoint (docs/knowledge.md "Lexical ranking"). */
let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await createTestApp();
  w = await createWorld(t);
});
afterAll(() => t.close());

type Hit = {
  sourceId: string;
  heading: string;
  score: number;
  textScore: number | null;
  lexicalRank: number | null;
  vectorRank: number | null;
};
async function search(assistantId: string, q: string, k = 5): Promise<Hit[]> {
  const res = await t.request({
    method: 'GET',
    url: `/api/assistants/${assistantId}/search?q=${encodeURIComponent(q)}&k=${k}`,
    headers: w.owner.headers,
  });
  expect(res.statusCode).toBe(200);
  return res.json().data;
}

const qa = (assistantId: string, question: string, answer: string) =>
  addSource(t, w.owner, assistantId, { type: 'qa', name: 'FAQ', pairs: [{ question, answer }] });

describe('lexical ranking', () => {
  it('matches on any word: a paraphrase sharing one word with the FAQ still finds it', async () => {
    const asst = await createAssistant(t, w.owner, w.ws);
    const refund = await qa(
      asst,
      'How do I get a refund?',
      'Write to billing within 30 days of the purchase.',
    );
    await qa(asst, 'Do you ship abroad?', 'We deliver to 40 countries by courier.');
    await drainIngestion(t);
    // every word but one is new to the knowledge: AND semantics would match nothing
    const hits = await search(asst, 'my parcel never arrived, I would like a refund please');
    expect(hits[0]?.sourceId).toBe(refund.id);
    expect(hits[0]?.textScore).toBeGreaterThan(0);
    expect(hits[0]?.lexicalRank).toBe(1);
  });

  it('stems: "refunded" finds "refunds"', async () => {
    const asst = await createAssistant(t, w.owner, w.ws);
    const src = await qa(asst, 'When are refunds paid?', 'Within five business days.');
    await qa(asst, 'Where is the shop?', 'On the high street.');
    await drainIngestion(t);
    const [top] = await search(asst, 'I was refunded twice');
    expect(top?.sourceId).toBe(src.id);
    expect(top?.lexicalRank).toBe(1);
  });

  it('a longer document does not win by length', async () => {
    const asst = await createAssistant(t, w.owner, w.ws);
    const filler =
      'Our stores sell kettles, mugs, lamps, chairs and desks in many colours and sizes. '.repeat(30);
    const short = await addSource(t, w.owner, asst, {
      type: 'text',
      name: 'Warranty',
      text: 'The warranty covers two years.',
    });
    await addSource(t, w.owner, asst, {
      type: 'text',
      name: 'Catalogue',
      text: `${filler} A warranty is included. ${filler}`,
    });
    await drainIngestion(t);
    const hits = await search(asst, 'warranty');
    expect(hits[0]?.sourceId).toBe(short.id);
  });

  it('saturates: repeating a word many times does not beat a focused match', async () => {
    const asst = await createAssistant(t, w.owner, w.ws);
    const focused = await qa(
      asst,
      'Can I pay by invoice?',
      'Yes, businesses can pay by invoice within 30 days.',
    );
    await qa(asst, 'Payments', `${'pay '.repeat(40)}by card.`);
    await drainIngestion(t);
    const [top] = await search(asst, 'pay by invoice');
    expect(top?.sourceId).toBe(focused.id);
  });

  it("ranks a Q&A pair by its question above another pair's answer", async () => {
    const asst = await createAssistant(t, w.owner, w.ws);
    const byQuestion = await qa(asst, 'How do I reset my password?', 'Use the link on the sign-in page.');
    await qa(
      asst,
      'Is my account secure?',
      'Yes. We never store your password in plain text, and you can reset it any time.',
    );
    await drainIngestion(t);
    const [top] = await search(asst, 'reset password');
    expect(top?.sourceId).toBe(byQuestion.id);
  });

  it('says why a passage ranked: lexical and vector ranks', async () => {
    const asst = await createAssistant(t, w.owner, w.ws);
    await qa(asst, 'How long does delivery take?', 'Three to five working days.');
    await drainIngestion(t);
    const [top] = await search(asst, 'delivery time');
    expect(top).toMatchObject({ lexicalRank: 1 });
    expect(top?.vectorRank === null || top?.vectorRank === 1).toBe(true);
    expect(top?.score).toBeGreaterThan(0);
    expect(top?.score).toBeLessThanOrEqual(1);
    // nothing in common: nothing found
    expect(await search(asst, 'zzzqqq')).toEqual([]);
  });
});
