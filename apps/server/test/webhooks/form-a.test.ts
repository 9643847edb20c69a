import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookDeliveries } from '../../src/db/schema/index.ts';
import { dispatchEvents } from '../../src/features/webhooks/webhooks.jobs.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { securitySuite } from '../support/security.ts';
import { createHookA, emit } from '../support/webhooks.ts';
import { createWorld, insertApiKey, ownerOf, personalToken, type World } from '../support/world.ts';

let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false' });
  w = await createWorld(t);
});
afterAll(async () => {
  await t?.close();
});

// Public-looking literal (TEST-NET addresses are refused; 93.184.215.14 is a public unicast address).
const URL_OK = 'https://93.184.215.14/hooks/parley';
const base = (ws: string) => `/api/workspaces/${ws}/webhooks`;
const newHook = async (t: TestApp, world: World, ws: string) => {
  const { id } = await createHookA(t, ws, ownerOf(world, ws).headers, { url: URL_OK, events: ['*'] });
  return { webhookId: id };
};
const newDelivery = async (t: TestApp, world: World, ws: string) => {
  const { webhookId } = await newHook(t, world, ws);
  await emit(t, ws, 'member.joined', {});
  await dispatchEvents(t.ctx);
  const [d] = await t.ctx.db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.webhookId, webhookId));
  await t.ctx.db.update(webhookDeliveries).set({ status: 'failed' }).where(eq(webhookDeliveries.id, d!.id));
  return { webhookId, deliveryId: d!.id };
};
const common = { auth: 'user-or-key', minRole: 'admin', scope: 'events:read' } as const;

securitySuite(() => t, {
  ...common,
  name: 'GET webhooks',
  request: (ws) => ({ method: 'GET', url: base(ws) }),
});
securitySuite(() => t, {
  ...common,
  name: 'POST webhooks',
  request: (ws) => ({ method: 'POST', url: base(ws), payload: { url: URL_OK, events: ['member.joined'] } }),
});
securitySuite(() => t, {
  ...common,
  name: 'GET webhook',
  prepare: newHook,
  request: (ws, x) => ({ method: 'GET', url: `${base(ws)}/${x.webhookId}` }),
});
securitySuite(() => t, {
  ...common,
  name: 'PATCH webhook',
  prepare: newHook,
  request: (ws, x) => ({ method: 'PATCH', url: `${base(ws)}/${x.webhookId}`, payload: { active: true } }),
});
securitySuite(() => t, {
  ...common,
  name: 'DELETE webhook',
  prepare: newHook,
  request: (ws, x) => ({ method: 'DELETE', url: `${base(ws)}/${x.webhookId}` }),
});
securitySuite(() => t, {
  ...common,
  name: 'GET deliveries',
  prepare: newHook,
  request: (ws, x) => ({ method: 'GET', url: `${base(ws)}/${x.webhookId}/deliveries` }),
});
securitySuite(() => t, {
  ...common,
  name: 'POST retry',
  prepare: newDelivery,
  request: (ws, x) => ({
    method: 'POST',
    url: `${base(ws)}/${x.webhookId}/deliveries/${x.deliveryId}/retry`,
  }),
});

