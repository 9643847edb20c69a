import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/harness.ts';
import type { Receiver } from '../support/receiver.ts';
import { waitFor } from '../support/wait.ts';
import { createHookA, createHookB, emit, startWebhookWorld, waitForQuiet } from '../support/webhooks.ts';
import type { World } from '../support/world.ts';

let t: TestApp;
let w: World;
let rx: Receiver;
let stop = async () => {};
beforeAll(async () => {
  ({ t, w, rx, stop } = await startWebhookWorld({
    WEBHOOK_TIMEOUT_MS: '1500',
    WEBHOOK_RETRY_DELAYS_A: '0.3,0.6',
    WEBHOOK_RETRY_DELAYS_B: '0.2,0.2,0.2',
  }));
});
afterAll(() => stop());

const deliveries = async (hookId: string) => {
  const res = await t.request({
    method: 'GET',
    url: `/api/workspaces/${w.ws}/webhooks/${hookId}/deliveries`,
    headers: w.owner.headers,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as {
    id: string;
    status: string;
    attempt: number;
    statusCode: number | null;
    duration: number | null;
    event: string;
    eventId: string;
  }[];
};

describe('delivery', () => {
  it('POSTs envelope A signed with X-Parley-Signature and Standard Webhooks headers', async () => {
    const url = rx.on('/signed', () => ({ status: 200 }));
    const hook = await createHookA(t, w.ws, w.owner.headers, { url, events: ['member.joined'] });
    expect(hook.secret).toMatch(/^whsec_/);
    const evt = await emit(t, w.ws, 'member.joined', { userId: 'usr_1', role: 'member', note: 'héllo ✓' });
    await waitFor(() => rx.hits('/signed').length === 1, 5000, 'delivery');
    const hit = rx.hits('/signed')[0]!;
    const body = JSON.parse(hit.body);
    expect(body).toEqual({
      id: evt.id,
      event: 'member.joined',
      timestamp: evt.createdAt.toISOString(),
      workspaceId: w.ws,
      data: { userId: 'usr_1', role: 'member', note: 'héllo ✓' },
    });
    expect(body.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    // node:crypto: lowercase hex HMAC-SHA256 of the raw body with the secret.
    const expected = createHmac('sha256', hook.secret).update(hit.body).digest('hex');
    expect(hit.headers['x-parley-signature']).toBe(expected);
    // The standardwebhooks package verifies the same request (throws if it does not).
    const verified = new Webhook(hook.secret).verify(hit.body, {
      'webhook-id': hit.headers['webhook-id']!,
      'webhook-timestamp': hit.headers['webhook-timestamp']!,
      'webhook-signature': hit.headers['webhook-signature']!,
    });
    expect(verified).toEqual(body);
    expect(hit.headers['webhook-id']).toBe(evt.id);
    expect(() =>
      new Webhook(hook.secret).verify(`${hit.body} `, {
        'webhook-id': hit.headers['webhook-id']!,
        'webhook-timestamp': hit.headers['webhook-timestamp']!,
        'webhook-signature': hit.headers['webhook-signature']!,
      }),
    ).toThrow();
    await waitFor(async () => (await deliveries(hook.id))[0]?.status === 'success', 5000, 'success record');
    const [d] = await deliveries(hook.id);
    expect(d).toMatchObject({
      status: 'success',
      attempt: 1,
      statusCode: 200,
      event: 'member.joined',
      eventId: evt.id,
    });
    expect(d!.duration).toBeGreaterThanOrEqual(0);
  });

  it('a customer-chosen secret signs X-Parley-Signature with that exact string', async () => {
    const url = rx.on('/custom-secret', () => ({ status: 204 }));
    const secret = 'my-own-secret-0123456789';
    await createHookA(t, w.ws, w.owner.headers, { url, events: ['*'], secret });
    await emit(t, w.ws, 'contact.created', { id: 'ct_1' });
    await waitFor(() => rx.hits('/custom-secret').length === 1, 5000, 'delivery');
    const hit = rx.hits('/custom-secret')[0]!;
    expect(hit.headers['x-parley-signature']).toBe(
      createHmac('sha256', secret).update(hit.body).digest('hex'),
    );
    const std = `whsec_${Buffer.from(secret).toString('base64')}`;
    expect(() => new Webhook(std).verify(hit.body, hit.headers)).not.toThrow();
  });

  it('["*"] receives every type, including types added later; named subscriptions only theirs', async () => {
    const star = rx.on('/star', () => ({ status: 200 }));
    const named = rx.on('/named', () => ({ status: 200 }));
    await createHookA(t, w.ws, w.owner.headers, { url: star, events: ['*'] });
    await createHookA(t, w.ws, w.owner.headers, { url: named, events: ['ticket.created'] });
    await emit(t, w.ws, 'ticket.created', { id: 't1' });
    await emit(t, w.ws, 'future.thing.happened', { id: 'f1' });
    await emit(t, w.ws, 'lead.captured', { id: 'l1' }); // no Form A name: not delivered in format A
    await waitFor(() => rx.hits('/star').length === 2, 5000, 'star deliveries');
    await waitForQuiet(t, w.ws);
    expect(
      rx
        .hits('/star')
        .map((h) => JSON.parse(h.body).event)
        .sort(),
    ).toEqual(['future.thing.happened', 'ticket.created']);
    expect(rx.hits('/named').map((h) => JSON.parse(h.body).event)).toEqual(['ticket.created']);
  });

  it('another workspace never receives this workspace’s events', async () => {
    const url = rx.on('/other-ws', () => ({ status: 200 }));
    await createHookA(t, w.otherWs, w.outsider.headers, { url, events: ['*'] });
    await emit(t, w.ws, 'member.left', {});
    await waitForQuiet(t, w.ws);
    expect(rx.hits('/other-ws')).toHaveLength(0);
  });

  it('format B: B names, envelope without id, signed too', async () => {
    const url = rx.on('/format-b', () => ({ status: 200 }));
    const hook = await createHookB(t, w.owner.headers, {
      url,
      events: ['chat.message.created', 'lead.captured'],
      workspaceId: w.ws,
    });
    await emit(t, w.ws, 'message.created', { id: 'm1' });
    await emit(t, w.ws, 'lead.captured', { id: 'l2' });
    await emit(t, w.ws, 'message.updated', { id: 'm1' }); // none in B
    await waitFor(() => rx.hits('/format-b').length === 2, 5000, 'B deliveries');
    await waitForQuiet(t, w.ws);
    const bodies = rx.hits('/format-b').map((h) => JSON.parse(h.body));
    expect(bodies.map((b) => b.event).sort()).toEqual(['chat.message.created', 'lead.captured']);
    for (const b of bodies)
      expect(Object.keys(b).sort()).toEqual(['data', 'event', 'timestamp', 'workspaceId']);
    const hit = rx.hits('/format-b')[0]!;
    expect(hit.headers['x-parley-signature']).toBe(
      createHmac('sha256', hook.secret).update(hit.body).digest('hex'),
    );
    expect(() => new Webhook(hook.secret).verify(hit.body, hit.headers)).not.toThrow();
  });

  it('fails twice then succeeds: schedule A retries after the configured delays', async () => {
    const url = rx.on('/flaky', (_h, n) => ({ status: n <= 2 ? 500 : 200 }));
    const hook = await createHookA(t, w.ws, w.owner.headers, { url, events: ['member.joined'] });
    await emit(t, w.ws, 'member.joined', {});
    await waitFor(() => rx.hits('/flaky').length === 3, 8000, 'three attempts');
    const at = rx.hits('/flaky').map((h) => h.at);
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(280);
    expect(at[2]! - at[1]!).toBeGreaterThanOrEqual(580);
    const ids = rx.hits('/flaky').map((h) => h.headers['webhook-id']);
    expect(new Set(ids).size).toBe(1); // the same event id on every attempt: receivers deduplicate
    await waitFor(async () => (await deliveries(hook.id))[0]?.status === 'success', 5000, 'success');
    expect((await deliveries(hook.id))[0]).toMatchObject({ status: 'success', attempt: 3, statusCode: 200 });
  });

  it('always failing: A ends failed after 3 attempts, B after 4; manual retry → 202 and one attempt', async () => {
    const urlA = rx.on('/down-a', () => ({ status: 503 }));
    const urlB = rx.on('/down-b', () => ({ status: 404 }));
    const a = await createHookA(t, w.ws, w.owner.headers, { url: urlA, events: ['member.left'] });
    await createHookB(t, w.owner.headers, { url: urlB, events: ['ticket.updated'], workspaceId: w.ws });
    await emit(t, w.ws, 'member.left', {});
    await emit(t, w.ws, 'ticket.updated', {});
    await waitFor(async () => (await deliveries(a.id))[0]?.status === 'failed', 8000, 'A failed');
    await waitFor(() => rx.hits('/down-b').length === 4, 8000, 'B four attempts');
    await waitForQuiet(t, w.ws);
    expect(rx.hits('/down-a')).toHaveLength(3);
    expect(rx.hits('/down-b')).toHaveLength(4);
    const [d] = await deliveries(a.id);
    expect(d).toMatchObject({ status: 'failed', attempt: 3, statusCode: 503 });
    rx.on('/down-a', () => ({ status: 200 }));
    const retry = await t.request({
      method: 'POST',
      url: `/api/workspaces/${w.ws}/webhooks/${a.id}/deliveries/${d!.id}/retry`,
      headers: w.owner.headers,
    });
    expect(retry.statusCode, retry.body).toBe(202);
    expect(retry.json().data.status).toBe('pending');
    await waitFor(async () => (await deliveries(a.id))[0]?.status === 'success', 5000, 'retried');
    expect((await deliveries(a.id))[0]).toMatchObject({ attempt: 4, statusCode: 200 });
    expect(rx.hits('/down-a')).toHaveLength(4);
  });

  it('manual retry of a failure that fails again: exactly one new attempt', async () => {
    const url = rx.on('/still-down', () => ({ status: 500 }));
    const hook = await createHookA(t, w.ws, w.owner.headers, { url, events: ['member.left'] });
    await emit(t, w.ws, 'member.left', {});
    await waitFor(async () => (await deliveries(hook.id))[0]?.status === 'failed', 8000, 'failed');
    const [d] = await deliveries(hook.id);
    const res = await t.request({
      method: 'POST',
      url: `/api/workspaces/${w.ws}/webhooks/${hook.id}/deliveries/${d!.id}/retry`,
      headers: w.owner.headers,
    });
    expect(res.statusCode).toBe(202);
    await waitFor(async () => (await deliveries(hook.id))[0]?.attempt === 4, 5000, 'fourth attempt');
    await waitForQuiet(t, w.ws);
    expect((await deliveries(hook.id))[0]).toMatchObject({ status: 'failed', attempt: 4 });
    expect(rx.hits('/still-down')).toHaveLength(4);
  });

  it('a redirect is a failure and is not followed', async () => {
    const target = rx.on('/redirect-target', () => ({ status: 200 }));
    const url = rx.on('/redirect', () => ({ status: 302, headers: { location: target } }));
    const hook = await createHookA(t, w.ws, w.owner.headers, { url, events: ['assistant.updated'] });
    await emit(t, w.ws, 'assistant.updated', {});
    await waitFor(async () => (await deliveries(hook.id))[0]?.status === 'failed', 8000, 'failed');
    expect((await deliveries(hook.id))[0]).toMatchObject({ statusCode: 302, attempt: 3 });
    expect(rx.hits('/redirect-target')).toHaveLength(0);
  });

  it('a receiver hanging past the time-out fails the attempt; it never blocks other webhooks', async () => {
    const slow = rx.on('/hang', () => 'hang');
    const fast = rx.on('/fast', () => ({ status: 200 }));
    const hung = await createHookA(t, w.ws, w.owner.headers, { url: slow, events: ['conversation.ended'] });
    await createHookA(t, w.ws, w.owner.headers, { url: fast, events: ['conversation.ended'] });
    const started = Date.now();
    await emit(t, w.ws, 'conversation.ended', {});
    await waitFor(() => rx.hits('/fast').length === 1, 3000, 'fast delivery');
    // The fast receiver got its event before the hung attempt timed out (1,500 ms).
    expect(rx.hits('/fast')[0]!.at - started).toBeLessThan(1400);
    await waitFor(async () => (await deliveries(hung.id))[0]?.attempt === 1, 5000, 'timed-out attempt');
    const [d] = await deliveries(hung.id);
    expect(d).toMatchObject({ status: 'pending', attempt: 1, statusCode: null });
    expect(d!.duration).toBeGreaterThanOrEqual(1450);
  });

  it('an unreachable receiver (connection refused) is a failed attempt without status code', async () => {
    const hook = await createHookA(t, w.ws, w.owner.headers, {
      url: 'https://127.0.0.1:1/nothing',
      events: ['member.left'],
    });
    await emit(t, w.ws, 'member.left', {});
    await waitFor(async () => (await deliveries(hook.id))[0]?.attempt === 1, 5000, 'attempt');
    expect((await deliveries(hook.id))[0]).toMatchObject({ statusCode: null });
  });

  it('end to end: removing a member through the API delivers member.left', async () => {
    const url = rx.on('/e2e-member-left', () => ({ status: 200 }));
    await createHookA(t, w.ws, w.owner.headers, { url, events: ['member.left'] });
    const res = await t.request({
      method: 'DELETE',
      url: `/api/workspaces/${w.ws}/members/${w.guest.id}`,
      headers: w.owner.headers,
    });
    expect(res.statusCode, res.body).toBe(204);
    await waitFor(() => rx.hits('/e2e-member-left').length === 1, 5000, 'member.left delivery');
    const body = JSON.parse(rx.hits('/e2e-member-left')[0]!.body);
    expect(body).toMatchObject({ event: 'member.left', workspaceId: w.ws, data: { userId: w.guest.id } });
  });
});
