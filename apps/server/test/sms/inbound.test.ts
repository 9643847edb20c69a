import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contacts, events, smsSessions } from '../../src/db/schema/index.ts';
import type { TestApp } from '../support/harness.ts';
import type { LlmServer } from '../support/llm-server.ts';
import type { SmsProvider } from '../support/sms-provider.ts';
import { waitFor } from '../support/wait.ts';
import type { World } from '../support/world.ts';
import { inbound, newMessageSid, smsLine } from './helpers.ts';
import {
  customer,
  type InboundApp,
  inboundReaders,
  startInbound,
  stopInbound,
  TWIML,
} from './inbound-setup.ts';

/**
 * docs/sms.md "Inbound messages": a signed inbound SMS is stored once per provider message id and
 * acknowledged with empty TwiML; the chat engine's reply goes out through the provider's REST
 * API, cut to `maxMessageLength`, with a status callback URL; contacts, sessions, handoff and
 * credits as documented; the events of both formats.
 */
let app: InboundApp;
let t: TestApp;
let provider: SmsProvider;
let llm: LlmServer;
let w: World;
beforeAll(async () => {
  app = await startInbound();
  ({ t, provider, llm, w } = app);
});
afterAll(() => stopInbound(app));

const { sentTo, conversationsOf, messagesIn, inboundRows, done } = inboundReaders(() => app);

