import { Writable } from 'node:stream';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { events, messages, smsInbound, smsOutbound, smsStatusEvents } from '../../src/db/schema/index.ts';
import type { TestApp } from '../support/harness.ts';
import { newAuthToken, type SmsProvider } from '../support/sms-provider.ts';
import { waitFor } from '../support/wait.ts';
import { createWorld, insertApiKey, type World } from '../support/world.ts';
import { inbound, type Line, newMessageSid, signedPost, smsApp, smsLine, statusCallback } from './helpers.ts';

/**
 * docs/sms.md "Replies and delivery status" and "Signatures": status callbacks move the delivery
 * status only forward, never from a failure to a success, and keep the provider's error code; a
 * request without a valid signature is refused with 403, stores and records nothing, and is
 * logged as a warning.
 */
let t: TestApp;
let provider: SmsProvider;
let w: World;
beforeAll(async () => {
  ({ t, provider } = await smsApp());
  w = await createWorld(t);
  t.startJobs(['sms-inbound', 'sms-send'], { 'sms-inbound': 50, 'sms-send': 50 });
});
afterAll(async () => {
  await t.close();
  await provider.close();
});

let seq = 0;
const customer = () => `+1333${String(process.pid % 1000).padStart(3, '0')}${String(++seq).padStart(4, '0')}`;

/** A line with one reply sent; returns the provider's id of that reply. */
async function replied(line: Line) {
  const from = customer();
  await inbound(t, line, from, 'hello');
  await waitFor(() => provider.sent.some((m) => m.to === from), 15_000, 'the reply');
  const sid = provider.sent.find((m) => m.to === from)!.sid;
  await waitFor(async () => (await outboundOf(sid)) !== undefined, 5_000, 'the provider id recorded');
  return sid;
}
const outboundOf = async (sid: string) =>
  (await t.ctx.db.select().from(smsOutbound).where(eq(smsOutbound.providerSid, sid)))[0];

