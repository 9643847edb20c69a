import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversations, events, messages, workspaceCredits } from '../../src/db/schema/index.ts';
import { chat, messagesOf } from '../chat/helpers.ts';
import { inbound, smsLine } from '../sms/helpers.ts';
import {
  customer,
  type InboundApp,
  inboundReaders,
  startInbound,
  stopInbound,
} from '../sms/inbound-setup.ts';
import { createAssistant } from '../support/factories.ts';
import { waitFor } from '../support/wait.ts';
import { insertApiKey } from '../support/world.ts';
import {
  fromSite,
  initWidget,
  NO_RATE_LIMIT,
  sessionUrl,
  widgetAssistant,
  widgetChat,
} from '../widget/helpers.ts';

/**
 * docs/measuring.md "Confidence": every AI reply carries a confidence on every message list; an
 * assistant's minConfidence withholds a weaker reply, hands the conversation over with reason
 * `low_confidence` and tells the customer a person will answer, on the internal chat, the widget
 * and SMS; the draft is listed only by the inbox, and the inbox filters conversations by it.
 */
let app: InboundApp;
beforeAll(async () => {
  app = await startInbound(NO_RATE_LIMIT);
});
afterAll(() => stopInbound(app));

const NOTICE = 'Thanks for your message. A person from our team will answer you here shortly.';
const DRAFT = 'Our return window is 30 days.';
const QUESTION = 'What is your return policy?';

const setMin = async (assistantId: string, minConfidence: unknown) =>
  app.t.request({
    method: 'PATCH',
    url: `/api/assistants/${assistantId}`,
    headers: app.w.owner.headers,
    payload: { minConfidence },
  });
const inboxMessages = async (conversationId: string) => {
  const r = await app.t.request({
    method: 'GET',
    url: `/api/inbox/conversations/${conversationId}/messages?workspaceId=${app.w.ws}`,
    headers: app.w.owner.headers,
  });
  expect(r.statusCode, r.body).toBe(200);
  return r.json().data as Array<Record<string, unknown>>;
};
const conversationRow = async (id: string) =>
  (await app.t.ctx.db.select().from(conversations).where(eq(conversations.id, id)))[0];
const usedCredits = async () =>
  (await app.t.ctx.db.select().from(workspaceCredits).where(eq(workspaceCredits.workspaceId, app.w.ws)))[0]
    ?.used ?? 0;

describe('confidence on every reply', () => {
  it('an answer the knowledge does not support is 0, a greeting 1, the handoff notice null; on the chat, inbox and v1 lists', async () => {
    const { t, w } = app;
    const assistantId = await createAssistant(t, w.owner, w.ws);
    app.llm.script([{ text: DRAFT }]);
    const r = await chat(t, w.owner, { assistantId, content: QUESTION });
    expect(r.text).toBe(DRAFT);
    app.llm.script([{ text: 'Hello! How can I help?' }]);
    await chat(t, w.owner, { assistantId, conversationId: r.conversationId, content: 'Hello!' });
    app.llm.script([
      { toolCall: { name: 'request_human', args: { reason: 'wants a person' } } },
      { text: 'Connecting you.' },
    ]);
    await chat(t, w.owner, { assistantId, conversationId: r.conversationId, content: 'A person please' });
    const expected = [
      [DRAFT, 'answered', 0],
      ['Hello! How can I help?', 'answered', 1],
      ['Connecting you.', 'handoff', null],
    ];
    const pick = (list: Array<Record<string, unknown>>) =>
      list.filter((m) => m.role === 'assistant').map((m) => [m.content, m.outcome, m.confidence]);
    expect(pick(await messagesOf(t, w.owner, r.conversationId!))).toEqual(expected);
    expect(pick(await inboxMessages(r.conversationId!))).toEqual(expected);
    const key = await insertApiKey(t, w.ws, ['chat:write']);
    const v1 = await t.request({
      method: 'GET',
      url: `/api/v1/messages?conversationId=${r.conversationId}`,
      headers: key,
    });
    expect(v1.statusCode, v1.body).toBe(200);
    expect(pick(v1.json().data)).toEqual(expected);
    for (const m of v1.json().data) expect(m.withheld).toBe(false);
    const user = (await messagesOf(t, w.owner, r.conversationId!)).find((m) => m.role === 'user');
    expect(user).toMatchObject({ confidence: null, outcome: null });
  });
});

