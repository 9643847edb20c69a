import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAssistant } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { createWorld, type World } from '../support/world.ts';
import { CITED, dateOf, daysAgo, HANDOFF_TOOL, SEARCH_TOOL, seedConversation } from './helpers.ts';

let t: TestApp;
let w: World;
let assistantId: string;

const overview = (period: string, headers = w.owner.headers, ws = w.ws) =>
  t.request({ method: 'GET', url: `/api/workspaces/${ws}/analytics?period=${period}`, headers });
const gaps = (query: string, headers = w.owner.headers) =>
  t.request({ method: 'GET', url: `/api/workspaces/${w.ws}/analytics/knowledge-gaps?${query}`, headers });
const channels = (query: string, headers = w.owner.headers) =>
  t.request({ method: 'GET', url: `/api/analytics/channels?workspaceId=${w.ws}&${query}`, headers });

/**
 * The seeded workspace (figures by hand):
 * - today: widget ×2 (one handed off), chat ×1 (no reply: 1 message);
 * - 3 days ago: sms ×1 (agent replied after a handoff), widget ×1;
 * - 10 days ago: chat ×1; 40 days ago: widget ×1; 100 days ago: widget ×1 (outside every period).
 */
beforeAll(async () => {
  t = await createTestApp();
  w = await createWorld(t);
  assistantId = await createAssistant(t, w.owner, w.ws);
  const seed = (opts: Parameters<typeof seedConversation>[3]) => seedConversation(t, w.ws, assistantId, opts);
  // Today. Gaps: "Do you ship to Mars?" twice (two spellings), a pleasantry, a search that found nothing.
  await seed({
    channel: 'widget',
    at: daysAgo(0),
    turns: [
      { question: 'Do you ship to Mars?', reply: {} },
      { question: 'thanks!', reply: {} },
      { question: 'What is your refund policy?', reply: { citations: CITED } },
    ],
  });
  await seed({
    channel: 'widget',
    at: daysAgo(0),
    handedOff: true,
    turns: [
      { question: '  do you   SHIP to mars ', reply: { toolCalls: SEARCH_TOOL } },
      { question: 'I want to talk to a human', reply: { toolCalls: HANDOFF_TOOL } },
    ],
  });
  await seed({ channel: 'chat', at: daysAgo(0), turns: [{ question: 'Anyone there?' }] });
  // 3 days ago: a failed reply is neither a credit nor a gap.
  await seed({
    channel: 'sms',
    at: daysAgo(3),
    handedOff: true,
    agentReply: true,
    turns: [{ question: 'Can I pay in bitcoin?', reply: {} }],
  });
  await seed({
    channel: 'widget',
    at: daysAgo(3),
    turns: [{ question: 'Where is my parcel?', reply: { status: 'failed' } }],
  });
  await seed({
    channel: 'chat',
    at: daysAgo(10),
    turns: [{ question: 'Do you sell gift cards?', reply: {} }],
  });
  await seed({ channel: 'widget', at: daysAgo(40), turns: [{ question: 'Old question', reply: {} }] });
  await seed({ channel: 'widget', at: daysAgo(100), turns: [{ question: 'Ancient question', reply: {} }] });
  // Another workspace's data never shows in ours.
  const other = await createAssistant(t, w.outsider, w.otherWs);
  await seedConversation(t, w.otherWs, other, { channel: 'widget', at: daysAgo(1) });
});
afterAll(() => t.close());

describe('GET /api/workspaces/:ws/analytics', () => {
  it('7d: conversations per day by channel, credits per day, handoff and AI-only shares', async () => {
    const res = await overview('7d');
    expect(res.statusCode, res.body).toBe(200);
    const d = res.json().data;
    expect(d.period).toBe('7d');
    expect(d.channels).toEqual(['widget', 'chat', 'sms']);
    expect(d.days).toHaveLength(7);
    expect(d.days[0].date).toBe(dateOf(daysAgo(6)));
    expect(d.since).toBe(`${dateOf(daysAgo(6))}T00:00:00.000Z`);
    const today = d.days[6];
    expect(today).toEqual({
      date: dateOf(daysAgo(0)),
      conversations: { widget: 2, chat: 1, sms: 0 },
      credits: 5,
    });
    expect(d.days[3]).toEqual({
      date: dateOf(daysAgo(3)),
      conversations: { widget: 1, chat: 0, sms: 1 },
      credits: 1,
    });
    expect(d.totals).toEqual({ conversations: 5, byChannel: { widget: 3, chat: 1, sms: 1 }, credits: 6 });
    // Handed off: the second widget one and the SMS one. AI only with an answer: the first widget
    // one and the failed-reply one (its 2 messages count; docs/analytics.md says so).
    expect(d.handoff).toEqual({ conversations: 2, rate: 2 / 5 });
    expect(d.resolvedWithoutPerson).toEqual({ conversations: 2, rate: 2 / 5 });
    expect(d.feedback).toEqual({ positive: 0, negative: 0, total: 0, positiveRate: null, responseRate: 0 });
  });

  it('30d and 90d widen the window; the 100-day-old conversation is in none', async () => {
    const d30 = (await overview('30d')).json().data;
    expect(d30.days).toHaveLength(30);
    expect(d30.totals).toEqual({ conversations: 6, byChannel: { widget: 3, chat: 2, sms: 1 }, credits: 7 });
    const d90 = (await overview('90d')).json().data;
    expect(d90.days).toHaveLength(90);
    expect(d90.totals).toEqual({ conversations: 7, byChannel: { widget: 4, chat: 2, sms: 1 }, credits: 8 });
    expect(d90.days.reduce((n: number, x: { credits: number }) => n + x.credits, 0)).toBe(8);
  });

  it('defaults to 30d', async () => {
    const res = await t.request({
      method: 'GET',
      url: `/api/workspaces/${w.ws}/analytics`,
      headers: w.owner.headers,
    });
    expect(res.json().data.period).toBe('30d');
  });

  it('a guest reads the figures (the role table lets every role view the workspace)', async () => {
    const res = await overview('7d', w.guest.headers);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.totals.conversations).toBe(5);
  });

  it("another workspace's owner sees only their own figures", async () => {
    const mine = (await overview('7d', w.outsider.headers, w.otherWs)).json().data;
    expect(mine.totals).toEqual({ conversations: 1, byChannel: { widget: 1, chat: 0, sms: 0 }, credits: 1 });
    const theirs = await overview('7d', w.outsider.headers, w.ws);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().code).toBe('not_found:api');
  });
});

