import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smsApp, smsLine } from '../sms/helpers.ts';
import type { TestApp } from '../support/harness.ts';
import type { SmsProvider } from '../support/sms-provider.ts';
import { createWorld, personalToken, type World } from '../support/world.ts';
import { daysAgo, seedConversation } from './helpers.ts';

/**
 * One rule for messages in and out (src/db/message-volume.ts): SMS analytics (docs/sms.md
 * "Analytics") and workspace analytics (docs/analytics.md "Message volume per channel") count the
 * same SMS conversations alike. A reply whose status is `failed` was never sent; a reply the carrier
 * did not deliver (`undelivered`) was sent. Figures by hand:
 * - today: 2 questions, one reply stored, one reply `failed`, one agent reply → in 2, out 2;
 * - 3 days ago: 2 questions, one reply the carrier reported `undelivered` → in 2, out 1.
 */
let t: TestApp;
let provider: SmsProvider;
let w: World;
let bearer: Record<string, string>;
let assistantId: string;

beforeAll(async () => {
  ({ t, provider } = await smsApp());
  w = await createWorld(t);
  bearer = await personalToken(t, w.owner);
  ({ assistantId } = await smsLine(t, provider, w.owner, w.ws));
  const seed = (opts: Parameters<typeof seedConversation>[3]) => seedConversation(t, w.ws, assistantId, opts);
  await seed({
    channel: 'sms',
    at: daysAgo(0),
    agentReply: true,
    turns: [
      { question: 'Are you open on Sunday?', reply: {} },
      { question: 'And on Monday?', reply: { status: 'failed' } },
    ],
  });
  const older = await seed({
    channel: 'sms',
    at: daysAgo(3),
    turns: [{ question: 'Where is my parcel?', reply: {} }, { question: 'Hello?' }],
  });
  // The reply went out and the carrier reported it undelivered (docs/sms.md "Replies and delivery status").
  await t.ctx.db.execute(sql`
    insert into sms_outbound (message_id, workspace_id, assistant_id, to_number, body, status_callback,
                              state, provider_sid, delivery_status, error_code)
    select id, workspace_id, ${assistantId}, '+15550109999', content, 'https://example.test/cb',
           'sent', 'SM00000000000000000000000000000001', 'undelivered', '30003'
      from messages where conversation_id = ${older} and role = 'assistant'`);
});

afterAll(async () => {
  await t.close();
  await provider.close();
});

describe('message volume: SMS analytics and workspace analytics agree', () => {
  it('count the same SMS conversations alike: failed replies are not sent, undelivered ones are', async () => {
    const smsRes = await t.request({
      method: 'GET',
      url: `/api/workspaces/${w.ws}/assistants/${assistantId}/sms/analytics?period=7d`,
      headers: bearer,
    });
    expect(smsRes.statusCode, smsRes.body).toBe(200);
    const fromSms = smsRes.json().data;

    const wsRes = await t.request({
      method: 'GET',
      url: `/api/analytics/channels?workspaceId=${w.ws}&period=7d`,
      headers: w.owner.headers,
    });
    expect(wsRes.statusCode, wsRes.body).toBe(200);
    const sms = wsRes.json().data.channels.find((c: { channel: string }) => c.channel === 'sms');

    expect({ inbound: fromSms.inbound, outbound: fromSms.outbound }).toEqual({ inbound: 4, outbound: 3 });
    expect({ inbound: sms.inbound, outbound: sms.outbound }).toEqual({ inbound: 4, outbound: 3 });
    expect(fromSms.totalMessages).toBe(sms.messages);
    const perDay = Object.fromEntries(
      fromSms.series.map((d: { date: string; inbound: number; outbound: number }) => [d.date, d]),
    );
    expect(perDay[daysAgo(0).toISOString().slice(0, 10)]).toMatchObject({ inbound: 2, outbound: 2 });
    expect(perDay[daysAgo(3).toISOString().slice(0, 10)]).toMatchObject({ inbound: 2, outbound: 1 });
  });
});