describe('minConfidence', () => {
  it('is an assistant setting from 0 to 1, 0 by default; anything else is a 400 naming the field', async () => {
    const { t, w } = app;
    const assistantId = await createAssistant(t, w.owner, w.ws);
    const got = await t.request({
      method: 'GET',
      url: `/api/assistants/${assistantId}`,
      headers: w.owner.headers,
    });
    expect(got.json().data.minConfidence).toBe(0);
    const ok = await setMin(assistantId, 0.6);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.minConfidence).toBe(0.6);
    for (const bad of [1.5, -0.1, '0.5', null, { a: 1 }]) {
      const r = await setMin(assistantId, bad);
      expect(r.statusCode, JSON.stringify(bad)).toBe(400);
      expect(r.json().details).toHaveProperty('minConfidence');
    }
  });

  it('on the internal chat: the weak draft is withheld, the conversation handed over (low_confidence), the customer told; only the inbox lists the draft', async () => {
    const { t, w } = app;
    const assistantId = await createAssistant(t, w.owner, w.ws);
    expect((await setMin(assistantId, 0.6)).statusCode).toBe(200);
    const credits = await usedCredits();
    app.llm.script([{ text: DRAFT }]);
    const r = await chat(t, w.owner, { assistantId, content: QUESTION });
    expect(r.status).toBe(200);
    // Nothing of the draft reached the stream: the notice came whole.
    expect(r.text).toBe(NOTICE);
    expect(JSON.stringify(r.events)).not.toContain('30 days');
    expect(r.events.at(-1)).toMatchObject({ type: 'finish' });
    expect(await usedCredits()).toBe(credits + 1);
    const conv = await conversationRow(r.conversationId!);
    expect(conv).toMatchObject({ status: 'handoff', handoffReason: 'low_confidence' });

    const chatList = await messagesOf(t, w.owner, r.conversationId!);
    expect(chatList.map((m) => [m.role, m.content])).toEqual([
      ['user', QUESTION],
      ['system', "The AI's reply was withheld: its confidence 0.00 is below the assistant's minimum 0.60."],
      ['assistant', NOTICE],
    ]);
    expect(chatList[2]).toMatchObject({ outcome: 'handoff', confidence: null, withheld: false });

    const inbox = await inboxMessages(r.conversationId!);
    const draft = inbox.find((m) => m.withheld === true);
    expect(draft).toMatchObject({ role: 'assistant', content: DRAFT, confidence: 0, outcome: 'answered' });
    expect(inbox.map((m) => m.role)).toEqual(['user', 'assistant', 'system', 'assistant']);
    expect(inbox[2]?.content).toBe(
      "The AI's reply was withheld: its confidence 0.00 is below the assistant's minimum 0.60.",
    );
    // No channel sends it, and no integration hears of it as a message.
    const recorded = await t.ctx.db
      .select()
      .from(events)
      .where(and(eq(events.workspaceId, w.ws), eq(events.type, 'message.created')));
    expect(recorded.some((e) => JSON.stringify(e.data).includes(String(draft?.id)))).toBe(false);
    // The model's next turn does not see it either: the AI holds nothing until released.
  });

  it('a reply at or above the minimum is sent as usual', async () => {
    const { t, w } = app;
    const assistantId = await createAssistant(t, w.owner, w.ws);
    await setMin(assistantId, 0.6);
    app.llm.script([{ text: 'Hello! How can I help?' }]);
    const r = await chat(t, w.owner, { assistantId, content: 'Hello' });
    expect(r.text).toBe('Hello! How can I help?');
    expect((await conversationRow(r.conversationId!))?.status).toBe('open');
  });

  it('on the widget: the visitor gets the notice, the history shows no draft; the inbox filter lowConfidence finds the conversation', async () => {
    const { t, w } = app;
    const assistantId = await widgetAssistant(t, w.owner, w.ws);
    await setMin(assistantId, 0.6);
    const weak = await initWidget(t, assistantId);
    app.llm.script([{ text: DRAFT }]);
    expect((await widgetChat(t, assistantId, weak, QUESTION)).text).toBe(NOTICE);
    const history = await fromSite(t, {
      method: 'GET',
      url: sessionUrl(assistantId, weak, 'messages'),
      token: weak.token,
    });
    expect(history.statusCode, history.body).toBe(200);
    expect(history.body).not.toContain('30 days');
    expect(history.body).toContain(NOTICE);

    // A second assistant without a minimum: its confident reply keeps its conversation out of the filter.
    const other = await widgetAssistant(t, w.owner, w.ws);
    const strong = await initWidget(t, other);
    app.llm.script([{ text: 'Hello! How can I help?' }]);
    await widgetChat(t, other, strong, 'Hello');
    const list = async (query: string) => {
      const res = await t.request({
        method: 'GET',
        url: `/api/inbox/conversations?workspaceId=${w.ws}&${query}`,
        headers: w.owner.headers,
      });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().data as Array<{ assistantId: string }>).map((c) => c.assistantId);
    };
    const low = await list('lowConfidence=true');
    expect(low).toContain(assistantId);
    expect(low).not.toContain(other);
    expect(await list('lowConfidence=true&channel=widget')).toContain(assistantId);
    expect(await list('')).toContain(other);
    const bad = await t.request({
      method: 'GET',
      url: `/api/inbox/conversations?workspaceId=${w.ws}&lowConfidence=yes`,
      headers: w.owner.headers,
    });
    expect(bad.statusCode).toBe(400);
  });

  it('the filter counts a reply below 0.5 even with no minimum, and below a minimum above 0.5', async () => {
    const { t, w } = app;
    const plain = await widgetAssistant(t, w.owner, w.ws);
    const s = await initWidget(t, plain);
    app.llm.script([{ text: DRAFT }]);
    const answered = await widgetChat(t, plain, s, QUESTION);
    expect(answered.text).toBe(DRAFT);
    const res = await t.request({
      method: 'GET',
      url: `/api/inbox/conversations?workspaceId=${w.ws}&lowConfidence=true&assistantId=${plain}`,
      headers: w.owner.headers,
    });
    expect(res.json().data).toHaveLength(1);
  });

  it('over SMS: the customer is texted the notice, never the draft', async () => {
    const { t, w, provider } = app;
    const readers = inboundReaders(() => app);
    const line = await smsLine(t, provider, w.owner, w.ws);
    await setMin(line.assistantId, 0.6);
    const from = customer();
    app.llm.script([{ text: DRAFT }]);
    await inbound(t, line, from, QUESTION);
    await waitFor(() => readers.sentTo(from).length === 1, 15_000, 'the notice');
    await readers.done(line, 1);
    expect(readers.sentTo(from).map((m) => m.body)).toEqual([NOTICE]);
    const [conv] = await readers.conversationsOf(line.assistantId);
    expect(conv).toMatchObject({ status: 'handoff', handoffReason: 'low_confidence' });
    const stored = await readers.messagesIn(conv!.id);
    expect(stored.filter((m) => m.withheld).map((m) => m.content)).toEqual([DRAFT]);
    const [draft] = await t.ctx.db
      .select()
      .from(messages)
      .where(and(eq(messages.conversationId, conv!.id), eq(messages.withheld, true)));
    expect(draft?.confidence).toBe(0);
  });
});