describe('GET /api/workspaces/:ws/analytics/knowledge-gaps', () => {
  it('groups the uncited, tool-less answers by question; pleasantries, citations, actions and failures are out', async () => {
    const res = await gaps('period=7d');
    expect(res.statusCode, res.body).toBe(200);
    const d = res.json().data;
    expect(d.gaps.map((g: { question: string; count: number }) => [g.question, g.count])).toEqual([
      ['do you ship to mars', 2],
      ['can i pay in bitcoin', 1],
    ]);
    // As the customer wrote it (the latest of its spellings; both were asked in the same second).
    expect(['Do you ship to Mars?', 'do you SHIP to mars']).toContain(d.gaps[0].asked);
    expect(d.gaps[1].asked).toBe('Can I pay in bitcoin?');
    expect(d.replies).toBe(3);
    expect(d.aiReplies).toBe(6);
    expect(d.rate).toBe(3 / 6);
    expect(new Date(d.gaps[0].lastAskedAt).getTime()).toBeLessThanOrEqual(Date.now());
  });

  it('30d adds the 10-day-old gap; limit cuts the list, not the count', async () => {
    const d = (await gaps('period=30d&limit=1')).json().data;
    expect(d.gaps).toHaveLength(1);
    expect(d.gaps[0]).toMatchObject({ question: 'do you ship to mars', count: 2 });
    expect(d.replies).toBe(4);
  });
});

describe('GET /api/analytics/channels', () => {
  it('messages of the period per channel: inbound, outbound and their conversations', async () => {
    const res = await channels('period=7d');
    expect(res.statusCode, res.body).toBe(200);
    const d = res.json().data;
    expect(d.period).toBe('7d');
    expect(d.channels).toEqual([
      // 3 + 2 questions and 3 + 2 replies today, and a question whose reply failed (not counted).
      { channel: 'widget', conversations: 3, messages: 11, inbound: 6, outbound: 5 },
      { channel: 'chat', conversations: 1, messages: 1, inbound: 1, outbound: 0 },
      { channel: 'sms', conversations: 1, messages: 3, inbound: 1, outbound: 2 },
    ]);
  });

  it('workspaceId may be left out by a member of one workspace only', async () => {
    const res = await t.request({
      method: 'GET',
      url: '/api/analytics/channels?period=90d',
      headers: w.guest.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.channels[0]).toMatchObject({ channel: 'widget', conversations: 4 });
  });
});

describe('hostile input', () => {
  const urls = () => [
    `/api/workspaces/${w.ws}/analytics?`,
    `/api/workspaces/${w.ws}/analytics/knowledge-gaps?`,
    `/api/analytics/channels?workspaceId=${w.ws}&`,
  ];

  it('a period other than 7d, 30d or 90d is 400 bad_request:api naming `period`', async () => {
    for (const url of urls()) {
      for (const p of ['1d', '365d', '7D', '', '7d%00', '%E2%80%8B7d', 'ninety', '-7d', '7d&period=30d']) {
        const res = await t.request({ method: 'GET', url: `${url}period=${p}`, headers: w.owner.headers });
        expect(res.statusCode, `${url} ${p}: ${res.body}`).toBe(400);
        expect(res.json().code).toBe('bad_request:api');
        expect(res.json().details).toHaveProperty('period');
      }
    }
  });

  it('unknown query fields and bad limits are 400', async () => {
    for (const url of urls()) {
      const res = await t.request({
        method: 'GET',
        url: `${url}period=7d&from=2020-01-01`,
        headers: w.owner.headers,
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().code).toBe('bad_request:api');
    }
    for (const limit of ['0', '101', 'abc', '1.5', '-1', '9'.repeat(400)]) {
      const res = await gaps(`period=7d&limit=${limit}`);
      expect(res.statusCode, `${limit}: ${res.body}`).toBe(400);
      expect(res.json().details).toHaveProperty('limit');
    }
  });

  it('a workspace id that is not ours, malformed or huge is a 404 or 400, never a 500', async () => {
    for (const ws of ['ws_nope', '%F0%9F%98%80', 'x'.repeat(101)]) {
      const res = await t.request({
        method: 'GET',
        url: `/api/workspaces/${ws}/analytics`,
        headers: w.owner.headers,
      });
      expect([400, 404], res.body).toContain(res.statusCode);
      const ch = await t.request({
        method: 'GET',
        url: `/api/analytics/channels?workspaceId=${ws}`,
        headers: w.owner.headers,
      });
      expect([400, 404], ch.body).toContain(ch.statusCode);
    }
  });
});
