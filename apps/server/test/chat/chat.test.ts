import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversations, events, messages, tickets, workspaceCredits } from '../../src/db/schema/index.ts';
import { NOT_FOUND } from '../../src/providers/llm/offline-answers.ts';
import { drainIngestion } from '../knowledge/helpers.ts';
import { addSource, createAssistant } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { createWorld, insertWorkspace, setUsed, type World } from '../support/world.ts';
import { chat, messagesOf } from './helpers.ts';

let t: TestApp;
let w: World;
let asst: string;
let qaSource: string;

beforeAll(async () => {
  t = await createTestApp();
  w = await createWorld(t);
  asst = await createAssistant(t, w.owner, w.ws, { instructions: 'You help customers of Acme.' });
  qaSource = (
    await addSource(t, w.owner, asst, {
      type: 'qa',
      pairs: [
        { question: 'How long do refunds take?', answer: 'Refunds reach your card within 5 business days.' },
        { question: 'Do you ship to Canada?', answer: 'Yes, we ship to Canada in 3 to 7 days.' },
      ],
    })
  ).id;
  await addSource(t, w.owner, asst, {
    type: 'text',
    name: 'Warranty',
    text: '# Warranty\n\nEvery kettle has a two year warranty. The warranty covers defects, not drops.\n\nClaims need the receipt.',
  });
  await drainIngestion(t);
});
afterAll(() => t.close());

const eventTypes = async (workspaceId: string) =>
  (
    await t.ctx.db.select().from(events).where(eq(events.workspaceId, workspaceId)).orderBy(asc(events.id))
  ).map((e) => e.type);