describe('a signed inbound SMS', () => {
  it('is acknowledged at once with empty TwiML; the reply goes out through the REST API with a status callback', async () => {
    const line = await smsLine(t, provider, w.owner, w.ws);
    const from = customer();
    llm.script([{ text: 'We open at nine.' }]);
    const res = await inbound(t, line, from, 'When do you open?');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/xml/);
    expect(res.body).toBe(TWIML);
    await waitFor(() => sentTo(from).length === 1, 15_000, 'the reply');
    const [sent] = sentTo(from);
    expect(sent).toMatchObject({
      from: line.number,
      body: 'We open at nine.',
      accountSid: line.accountSid,
      statusCallback: `http://parley.test/api/sms/status/${line.assistantId}`,
    });
    const [conversation] = await conversationsOf(line.assistantId);
    expect(conversation).toMatchObject({ channel: 'sms', status: 'open', messageCount: 2 });
    const stored = await messagesIn(conversation!.id);
    expect(stored.map((m) => [m.role, m.content])).toEqual([
      ['user', 'When do you open?'],
      ['assistant', 'We open at nine.'],
    ]);
  });

  it('cuts the reply at a word boundary to maxMessageLength', async () => {
    const line = await smsLine(t, provider, w.owner, w.ws, { maxMessageLength: 50 });
    const from = customer();
    const long =
      'Our shop opens at nine every weekday and at ten on Saturdays; on Sundays we rest, like you should.';
    llm.script([{ text: long }]);
    await inbound(t, line, from, 'Hours?');
    await waitFor(() => sentTo(from).length === 1, 15_000, 'the reply');
    const body = sentTo(from)[0]!.body;
    expect(body.length).toBeLessThanOrEqual(50);
    expect(body.endsWith('…')).toBe(true);
    expect(long.startsWith(body.slice(0, -1))).toBe(true);
    expect(long[body.length - 1]).toBe(' ');
  });

  it('the same provider message id again stores and answers nothing more', async () => {
    const line = await smsLine(t, provider, w.owner, w.ws);
    const from = customer();
    const sid = newMessageSid();
    llm.script([{ text: 'Once.' }]);
    for (let i = 0; i < 3; i++) {
      const res = await inbound(t, line, from, 'Hello', { sid });
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(TWIML);
    }
    await done(line, 1);
    expect(await inboundRows(line)).toHaveLength(1);
    await waitFor(() => sentTo(from).length === 1, 15_000, 'the reply');
    const [conversation] = await conversationsOf(line.assistantId);
    expect((await messagesIn(conversation!.id)).map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  it('one sender in one session: the next messages join the conversation, answered in order', async () => {
    const line = await smsLine(t, provider, w.owner, w.ws);
    const from = customer();
    llm.script([{ text: 'One.' }, { text: 'Two.' }, { text: 'Three.' }]);
    await inbound(t, line, from, 'first');
    await inbound(t, line, from, 'second');
    await inbound(t, line, from, 'third');
    await waitFor(() => sentTo(from).length === 3, 15_000, 'three replies');
    const list = await conversationsOf(line.assistantId);
    expect(list).toHaveLength(1);
    const roles = (await messagesIn(list[0]!.id)).map((m) => `${m.role}:${m.content}`);
    expect(roles).toEqual([
      'user:first',
      'assistant:One.',
      'user:second',
      'assistant:Two.',
      'user:third',
      'assistant:Three.',
    ]);
    const [session] = await t.ctx.db
      .select()
      .from(smsSessions)
      .where(eq(smsSessions.assistantId, line.assistantId));
    expect(session).toMatchObject({
      status: 'active',
      messageCount: 6,
      phoneNumber: from,
      conversationId: list[0]!.id,
    });
  });
});

describe('contacts', () => {
  const contactOf = async (phone: string) =>
    (
      await t.ctx.db
        .select()
        .from(contacts)
        .where(and(eq(contacts.workspaceId, w.ws), eq(contacts.phone, phone)))
    )[0];

  it('an unknown sender becomes a contact (contact.created); a known one is matched', async () => {
    const line = await smsLine(t, provider, w.owner, w.ws);
    const stranger = customer();
    await inbound(t, line, stranger, 'hi');
    await done(line, 1);
    const created = await contactOf(stranger);
    expect(created).toMatchObject({ phone: stranger, source: 'sms' });
    const [conversation] = await conversationsOf(line.assistantId);
    expect(conversation?.contactId).toBe(created?.id);
    const ev = await t.ctx.db
      .select()
      .from(events)
      .where(and(eq(events.workspaceId, w.ws), eq(events.type, 'contact.created')));
    expect(ev.some((e) => (e.data as { id: string }).id === created?.id)).toBe(true);

    const known = customer();
    const made = await t.request({
      method: 'POST',
      url: `/api/workspaces/${w.ws}/contacts`,
      headers: w.owner.headers,
      payload: { name: 'Known Customer', phone: known },
    });
    expect(made.statusCode, made.body).toBe(201);
    const other = await smsLine(t, provider, w.owner, w.ws);
    await inbound(t, other, known, 'hello again');
    await done(other, 1);
    const [c2] = await conversationsOf(other.assistantId);
    expect(c2?.contactId).toBe(made.json().data.id);
  });

  it('no contact when auto-creation is off; no match when matching is off', async () => {
    const noCreate = await smsLine(t, provider, w.owner, w.ws, { autoCreateContacts: false });
    const stranger = customer();
    await inbound(t, noCreate, stranger, 'hi');
    await done(noCreate, 1);
    expect(await contactOf(stranger)).toBeUndefined();
    expect((await conversationsOf(noCreate.assistantId))[0]?.contactId).toBeNull();

    const noMatch = await smsLine(t, provider, w.owner, w.ws, {
      enableContactMatching: false,
      autoCreateContacts: false,
    });
    const known = customer();
    await t.request({
      method: 'POST',
      url: `/api/workspaces/${w.ws}/contacts`,
      headers: w.owner.headers,
      payload: { name: 'Someone', phone: known },
    });
    await inbound(t, noMatch, known, 'hi');
    await done(noMatch, 1);
    expect((await conversationsOf(noMatch.assistantId))[0]?.contactId).toBeNull();
  });
});

describe('sessions', () => {
  it('a message after sessionTimeoutMinutes of silence ends the session (conversation.ended) and opens a new one', async () => {
    const line = await smsLine(t, provider, w.owner, w.ws);
    const from = customer();
    await inbound(t, line, from, 'first visit');
    await done(line, 1);
    // Thirty-one minutes of silence (the default timeout is 30).
    const past = new Date(Date.now() - 31 * 60_000);
    await t.ctx.db
      .update(smsSessions)
      .set({ lastMessageAt: past })
      .where(eq(smsSessions.assistantId, line.assistantId));
    await inbound(t, line, from, 'back again');
    await done(line, 2);
    const sessions = await t.ctx.db
      .select()
      .from(smsSessions)
      .where(eq(smsSessions.assistantId, line.assistantId))
      .orderBy(smsSessions.startedAt);
    expect(sessions.map((s) => s.status)).toEqual(['ended', 'active']);
    const list = await conversationsOf(line.assistantId);
    expect(list).toHaveLength(2);
    const first = list.find((c) => c.id === sessions[0]!.conversationId);
    expect(first?.status).toBe('closed');
    const ended = await t.ctx.db
      .select()
      .from(events)
      .where(and(eq(events.workspaceId, w.ws), eq(events.type, 'conversation.ended')));
    expect(ended.some((e) => (e.data as { id: string }).id === first?.id)).toBe(true);

    const listing = await t.request({
      method: 'GET',
      url: `/api/assistants/${line.assistantId}/sms/sessions`,
      headers: w.owner.headers,
    });
    expect(listing.statusCode).toBe(200);
    expect(listing.json()).toMatchObject({ total: 2, limit: 25, offset: 0 });
    expect(listing.json().data.map((s: { status: string }) => s.status)).toEqual(['active', 'ended']);
    expect(listing.json().data[0]).toEqual({
      id: sessions[1]!.id,
      conversationId: sessions[1]!.conversationId,
      phoneNumber: from,
      contactId: expect.any(String),
      status: 'active',
      messageCount: 2,
      startedAt: expect.any(String),
      lastMessageAt: expect.any(String),
    });
  });

  it('the sweep ends idle sessions', async () => {
    const line = await smsLine(t, provider, w.owner, w.ws);
    await inbound(t, line, customer(), 'hello');
    await done(line, 1);
    await t.ctx.db
      .update(smsSessions)
      .set({ lastMessageAt: new Date(Date.now() - 3_600_000) })
      .where(eq(smsSessions.assistantId, line.assistantId));
    const jobs = t.startJobs(['sms-sessions'], { 'sms-sessions': 50 });
    try {
      await waitFor(
        async () =>
          (await t.ctx.db.select().from(smsSessions).where(eq(smsSessions.assistantId, line.assistantId)))[0]
            ?.status === 'ended',
        10_000,
        'the session ended',
      );
    } finally {
      await jobs.stop();
    }
    expect((await conversationsOf(line.assistantId))[0]?.status).toBe('closed');
  });
});

describe('events', () => {
  it('records conversation.created and message.created for the customer and the AI', async () => {
    const line = await smsLine(t, provider, w.owner, w.ws);
    const from = customer();
    await inbound(t, line, from, 'events please');
    await waitFor(() => sentTo(from).length === 1, 15_000, 'the reply');
    const [conversation] = await conversationsOf(line.assistantId);
    const rows = await t.ctx.db.select().from(events).where(eq(events.workspaceId, w.ws));
    const about = rows.filter(
      (e) =>
        (e.data as { id?: string; conversationId?: string }).id === conversation!.id ||
        (e.data as { conversationId?: string }).conversationId === conversation!.id,
    );
    const types = about.map((e) => e.type);
    expect(types).toContain('conversation.created');
    expect(types.filter((x) => x === 'message.created')).toHaveLength(2);
    expect(about.find((e) => e.type === 'conversation.created')?.data).toMatchObject({ channel: 'sms' });
  });
});