describe('delivery status', () => {
  it('moves only forward: a late sent or queued does not undo delivered', async () => {
    const line = await smsLine(t, provider, w.owner, w.ws);
    const sid = await replied(line);
    expect((await outboundOf(sid))?.deliveryStatus).toBe('queued');
    const seen: Array<string | null | undefined> = [];
    for (const s of ['sent', 'queued', 'delivered', 'sent', 'queued']) {
      const res = await statusCallback(t, line, sid, s);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.body).toBe('<?xml version="1.0" encoding="UTF-8"?><Response/>');
      seen.push((await outboundOf(sid))?.deliveryStatus);
    }
    expect(seen).toEqual(['sent', 'sent', 'delivered', 'delivered', 'delivered']);
  });

  it('each move of the status is a message.updated event with the status and the message; no move, no event', async () => {
    const line = await smsLine(t, provider, w.owner, w.ws);
    const sid = await replied(line);
    const messageId = (await outboundOf(sid))!.messageId;
    for (const s of ['sent', 'sent', 'queued', 'undelivered', 'delivered']) {
      await statusCallback(t, line, sid, s, s === 'undelivered' ? '30003' : undefined);
    }
    const updates = (
      await t.ctx.db
        .select()
        .from(events)
        .where(and(eq(events.workspaceId, w.ws), eq(events.type, 'message.updated')))
        .orderBy(events.createdAt)
    ).filter((e) => (e.data as { id?: string }).id === messageId);
    expect(updates.map((e) => (e.data as { deliveryStatus: string }).deliveryStatus)).toEqual([
      'sent',
      'undelivered',
    ]);
    expect(updates[1]?.data).toMatchObject({
      id: messageId,
      role: 'assistant',
      channel: 'sms',
      deliveryStatus: 'undelivered',
      errorCode: '30003',
    });
  });

  it('the reply shows its delivery status and error code in the inbox and in /api/v1/messages; a customer message shows none', async () => {
    const line = await smsLine(t, provider, w.owner, w.ws);
    const sid = await replied(line);
    const messageId = (await outboundOf(sid))!.messageId;
    const [reply] = await t.ctx.db.select().from(messages).where(eq(messages.id, messageId));
    const conversationId = reply!.conversationId;
    const read = async () => {
      const key = await insertApiKey(t, w.ws, ['chat:write']);
      const v1 = await t.request({
        method: 'GET',
        url: `/api/v1/messages?conversationId=${conversationId}`,
        headers: key,
      });
      expect(v1.statusCode, v1.body).toBe(200);
      const inbox = await t.request({
        method: 'GET',
        url: `/api/inbox/conversations/${conversationId}/messages?workspaceId=${w.ws}`,
        headers: w.owner.headers,
      });
      expect(inbox.statusCode, inbox.body).toBe(200);
      return [v1.json().data, inbox.json().data] as Array<Array<Record<string, unknown>>>;
    };
    for (const list of await read()) {
      const reply = list.find((m) => m.id === messageId)!;
      expect(reply).toMatchObject({ role: 'assistant', deliveryStatus: expect.any(String), errorCode: null });
      const question = list.find((m) => m.role === 'user')!;
      expect(question).not.toHaveProperty('deliveryStatus');
    }
    await statusCallback(t, line, sid, 'undelivered', '30003');
    for (const list of await read()) {
      expect(list.find((m) => m.id === messageId)).toMatchObject({
        deliveryStatus: 'undelivered',
        errorCode: '30003',
      });
    }
  });

  it('a failure is never overwritten by a later success; the error code is kept', async () => {
    const line = await smsLine(t, provider, w.owner, w.ws);
    const sid = await replied(line);
    await statusCallback(t, line, sid, 'sent');
    await statusCallback(t, line, sid, 'undelivered', '30003');
    expect(await outboundOf(sid)).toMatchObject({ deliveryStatus: 'undelivered', errorCode: '30003' });
    await statusCallback(t, line, sid, 'delivered');
    await statusCallback(t, line, sid, 'sent');
    await statusCallback(t, line, sid, 'failed', '30008');
    expect(await outboundOf(sid)).toMatchObject({ deliveryStatus: 'undelivered', errorCode: '30003' });
    // Every callback is kept as received, for the record.
    const recorded = await t.ctx.db
      .select()
      .from(smsStatusEvents)
      .where(eq(smsStatusEvents.providerSid, sid));
    expect(recorded.map((r) => r.status).sort()).toEqual([
      'delivered',
      'failed',
      'sent',
      'sent',
      'undelivered',
    ]);
  });

  it('a failed callback keeps its error code; a later callback without one does not erase it', async () => {
    const line = await smsLine(t, provider, w.owner, w.ws);
    const sid = await replied(line);
    await statusCallback(t, line, sid, 'failed', '30007');
    await statusCallback(t, line, sid, 'failed');
    await statusCallback(t, line, sid, 'delivered');
    expect(await outboundOf(sid)).toMatchObject({ deliveryStatus: 'failed', errorCode: '30007' });
  });

  it('a delivered message takes no error code from a stray later failure', async () => {
    const line = await smsLine(t, provider, w.owner, w.ws);
    const sid = await replied(line);
    await statusCallback(t, line, sid, 'delivered');
    await statusCallback(t, line, sid, 'undelivered', '30005');
    expect(await outboundOf(sid)).toMatchObject({ deliveryStatus: 'delivered', errorCode: null });
  });

  it('a callback that arrives before the provider answered the send is applied once the id is known', async () => {
    const line = await smsLine(t, provider, w.owner, w.ws);
    const from = customer();
    const before = provider.accepted.length;
    const held = provider.holdSends();
    try {
      await inbound(t, line, from, 'quick');
      await waitFor(() => provider.accepted.length > before, 15_000, 'the send taken');
      const sid = provider.accepted[before] as string;
      // The provider already reports delivery; Parley does not know this id yet.
      expect(await outboundOf(sid)).toBeUndefined();
      const res = await statusCallback(t, line, sid, 'delivered');
      expect(res.statusCode).toBe(200);
      expect(await outboundOf(sid)).toBeUndefined();
    } finally {
      held.release();
    }
    const sid = provider.accepted[before] as string;
    await waitFor(async () => (await outboundOf(sid))?.deliveryStatus === 'delivered', 10_000, 'delivered');
  });

  it('an unknown status or message id changes nothing (200)', async () => {
    const line = await smsLine(t, provider, w.owner, w.ws);
    const sid = await replied(line);
    expect((await statusCallback(t, line, sid, 'receiving')).statusCode).toBe(200);
    expect((await statusCallback(t, line, newMessageSid(), 'delivered')).statusCode).toBe(200);
    expect((await outboundOf(sid))?.deliveryStatus).toBe('queued');
  });

  const outboundTo = async (to: string) =>
    (await t.ctx.db.select().from(smsOutbound).where(eq(smsOutbound.toNumber, to)))[0];

  it('a send the provider refuses (4xx) is failed at once with its error code', async () => {
    const line = await smsLine(t, provider, w.owner, w.ws);
    provider.failSends(400, 21211);
    const from = customer();
    await inbound(t, line, from, 'bad number');
    await waitFor(async () => (await outboundTo(from))?.state === 'failed', 15_000, 'failed');
    expect(await outboundTo(from)).toMatchObject({
      deliveryStatus: 'failed',
      errorCode: '21211',
      providerSid: null,
    });
  });

  it('a send the provider cannot take now (5xx) is retried, then sent', async () => {
    const line = await smsLine(t, provider, w.owner, w.ws);
    provider.failSends(503, 20500);
    const from = customer();
    await inbound(t, line, from, 'try again');
    await waitFor(async () => (await outboundTo(from))?.lastError != null, 15_000, 'the first attempt');
    expect(await outboundTo(from)).toMatchObject({ state: 'pending', errorCode: '20500', providerSid: null });
    // The first retry comes 5 s later.
    await waitFor(() => provider.sent.some((m) => m.to === from), 20_000, 'the retry');
    await waitFor(async () => (await outboundTo(from))?.state === 'sent', 5_000, 'sent');
    expect(await outboundTo(from)).toMatchObject({ attempts: 2, deliveryStatus: 'queued' });
  });
});

