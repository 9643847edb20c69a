import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOT_FOUND } from '../../src/providers/llm/offline-answers.ts';
import { drainIngestion } from '../knowledge/helpers.ts';
import { addSource, createAssistant } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { createWorld, type World } from '../support/world.ts';
import { chat } from './helpers.ts';

/**
 * The built-in responder on a new user's first knowledge base: one short text source or a
 * handful of Q&A pairs (docs/knowledge.md "Retrieval", `relevance`). A question sharing one
 * content word with the right passage is answered from it; a question about something the base
 * never mentions is declined. Through the real stack: sources added and ingested through the
 * API, questions asked with POST /api/chat.
 */
let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await createTestApp();
  w = await createWorld(t);
});
afterAll(() => t.close());

const HOURS = 'Our shop opens at 9am and closes at 6pm, Monday to Friday.';
const RETURNS = 'Returns are accepted within 30 days.';
const PAIRS = [
  { question: 'What are your opening hours?', answer: 'We are open from 9am to 6pm, Monday to Friday.' },
  {
    question: 'What is your returns policy?',
    answer: 'You can return any item within 30 days of purchase, with the receipt.',
  },
  { question: 'Do you deliver to Europe?', answer: 'Shipping to the EU takes 3 to 5 working days.' },
];
const OFF_TOPIC = ['What is the capital of France?', 'Do you sell cars?', 'Tell me a joke'];

async function assistantWith(source: Record<string, unknown>) {
  const id = await createAssistant(t, w.owner, w.ws);
  await addSource(t, w.owner, id, source);
  await drainIngestion(t);
  return id;
}

async function ask(assistantId: string, content: string) {
  const r = await chat(t, w.owner, { assistantId, content });
  expect(r.status).toBe(200);
  return r.text;
}

describe('the offline responder on a small knowledge base', () => {
  it('one sentence: answers "When do you open?" from it and declines off-topic questions', async () => {
    const id = await assistantWith({ type: 'text', name: 'Shop', text: HOURS });
    expect(await ask(id, 'When do you open?')).toBe(`${HOURS} [1]`);
    for (const q of OFF_TOPIC) expect(await ask(id, q), q).toBe(NOT_FOUND);
  });

  it('one paragraph: answers each question with its own sentence and declines off-topic questions', async () => {
    const id = await assistantWith({ type: 'text', name: 'Shop', text: `${HOURS}\n${RETURNS}` });
    expect(await ask(id, 'When do you open?')).toBe(`${HOURS} [1]`);
    expect(await ask(id, 'Can I return a jacket I bought 3 weeks ago?')).toBe(`${RETURNS} [1]`);
    // the paragraph says nothing about shipping
    expect(await ask(id, 'How long does shipping to the EU take?')).toBe(NOT_FOUND);
    for (const q of OFF_TOPIC) expect(await ask(id, q), q).toBe(NOT_FOUND);
  });

  it('three Q&A pairs: answers from the right pair and declines off-topic questions', async () => {
    const id = await assistantWith({ type: 'qa', name: 'FAQ', pairs: PAIRS });
    const asked: Array<[string, string]> = [
      ['When do you open?', PAIRS[0]!.answer],
      ['Can I return a jacket I bought 3 weeks ago?', PAIRS[1]!.answer],
      ['How long does shipping to the EU take?', PAIRS[2]!.answer],
    ];
    for (const [q, answer] of asked) expect(await ask(id, q), q).toBe(`${answer} [1]`);
    for (const q of OFF_TOPIC) expect(await ask(id, q), q).toBe(NOT_FOUND);
  });
});
