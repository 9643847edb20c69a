import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addSource, drainIngestion } from '../knowledge/helpers.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { createWorld, type World } from '../support/world.ts';
import {
  fromSite,
  initWidget,
  NO_RATE_LIMIT,
  sessionUrl,
  widgetAssistant,
  widgetChat,
} from '../widget/helpers.ts';

/**
 * The figures of conversations made through the real stack: visitors in the widget asking the
 * offline responder, and rating the answers. `assistantId` knows the opening hours; `emptyId` has
 * no knowledge yet, so retrieval finds nothing and its answers cite nothing.
 */
let t: TestApp;
let w: World;
let assistantId: string;
let emptyId: string;

beforeAll(async () => {
  t = await createTestApp(NO_RATE_LIMIT);
  w = await createWorld(t);
  assistantId = await widgetAssistant(t, w.owner, w.ws);
  await addSource(t, w.owner, assistantId, {
    type: 'qa',
    pairs: [
      { question: 'What are your opening hours?', answer: 'We are open from 9 to 5, Monday to Friday.' },
    ],
  });
  await drainIngestion(t);
  emptyId = await widgetAssistant(t, w.owner, w.ws);
});
afterAll(() => t.close());

async function rate(
  asst: string,
  s: { sessionId: string; token: string },
  messageId: string,
  rating: 'positive' | 'negative',
) {
  const res = await fromSite(t, {
    method: 'POST',
    url: sessionUrl(asst, s, 'feedback'),
    token: s.token,
    payload: { messageId, rating },
  });
  expect(res.statusCode, res.body).toBe(201);
}

describe('analytics of real widget conversations', () => {
  it('an unanswerable question is a gap, an answered one and a greeting are not; thumbs are counted', async () => {
    const a = await initWidget(t, assistantId);
    const hours = await widgetChat(t, assistantId, a, 'What are your opening hours?');
    expect(hours.text).toContain('9 to 5');
    const b = await initWidget(t, emptyId);
    const mars = await widgetChat(t, emptyId, b, 'Do you deliver to Mars?');
    expect(mars.text).toContain("don't know");
    await widgetChat(t, emptyId, b, 'Hello');
    const mars2 = await widgetChat(t, emptyId, b, 'Do you deliver to MARS');

    const finish = (c: typeof hours) => c.events.find((e) => e.type === 'finish')?.messageId as string;
    await rate(assistantId, a, finish(hours), 'positive');
    await rate(emptyId, b, finish(mars), 'negative');
    await rate(emptyId, b, finish(mars2), 'negative');

    const gaps = await t.request({
      method: 'GET',
      url: `/api/workspaces/${w.ws}/analytics/knowledge-gaps?period=7d`,
      headers: w.member.headers,
    });
    expect(gaps.statusCode, gaps.body).toBe(200);
    const g = gaps.json().data;
    expect(g.gaps).toEqual([
      {
        question: 'do you deliver to mars',
        asked: 'Do you deliver to MARS', // the most recent wording, as the customer wrote it
        count: 2,
        lastAskedAt: expect.any(String),
      },
    ]);
    expect(g).toMatchObject({ replies: 2, aiReplies: 4, rate: 0.5 });

    const res = await t.request({
      method: 'GET',
      url: `/api/workspaces/${w.ws}/analytics?period=7d`,
      headers: w.member.headers,
    });
    const d = res.json().data;
    expect(d.totals).toMatchObject({
      conversations: 2,
      byChannel: { widget: 2, chat: 0, sms: 0 },
      credits: 4,
    });
    expect(d.feedback).toEqual({
      positive: 1,
      negative: 2,
      total: 3,
      positiveRate: 1 / 3,
      responseRate: 3 / 4,
    });
    expect(d.resolvedWithoutPerson).toEqual({ conversations: 2, rate: 1 });
    expect(d.handoff).toEqual({ conversations: 0, rate: 0 });

    const ch = await t.request({
      method: 'GET',
      url: `/api/analytics/channels?workspaceId=${w.ws}&period=7d`,
      headers: w.member.headers,
    });
    expect(ch.json().data.channels[0]).toEqual({
      channel: 'widget',
      conversations: 2,
      messages: 8,
      inbound: 4,
      outbound: 4,
    });
  });

  it('a visitor asking for a person hands the conversation off: the handoff rate moves, no gap is added', async () => {
    const c = await initWidget(t, emptyId);
    await widgetChat(t, emptyId, c, 'I want to talk to a human');
    const d = (
      await t.request({
        method: 'GET',
        url: `/api/workspaces/${w.ws}/analytics?period=7d`,
        headers: w.owner.headers,
      })
    ).json().data;
    expect(d.handoff).toEqual({ conversations: 1, rate: 1 / 3 });
    const g = (
      await t.request({
        method: 'GET',
        url: `/api/workspaces/${w.ws}/analytics/knowledge-gaps?period=7d`,
        headers: w.owner.headers,
      })
    ).json().data;
    expect(g.replies).toBe(2);
  });
});
