import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversations, messages, smsInbound } from '../../src/db/schema/index.ts';
import type { TestApp } from '../support/harness.ts';
import type { LlmServer } from '../support/llm-server.ts';
import type { SmsProvider } from '../support/sms-provider.ts';
import { waitFor } from '../support/wait.ts';
import { createWorld, setUsed, type World } from '../support/world.ts';
import { inbound, newMessageSid, signedPost, smsApp, smsLine } from './helpers.ts';
import {
  customer,
  type InboundApp,
  inboundReaders,
  startInbound,
  stopInbound,
  TWIML,
} from './inbound-setup.ts';

/**
 * docs/sms.md "Inbound messages", when the AI does not answer: a person holds the conversation,
 * credits are exhausted, the configuration is off, or the process crashed between the
 * acknowledgement and the reply; and the signature behind a proxy. Split from inbound.test.ts
 * (one setup, inbound-setup.ts).
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

describe('no AI reply', () => {
  it('while a person holds the conversation: the message is stored for the inbox, nothing is sent', async () => {
    const line = await smsLine(t, provider, w.owner, w.ws);
    const from = customer();
    llm.script([{ text: 'First answer.' }]);
    await inbound(t, line, from, 'hello');
    await waitFor(() => sentTo(from).length === 1, 15_000, 'the first reply');
    const [conversation] = await conversationsOf(line.assistantId);
    const taken = await t.request({
      method: 'POST',
      url: `/api/inbox/conversations/${conversation!.id}/handoff`,
      headers: w.member.headers,
    });
    expect(taken.statusCode, taken.body).toBe(200);
    const requestsBefore = llm.requests.length;
    await inbound(t, line, from, 'I want a person');
    await done(line, 2);
    const stored = await messagesIn(conversation!.id);
    expect(stored.at(-1)).toMatchObject({ role: 'user', content: 'I want a person' });
    expect(llm.requests.length).toBe(requestsBefore);
    expect(sentTo(from)).toHaveLength(1);

    // The person's reply from the inbox goes out as an SMS.
    const reply = await t.request({
      method: 'POST',
      url: `/api/inbox/conversations/${conversation!.id}/messages`,
      headers: w.member.headers,
      payload: { content: 'Hi, this is Sam from support.' },
    });
    expect(reply.statusCode, reply.body).toBe(201);
    await waitFor(() => sentTo(from).length === 2, 15_000, 'the agent reply');
    expect(sentTo(from)[1]).toMatchObject({
      body: 'Hi, this is Sam from support.',
      from: line.number,
      statusCallback: `http://parley.test/api/sms/status/${line.assistantId}`,
    });
    // The inbox lists it as an SMS conversation.
    const listed = await t.request({
      method: 'GET',
      url: `/api/inbox/conversations?workspaceId=${w.ws}&channel=sms`,
      headers: w.member.headers,
    });
    expect(listed.statusCode).toBe(200);
    expect(listed.json().data.map((c: { id: string }) => c.id)).toContain(conversation!.id);
  });

  it('when credits are exhausted: the message is stored for the inbox, no reply, no credit', async () => {
    const { t: t2, provider: p2 } = await smsApp();
    try {
      const w2 = await createWorld(t2);
      const line = await smsLine(t2, p2, w2.owner, w2.ws);
      await setUsed(t2, w2.ws, 1_000_000);
      const jobs = t2.startJobs(['sms-inbound', 'sms-send'], { 'sms-inbound': 50 });
      const from = customer();
      await inbound(t2, line, from, 'anyone there?');
      await waitFor(
        async () =>
          (await t2.ctx.db.select().from(smsInbound).where(eq(smsInbound.assistantId, line.assistantId)))[0]
            ?.state === 'done',
        15_000,
        'handled',
      );
      await jobs.stop();
      const [conversation] = await t2.ctx.db
        .select()
        .from(conversations)
        .where(eq(conversations.assistantId, line.assistantId));
      const stored = await t2.ctx.db
        .select()
        .from(messages)
        .where(eq(messages.conversationId, conversation!.id));
      expect(stored.map((m) => [m.role, m.content])).toEqual([['user', 'anyone there?']]);
      expect(p2.sent).toHaveLength(0);
    } finally {
      await t2.close();
      await p2.close();
    }
  });
});

describe('a configuration switched off', () => {
  it('acknowledges and stores nothing', async () => {
    const line = await smsLine(t, provider, w.owner, w.ws, { isEnabled: false });
    const res = await inbound(t, line, customer(), 'hello?');
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(TWIML);
    expect(await inboundRows(line)).toHaveLength(0);
  });
});

describe('a crash between the acknowledgement and the reply', () => {
  it('leaves the stored message to be answered once its lease ends', async () => {
    const line = await smsLine(t, provider, w.owner, w.ws);
    const from = customer();
    // As a process that stored and claimed it, then died: claimed, lease running out.
    await t.ctx.db.insert(smsInbound).values({
      id: `smsi_crashed${Date.now()}`,
      workspaceId: w.ws,
      assistantId: line.assistantId,
      providerSid: newMessageSid(),
      fromNumber: from,
      toNumber: line.number,
      body: 'did you get this?',
      publicBase: 'http://parley.test',
      attempts: 1,
      leaseUntil: new Date(Date.now() + 300),
    });
    t.ctx.jobs.wake('sms-inbound');
    await waitFor(() => sentTo(from).length === 1, 15_000, 'the reply after the lease');
    // The provider has the reply before the row is marked done.
    await done(line, 1);
    expect((await inboundRows(line))[0]).toMatchObject({ state: 'done', attempts: 2 });
  });
});

describe('behind a proxy', () => {
  it('with TRUST_PROXY, a signature for the forwarded URL is accepted (besides PUBLIC_BASE_URL)', async () => {
    const { t: t2, provider: p2 } = await smsApp({ TRUST_PROXY: 'true' });
    try {
      const w2 = await createWorld(t2);
      const line = await smsLine(t2, p2, w2.owner, w2.ws);
      const path = `/api/sms/webhook/${line.assistantId}`;
      const params = {
        MessageSid: newMessageSid(),
        From: '+15550003333',
        To: line.number,
        Body: 'via proxy',
      };
      const headers = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'sms.example.com' };
      const ok = await signedPost(t2, path, line.token, params, {
        url: `https://sms.example.com${path}`,
        headers,
      });
      expect(ok.statusCode, ok.body).toBe(200);
      // Signed for another host: refused.
      const wrong = await signedPost(
        t2,
        path,
        line.token,
        { ...params, MessageSid: newMessageSid() },
        {
          url: `https://elsewhere.example.com${path}`,
          headers,
        },
      );
      expect(wrong.statusCode).toBe(403);
    } finally {
      await t2.close();
      await p2.close();
    }
  });

  it('without TRUST_PROXY, forwarded headers are not believed', async () => {
    const { t: t2, provider: p2 } = await smsApp();
    try {
      const w2 = await createWorld(t2);
      const line = await smsLine(t2, p2, w2.owner, w2.ws);
      const path = `/api/sms/webhook/${line.assistantId}`;
      const params = { MessageSid: newMessageSid(), From: '+15550003333', To: line.number, Body: 'x' };
      const res = await signedPost(t2, path, line.token, params, {
        url: `https://sms.example.com${path}`,
        headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'sms.example.com' },
      });
      expect(res.statusCode).toBe(403);
    } finally {
      await t2.close();
      await p2.close();
    }
  });
});