describe('POST /api/chat with the built-in offline responder', () => {
  it('streams the best Q&A answer with a citation, stores both messages and no event (a private chat)', async () => {
    const before = await eventTypes(w.ws);
    const r = await chat(t, w.member, { assistantId: asst, content: 'how long do refunds take' });
    expect(r.status).toBe(200);
    expect(r.res.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(r.conversationId).toMatch(/^conv_/);
    expect(r.text).toBe('Refunds reach your card within 5 business days. [1]');
    expect(r.events.filter((e) => e.type === 'text-delta').length).toBeGreaterThan(3);
    const finish = r.events.at(-1);
    expect(finish?.type).toBe('finish');
    if (finish?.type !== 'finish') throw new Error('no finish');
    expect(finish.messageId).toMatch(/^msg_/);
    expect(finish.usage.promptTokens).toBeGreaterThan(0);
    expect(finish.usage.completionTokens).toBeGreaterThan(0);

    const stored = await messagesOf(t, w.member, r.conversationId as string);
    expect(stored.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(stored[1]?.id).toBe(finish.messageId);
    expect(stored[1]?.content).toBe(r.text);
    expect(stored[1]?.citations).toEqual([expect.objectContaining({ index: 1, sourceId: qaSource })]);
    expect(stored[1]?.usage).toEqual(finish.usage);
    // A member's internal chat is private until handed off: webhooks hear nothing of it
    // (docs/webhooks.md "Internal chats"; test/webhooks/private-chats.test.ts).
    expect(await eventTypes(w.ws)).toEqual(before);
  });

  it('composes from passages with citations, and continues the same conversation', async () => {
    const first = await chat(t, w.member, { assistantId: asst, content: 'what does the warranty cover?' });
    expect(first.text).toContain('The warranty covers defects, not drops.');
    expect(first.text).toMatch(/\[\d\]/);
    const second = await chat(t, w.member, {
      assistantId: asst,
      conversationId: first.conversationId,
      content: 'Do you ship to Canada?',
    });
    expect(second.conversationId).toBe(first.conversationId);
    expect(second.text).toBe('Yes, we ship to Canada in 3 to 7 days. [1]');
    const [conv] = await t.ctx.db
      .select()
      .from(conversations)
      .where(eq(conversations.id, first.conversationId as string));
    expect(conv?.messageCount).toBe(4);
    expect(conv?.channel).toBe('chat');
    expect(conv?.startedBy).toBe(w.member.id);
  });

  it('says plainly when it does not know', async () => {
    const r = await chat(t, w.member, { assistantId: asst, content: 'What is the airspeed of a swallow?' });
    expect(r.text).toBe(NOT_FOUND);
    const stored = await messagesOf(t, w.member, r.conversationId as string);
    expect(stored[1]?.citations).toEqual([]);
  });

  it('is deterministic', async () => {
    const a = await chat(t, w.admin, { assistantId: asst, content: 'what does the warranty cover?' });
    const b = await chat(t, w.admin, { assistantId: asst, content: 'what does the warranty cover?' });
    expect(a.text).toBe(b.text);
  });

  it('hands off to a human on request; afterwards messages are stored with no AI reply and no credit', async () => {
    const r = await chat(t, w.member, { assistantId: asst, content: 'I want to talk to a human please' });
    const call = r.events.find((e) => e.type === 'tool-call');
    expect(call).toMatchObject({ type: 'tool-call', toolName: 'request_human' });
    const result = r.events.find((e) => e.type === 'tool-result');
    expect(result).toMatchObject({
      toolCallId: call?.type === 'tool-call' ? call.toolCallId : '',
      result: { status: 'handoff' },
    });
    expect(r.text).toContain('member of our team');
    const conversationId = r.conversationId as string;
    const [conv] = await t.ctx.db.select().from(conversations).where(eq(conversations.id, conversationId));
    expect(conv?.status).toBe('handoff');

    const [credits] = await t.ctx.db
      .select()
      .from(workspaceCredits)
      .where(eq(workspaceCredits.workspaceId, w.ws));
    const next = await chat(t, w.member, {
      assistantId: asst,
      conversationId,
      content: 'hello? anyone there?',
    });
    expect(next.status).toBe(200);
    expect(next.events).toEqual([
      { type: 'finish', messageId: null, usage: { promptTokens: 0, completionTokens: 0 } },
    ]);
    const [after] = await t.ctx.db
      .select()
      .from(workspaceCredits)
      .where(eq(workspaceCredits.workspaceId, w.ws));
    expect(after?.used).toBe(credits?.used);
    const stored = await messagesOf(t, w.member, conversationId);
    expect(stored.map((m) => m.role)).toEqual(['user', 'system', 'assistant', 'user']);
    expect(stored[2]?.toolCalls).toEqual([
      expect.objectContaining({ toolName: 'request_human', result: { status: 'handoff' } }),
    ]);
  });

  it('opens a ticket when asked, linked to the conversation, with ticket.created', async () => {
    const r = await chat(t, w.member, {
      assistantId: asst,
      content: 'Please open a ticket: my kettle arrived broken',
    });
    const result = r.events.find((e) => e.type === 'tool-result');
    expect(result).toMatchObject({
      type: 'tool-result',
      result: { ticketId: expect.stringMatching(/^tkt_/) },
    });
    const [ticket] = await t.ctx.db
      .select()
      .from(tickets)
      .where(and(eq(tickets.workspaceId, w.ws), eq(tickets.conversationId, r.conversationId as string)));
    expect(ticket?.status).toBe('open');
    expect(ticket?.priority).toBe('medium');
    expect(r.text).toContain(ticket?.id as string);
    expect(await eventTypes(w.ws)).toContain('ticket.created');
  });
});

describe('tickets opened by the assistant count against the plan quota', () => {
  it('a Free workspace with 50 tickets gets a readable tool error, and the reply goes on', async () => {
    const ws = await insertWorkspace(t, w.freeOwner, { plan: 'free', name: 'Full' });
    const a = await createAssistant(t, w.freeOwner, ws);
    await t.ctx.db
      .insert(tickets)
      .values(
        Array.from({ length: 50 }, (_, i) => ({ id: `tkt_full_${i}`, workspaceId: ws, subject: `old ${i}` })),
      );
    const r = await chat(t, w.freeOwner, { assistantId: a, content: 'Please open a ticket for my refund' });
    const result = r.events.find((e) => e.type === 'tool-result');
    expect(result).toMatchObject({
      type: 'tool-result',
      result: { error: expect.stringContaining('50 support tickets') },
    });
    expect(r.events.at(-1)?.type).toBe('finish');
    expect(await t.ctx.db.select().from(tickets).where(eq(tickets.workspaceId, ws))).toHaveLength(50);
  });
});

describe('POST /api/chat refusals', () => {
  it('guests can read but not chat (403); nothing is stored', async () => {
    const before = await t.ctx.db.select().from(conversations);
    const r = await chat(t, w.guest, { assistantId: asst, content: 'hi' });
    expect(r.status).toBe(403);
    expect(r.res.json().code).toBe('forbidden:api');
    expect(await t.ctx.db.select().from(conversations)).toHaveLength(before.length);
  });

  it("another member's conversation, an unknown one, or one of another assistant is 404 not_found:chat", async () => {
    const mine = await chat(t, w.member, { assistantId: asst, content: 'hi' });
    const other = await chat(t, w.admin, {
      assistantId: asst,
      conversationId: mine.conversationId,
      content: 'hi',
    });
    expect(other.status).toBe(404);
    expect(other.res.json().code).toBe('not_found:chat');
    const unknown = await chat(t, w.member, {
      assistantId: asst,
      conversationId: 'conv_nope',
      content: 'hi',
    });
    expect(unknown.res.json().code).toBe('not_found:chat');
    const asst2 = await createAssistant(t, w.owner, w.ws);
    const wrong = await chat(t, w.member, {
      assistantId: asst2,
      conversationId: mine.conversationId,
      content: 'hi',
    });
    expect(wrong.res.json().code).toBe('not_found:chat');
  });

  it('a private assistant without a grant is 404', async () => {
    const priv = await createAssistant(t, w.owner, w.ws, { visibility: 'private' });
    const r = await chat(t, w.member, { assistantId: priv, content: 'hi' });
    expect(r.status).toBe(404);
  });

  it('invalid bodies are 400 bad_request:chat with details', async () => {
    const cases: unknown[] = [
      {},
      { assistantId: asst },
      { assistantId: asst, content: '' },
      { assistantId: asst, content: '   ' },
      { assistantId: asst, content: 42 },
      { assistantId: 7, content: 'hi' },
      { assistantId: asst, content: 'x'.repeat(8001) },
      { assistantId: asst, content: 'hi', model: 'gpt-5' },
      { assistantId: asst, content: 'nul \u0000 byte' },
      [],
    ];
    for (const payload of cases) {
      const res = await t.request({
        method: 'POST',
        url: '/api/chat',
        headers: w.member.headers,
        payload: payload as object,
      });
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(res.json().code).toBe('bad_request:chat');
    }
  });

  it('answers unicode questions', async () => {
    const r = await chat(t, w.member, {
      assistantId: asst,
      content: '¿Cuánto tardan los reembolsos? 🤔 退款',
    });
    expect(r.status).toBe(200);
    expect(r.events.at(-1)?.type).toBe('finish');
  });

  it('no credits left: 403 credits_limit_exceeded before any stream, nothing stored; an upgrade resumes', async () => {
    const asstFree = await createAssistant(t, w.freeOwner, w.freeWs);
    await setUsed(t, w.freeWs, 50); // the Free plan's 50 credits, all spent
    const before = await t.ctx.db.select().from(messages).where(eq(messages.workspaceId, w.freeWs));
    const r = await chat(t, w.freeOwner, { assistantId: asstFree, content: 'how long do refunds take' });
    expect(r.status).toBe(403);
    expect(r.res.json().code).toBe('credits_limit_exceeded');
    expect(r.res.headers['content-type']).toMatch(/application\/json/);
    expect(await t.ctx.db.select().from(messages).where(eq(messages.workspaceId, w.freeWs))).toHaveLength(
      before.length,
    );
    expect(
      await t.ctx.db.select().from(conversations).where(eq(conversations.workspaceId, w.freeWs)),
    ).toHaveLength(0);
  });
});

describe('GET /api/chat/conversations and messages', () => {
  it("lists the caller's own chats with the assistant, newest first, with cursor pages", async () => {
    const a2 = await createAssistant(t, w.owner, w.ws);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push(
        (await chat(t, w.member, { assistantId: a2, content: `question ${i}` })).conversationId as string,
      );
    }
    await chat(t, w.admin, { assistantId: a2, content: 'not yours' });
    const page1 = await t.request({
      method: 'GET',
      url: `/api/chat/conversations?assistantId=${a2}&limit=2`,
      headers: w.member.headers,
    });
    expect(page1.statusCode).toBe(200);
    expect(page1.json().data.map((c: { id: string }) => c.id)).toEqual([ids[2], ids[1]]);
    expect(page1.json().hasMore).toBe(true);
    const page2 = await t.request({
      method: 'GET',
      url: `/api/chat/conversations?assistantId=${a2}&limit=2&cursor=${page1.json().nextCursor}`,
      headers: w.member.headers,
    });
    expect(page2.json().data.map((c: { id: string }) => c.id)).toEqual([ids[0]]);
    expect(page2.json().data[0]).toMatchObject({
      channel: 'chat',
      status: 'open',
      messageCount: 2,
      title: 'question 0',
    });
  });

  it('rejects a tampered cursor and a missing assistantId with 400', async () => {
    const bad = await t.request({
      method: 'GET',
      url: `/api/chat/conversations?assistantId=${asst}&cursor=abc`,
      headers: w.member.headers,
    });
    expect(bad.statusCode).toBe(400);
    const missing = await t.request({
      method: 'GET',
      url: '/api/chat/conversations',
      headers: w.member.headers,
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().code).toBe('bad_request:chat');
  });

  it("another member cannot read one's messages (404 not_found:chat)", async () => {
    const mine = await chat(t, w.member, { assistantId: asst, content: 'secret question' });
    const res = await t.request({
      method: 'GET',
      url: `/api/chat/conversations/${mine.conversationId}/messages`,
      headers: w.owner.headers,
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('not_found:chat');
  });
});