describe('Form A webhooks', () => {
  it('create returns the secret once; get and list never do', async () => {
    const res = await t.request({
      method: 'POST',
      url: base(w.ws),
      headers: w.admin.headers,
      payload: { url: URL_OK, events: ['member.joined', 'member.left'] },
    });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json().data;
    expect(created).toMatchObject({ url: URL_OK, events: ['member.joined', 'member.left'], active: true });
    expect(created.id).toMatch(/^whk_/);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const got = await t.request({
      method: 'GET',
      url: `${base(w.ws)}/${created.id}`,
      headers: w.owner.headers,
    });
    expect(got.statusCode).toBe(200);
    expect(got.json().data).toEqual({
      id: created.id,
      url: URL_OK,
      events: ['member.joined', 'member.left'],
      active: true,
      createdAt: created.createdAt,
    });
    const list = await t.request({ method: 'GET', url: `${base(w.ws)}?limit=100`, headers: w.owner.headers });
    expect(list.statusCode).toBe(200);
    const page = list.json();
    expect(page).toMatchObject({ limit: 100, offset: 0 });
    expect(page.total).toBe(page.data.length);
    expect(page.data.find((h: { id: string }) => h.id === created.id)).toBeDefined();
    expect(JSON.stringify(page)).not.toContain('whsec_');
  });

  it('accepts a chosen secret and active false; a personal token and an events:read key work', async () => {
    const pat = await personalToken(t, w.owner);
    const res = await t.request({
      method: 'POST',
      url: base(w.ws),
      headers: pat,
      payload: { url: URL_OK, events: ['*'], secret: 's'.repeat(20), active: false },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ secret: 's'.repeat(20), active: false, events: ['*'] });
    const key = await insertApiKey(t, w.ws, ['events:read']);
    const list = await t.request({ method: 'GET', url: base(w.ws), headers: key });
    expect(list.statusCode).toBe(200);
  });

  it('validation: https only, own vocabulary or ["*"], bounded strings, unknown fields', async () => {
    const bad: [Record<string, unknown>, string][] = [
      [{ url: 'http://93.184.215.14/x', events: ['*'] }, 'url'],
      [{ url: 'ftp://93.184.215.14/x', events: ['*'] }, 'url'],
      [{ url: 'not a url', events: ['*'] }, 'url'],
      [{ url: `https://a.example/${'x'.repeat(3000)}`, events: ['*'] }, 'url'],
      [{ url: 'https://user:pw@93.184.215.14/', events: ['*'] }, 'url'],
      [{ url: URL_OK, events: ['chat.message.created'] }, 'events'], // a Form B name
      [{ url: URL_OK, events: ['*', 'member.joined'] }, 'events'],
      [{ url: URL_OK, events: [] }, 'events'],
      [{ url: URL_OK, events: 'member.joined' }, 'events'],
      [{ url: URL_OK, events: [42] }, 'events'],
      [{ url: URL_OK, events: ['x'.repeat(101)] }, 'events'],
      [{ url: URL_OK, events: ['*'], secret: 'short' }, 'secret'],
      [{ url: URL_OK, events: ['*'], active: 'yes' }, 'active'],
      [{ url: URL_OK, events: ['*'], format: 'B' }, 'format'],
      [{ events: ['*'] }, 'url'],
      [{ url: 12, events: ['*'] }, 'url'],
    ];
    for (const [payload, field] of bad) {
      const res = await t.request({ method: 'POST', url: base(w.ws), headers: w.owner.headers, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().code).toBe('bad_request:api');
      expect(Object.keys(res.json().details ?? {}).join(','), JSON.stringify(payload)).toContain(field);
    }
    const unicode = await t.request({
      method: 'POST',
      url: base(w.ws),
      headers: w.owner.headers,
      payload: { url: 'https://bücher.example/hoök?q=✓', events: ['*'] },
    });
    expect(unicode.statusCode, unicode.body).toBe(201);
    expect(unicode.json().data.url).toBe('https://xn--bcher-kva.example/ho%C3%B6k?q=%E2%9C%93');
  });

  it('PATCH changes a subset; validation and 404 on unknown ids', async () => {
    const { id } = await createHookA(t, w.ws, w.owner.headers, { url: URL_OK, events: ['*'] });
    const res = await t.request({
      method: 'PATCH',
      url: `${base(w.ws)}/${id}`,
      headers: w.owner.headers,
      payload: { events: ['ticket.created'], active: false },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ id, url: URL_OK, events: ['ticket.created'], active: false });
    const bad = await t.request({
      method: 'PATCH',
      url: `${base(w.ws)}/${id}`,
      headers: w.owner.headers,
      payload: { url: 'http://x.example' },
    });
    expect(bad.statusCode).toBe(400);
    const extra = await t.request({
      method: 'PATCH',
      url: `${base(w.ws)}/${id}`,
      headers: w.owner.headers,
      payload: { secret: 'x'.repeat(20) },
    });
    expect(extra.statusCode).toBe(400);
    // 404 wins over 400 for a missing webhook (docs/api.md "Order of checks").
    const missing = await t.request({
      method: 'PATCH',
      url: `${base(w.ws)}/whk_nope`,
      headers: w.owner.headers,
      payload: { url: 5 },
    });
    expect(missing.statusCode).toBe(404);
    const long = await t.request({
      method: 'GET',
      url: `${base(w.ws)}/${'x'.repeat(500)}`,
      headers: w.owner.headers,
    });
    expect([400, 404]).toContain(long.statusCode);
  });

  it('DELETE removes the webhook and its delivery history', async () => {
    const { id } = await createHookA(t, w.ws, w.owner.headers, { url: URL_OK, events: ['*'] });
    await emit(t, w.ws, 'member.joined', {});
    await dispatchEvents(t.ctx);
    expect(
      await t.ctx.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, id)),
    ).toHaveLength(1);
    const res = await t.request({ method: 'DELETE', url: `${base(w.ws)}/${id}`, headers: w.owner.headers });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(
      await t.ctx.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, id)),
    ).toHaveLength(0);
    const again = await t.request({ method: 'DELETE', url: `${base(w.ws)}/${id}`, headers: w.owner.headers });
    expect(again.statusCode).toBe(404);
  });

  it('deliveries: cursor pages newest first, tampered cursor 400, bad limit 400', async () => {
    const { id } = await createHookA(t, w.ws, w.owner.headers, { url: URL_OK, events: ['member.joined'] });
    for (let i = 0; i < 5; i++) {
      await emit(t, w.ws, 'member.joined', { i });
      await dispatchEvents(t.ctx);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const q: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const res = await t.request({
        method: 'GET',
        url: `${base(w.ws)}/${id}/deliveries?limit=2${q}`,
        headers: w.owner.headers,
      });
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json();
      expect(page.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.data.map((d: { id: string }) => d.id));
      expect(page.hasMore).toBe(page.nextCursor !== null);
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toHaveLength(5);
    expect([...seen].sort().reverse()).toEqual(seen); // ids are time-ordered: newest first
    const first = (
      await t.request({ method: 'GET', url: `${base(w.ws)}/${id}/deliveries`, headers: w.owner.headers })
    ).json().data[0];
    expect(first).toMatchObject({
      event: 'member.joined',
      status: 'pending',
      attempt: 0,
      statusCode: null,
      duration: null,
    });
    for (const q of ['cursor=abc.def', 'limit=0', 'limit=101', 'limit=x', 'unknown=1']) {
      const res = await t.request({
        method: 'GET',
        url: `${base(w.ws)}/${id}/deliveries?${q}`,
        headers: w.owner.headers,
      });
      expect(res.statusCode, q).toBe(400);
    }
  });

  it('retry: 404 for an unknown delivery, 409 while pending or when the webhook is inactive', async () => {
    const { id } = await createHookA(t, w.ws, w.owner.headers, { url: URL_OK, events: ['member.left'] });
    await emit(t, w.ws, 'member.left', {});
    await dispatchEvents(t.ctx);
    const [d] = await t.ctx.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, id));
    const url = `${base(w.ws)}/${id}/deliveries/${d!.id}/retry`;
    expect((await t.request({ method: 'POST', url, headers: w.owner.headers })).statusCode).toBe(409);
    const missing = await t.request({
      method: 'POST',
      url: `${base(w.ws)}/${id}/deliveries/dlv_nope/retry`,
      headers: w.owner.headers,
    });
    expect(missing.statusCode).toBe(404);
    // Deactivation ends pending deliveries as failed (docs/webhooks.md "Auto-disable"); retry then needs
    // re-activation.
    await t.request({
      method: 'PATCH',
      url: `${base(w.ws)}/${id}`,
      headers: w.owner.headers,
      payload: { active: false },
    });
    const [after] = await t.ctx.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, d!.id));
    expect(after!.status).toBe('failed');
    expect((await t.request({ method: 'POST', url, headers: w.owner.headers })).statusCode).toBe(409);
  });

  it('an inactive webhook gets no new deliveries', async () => {
    const { id } = await createHookA(t, w.ws, w.owner.headers, { url: URL_OK, events: ['*'], active: false });
    await emit(t, w.ws, 'member.joined', {});
    await dispatchEvents(t.ctx);
    expect(
      await t.ctx.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, id)),
    ).toHaveLength(0);
  });

  it('Form B webhooks are not visible through Form A', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/webhooks',
      headers: w.owner.headers,
      payload: { url: URL_OK, events: ['ticket.created'], workspaceId: w.ws },
    });
    expect(res.statusCode, res.body).toBe(201);
    const got = await t.request({
      method: 'GET',
      url: `${base(w.ws)}/${res.json().data.id}`,
      headers: w.owner.headers,
    });
    expect(got.statusCode).toBe(404);
  });
});