describe('signatures', () => {
  it('403 and nothing stored for a forged, missing, or wrongly keyed signature on the inbound webhook', async () => {
    const line = await smsLine(t, provider, w.owner, w.ws);
    const path = `/api/sms/webhook/${line.assistantId}`;
    const params = { MessageSid: newMessageSid(), From: '+15550009999', To: line.number, Body: 'forged' };
    const attempts = [
      signedPost(t, path, newAuthToken(), params),
      signedPost(t, path, line.token, params, { signature: '' }),
      signedPost(t, path, line.token, params, { signature: 'bm90IGEgc2lnbmF0dXJl' }),
      signedPost(t, path, line.token, params, { url: `http://parley.test/api/sms/webhook/other` }),
      // Signed for other parameters (a changed Body).
      signedPost(t, path, line.token, params, {
        signature: (await import('../support/sms-provider.ts')).signRequest(
          line.token,
          `http://parley.test${path}`,
          {
            ...params,
            Body: 'original',
          },
        ),
      }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json().code).toBe('forbidden:api');
    }
    const stored = await t.ctx.db
      .select()
      .from(smsInbound)
      .where(eq(smsInbound.assistantId, line.assistantId));
    expect(stored).toHaveLength(0);
  });

  it('403 and nothing recorded for a forged status callback', async () => {
    const line = await smsLine(t, provider, w.owner, w.ws);
    const sid = await replied(line);
    const res = await signedPost(t, `/api/sms/status/${line.assistantId}`, newAuthToken(), {
      MessageSid: sid,
      MessageStatus: 'failed',
      ErrorCode: '30008',
    });
    expect(res.statusCode).toBe(403);
    expect(await outboundOf(sid)).toMatchObject({ deliveryStatus: 'queued', errorCode: null });
    const recorded = await t.ctx.db
      .select()
      .from(smsStatusEvents)
      .where(eq(smsStatusEvents.providerSid, sid));
    expect(recorded).toHaveLength(0);
  });

  it('404 for an assistant without an SMS configuration', async () => {
    const res = await signedPost(t, '/api/sms/webhook/asst_nothing', newAuthToken(), {
      MessageSid: newMessageSid(),
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('not_found:api');
  });

  it('logs a warning for a forgery', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, cb) {
        lines.push(String(chunk));
        cb();
      },
    });
    const app = await buildApp(t.ctx, { logger: { level: 'warn', stream } });
    try {
      const line = await smsLine(t, provider, w.owner, w.ws);
      const res = await app.inject({
        method: 'POST',
        url: `/api/sms/webhook/${line.assistantId}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': 'forged' },
        payload: 'MessageSid=SM1&From=%2B15550001111&Body=hi',
      });
      expect(res.statusCode).toBe(403);
      const warning = lines.map((l) => JSON.parse(l) as { level: number; msg: string; assistantId?: string });
      expect(
        warning.some((l) => l.level === 40 && l.assistantId === line.assistantId && /signature/.test(l.msg)),
      ).toBe(true);
    } finally {
      await app.close();
    }
  });
});
