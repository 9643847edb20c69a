import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inbox } from '../inbox/helpers.ts';
import { addSource, drainIngestion } from '../knowledge/helpers.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { type LlmServer, startLlmServer } from '../support/llm-server.ts';
import { createWorld, type World } from '../support/world.ts';
import { NO_RATE_LIMIT, widgetAssistant } from '../widget/helpers.ts';
import { closeInInbox, personReplies, suggestionsOf, visitorSays } from './suggestions-setup.ts';

/**
 * docs/measuring.md "Suggestions" with a model (the stand-in server) and the confidence the chat
 * engine stores: an answer below 0.5 is a suggestion once a person answered the question; one at
 * 0.5 or more is not; a draft withheld below the assistant's minConfidence is one.
 */
let t: TestApp;
let w: World;
let llm: LlmServer;
beforeAll(async () => {
  llm = await startLlmServer({ instant: true });
  t = await createTestApp({
    ...NO_RATE_LIMIT,
    AI_PROVIDER: 'openai',
    AI_BASE_URL: `${llm.url}/v1`,
    AI_MODEL: 'stand-in',
  });
  w = await createWorld(t);
});
afterAll(async () => {
  await t.close();
  await llm.close();
});

/** The AI's replies of a conversation as the inbox lists them: content, outcome, confidence, withheld. */
async function aiReplies(id: string) {
  const res = await inbox(t, w.member, 'GET', `/${id}/messages?limit=100`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data as Array<Record<string, unknown>>).filter((m) => m.role === 'assistant');
}

describe('confidence from the chat engine', () => {
  it('an answer the knowledge does not support (confidence 0) is a suggestion once a person answered', async () => {
    const asst = await widgetAssistant(t, w.owner, w.ws);
    llm.script([{ text: 'Our return window is 30 days.' }]);
    const { id } = await visitorSays(t, asst, ['Can I return an opened kettle?']);
    expect(await aiReplies(id)).toMatchObject([{ outcome: 'answered', confidence: 0, withheld: false }]);
    await personReplies(t, w.member, id, 'Opened kettles can be exchanged, not returned.');
    await closeInInbox(t, w.member, id);
    expect(await suggestionsOf(t, w.owner, asst, id)).toMatchObject([
      {
        question: 'Can I return an opened kettle?',
        answer: 'Opened kettles can be exchanged, not returned.',
      },
    ]);
  });

  it('an answer at 0.5 or more is none, even when a person added to it', async () => {
    const asst = await widgetAssistant(t, w.owner, w.ws);
    await addSource(t, w.owner, asst, {
      type: 'text',
      name: 'Descaling',
      text: 'Descaling. Descale the Kettle Pro every month with citric acid: fill to the MAX line, boil, wait an hour, rinse twice.',
    });
    await drainIngestion(t);
    llm.script([{ text: 'Descale it every month with citric acid [1].' }]);
    const { id } = await visitorSays(t, asst, ['How often should I descale the Kettle Pro?']);
    const [reply] = await aiReplies(id);
    expect(reply).toMatchObject({ outcome: 'answered' });
    expect(reply?.confidence as number).toBeGreaterThanOrEqual(0.5);
    await personReplies(t, w.member, id, 'And rinse it twice afterwards.');
    await closeInInbox(t, w.member, id);
    expect(await suggestionsOf(t, w.owner, asst, id)).toEqual([]);
  });

  it('a draft withheld below minConfidence (handed off, low_confidence) is a suggestion', async () => {
    const asst = await widgetAssistant(t, w.owner, w.ws, {}, { minConfidence: 0.6 });
    llm.script([{ text: 'Probably 2 years.' }]);
    const { id } = await visitorSays(t, asst, ['How long is the warranty on the toaster?']);
    expect(await aiReplies(id)).toMatchObject([
      { content: 'Probably 2 years.', withheld: true },
      { outcome: 'handoff' },
    ]);
    await personReplies(t, w.member, id, 'Three years on every toaster.');
    await closeInInbox(t, w.member, id);
    expect(await suggestionsOf(t, w.owner, asst, id)).toMatchObject([
      { question: 'How long is the warranty on the toaster?', answer: 'Three years on every toaster.' },
    ]);
  });
});
