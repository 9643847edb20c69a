import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signupUser } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { securitySuite } from '../support/security.ts';
import { expectNothingStored } from '../support/stored-rows.ts';
import { createHookB } from '../support/webhooks.ts';
import { createWorld, insertWorkspace, ownerOf, personalToken, type World } from '../support/world.ts';

let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false' });
  w = await createWorld(t);
});
afterAll(async () => {
  await t?.close();
});

const URL_OK = 'https://93.184.215.14/b';
const newHook = async (t: TestApp, world: World, ws: string) => {
  const { id } = await createHookB(t, ownerOf(world, ws).headers, {
    url: URL_OK,
    events: ['ticket.created'],
    workspaceId: ws,
  });
  return { webhookId: id };
};
const common = { auth: 'user', minRole: 'admin' } as const;

securitySuite(() => t, {
  ...common,
  name: 'POST /api/webhooks',
  request: (ws) => ({
    method: 'POST',
    url: '/api/webhooks',
    payload: { url: URL_OK, events: ['*'], workspaceId: ws },
  }),
});
securitySuite(() => t, {
  ...common,
  name: 'GET /api/webhooks',
  request: (ws) => ({ method: 'GET', url: `/api/webhooks?workspaceId=${ws}` }),
});
securitySuite(() => t, {
  ...common,
  name: 'PATCH /api/webhooks/:id',
  prepare: newHook,
  request: (_ws, x) => ({ method: 'PATCH', url: `/api/webhooks/${x.webhookId}`, payload: { active: false } }),
});
securitySuite(() => t, {
  ...common,
  name: 'DELETE /api/webhooks/:id',
  prepare: newHook,
  request: (_ws, x) => ({ method: 'DELETE', url: `/api/webhooks/${x.webhookId}` }),
});

describe('Form B webhooks', () => {
  it('create, list, patch, delete with a personal token', async () => {
    const pat = await personalToken(t, w.admin);
    const created = await t.request({
      method: 'POST',
      url: '/api/webhooks',
      headers: pat,
      payload: {
        url: URL_OK,
        events: ['chat.message.created', 'lead.captured'],
        active: true,
        workspaceId: w.ws,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const hook = created.json().data;
    expect(hook).toMatchObject({
      url: URL_OK,
      events: ['chat.message.created', 'lead.captured'],
      active: true,
      workspaceId: w.ws,
    });
    expect(hook.secret).toMatch(/^whsec_/);
    const list = await t.request({ method: 'GET', url: `/api/webhooks?workspaceId=${w.ws}`, headers: pat });
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((h: { id: string }) => h.id)).toContain(hook.id);
    expect(list.body).not.toContain('whsec_');
    const patched = await t.request({
      method: 'PATCH',
      url: `/api/webhooks/${hook.id}`,
      headers: pat,
      payload: { active: false },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().data.active).toBe(false);
    const del = await t.request({ method: 'DELETE', url: `/api/webhooks/${hook.id}`, headers: pat });
    expect(del.statusCode).toBe(204);
    const again = await t.request({
      method: 'PATCH',
      url: `/api/webhooks/${hook.id}`,
      headers: pat,
      payload: { active: true },
    });
    expect(again.statusCode).toBe(404);
  });

  it('workspaceId may be omitted by a caller with exactly one workspace; required otherwise', async () => {
    const solo = await signupUser(t, { name: 'Solo' });
    const ws = await insertWorkspace(t, solo);
    const res = await t.request({
      method: 'POST',
      url: '/api/webhooks',
      headers: solo.headers,
      payload: { url: URL_OK, events: ['*'] },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.workspaceId).toBe(ws);
    const list = await t.request({ method: 'GET', url: '/api/webhooks', headers: solo.headers });
    expect(list.json().total).toBe(1);
    await insertWorkspace(t, solo, { name: 'Second' });
    const ambiguous = await t.request({ method: 'GET', url: '/api/webhooks', headers: solo.headers });
    expect(ambiguous.statusCode).toBe(400);
    expect(ambiguous.json().details.workspaceId).toBeDefined();
  });

  it('validation: B vocabulary, https, unknown fields, hostile input', async () => {
    const cases: Record<string, unknown>[] = [
      { url: URL_OK, events: ['member.joined'], workspaceId: w.ws }, // a Form A-only name
      { url: URL_OK, events: ['message.created'], workspaceId: w.ws },
      { url: 'http://93.184.215.14/', events: ['*'], workspaceId: w.ws },
      { url: URL_OK, events: ['*'], workspaceId: w.ws, extra: 1 },
      { url: URL_OK, events: [null], workspaceId: w.ws },
      { url: 'https://\u0000evil/', events: ['*'], workspaceId: w.ws },
    ];
    for (const payload of cases) {
      const res = await expectNothingStored(
        t,
        () => t.request({ method: 'POST', url: '/api/webhooks', headers: w.owner.headers, payload }),
        JSON.stringify(payload),
      );
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().code).toBe('bad_request:api');
    }
    const { id } = await createHookB(t, w.owner.headers, {
      url: URL_OK,
      events: ['contact.created'],
      workspaceId: w.ws,
    });
    const bad = await expectNothingStored(t, () =>
      t.request({
        method: 'PATCH',
        url: `/api/webhooks/${id}`,
        headers: w.owner.headers,
        payload: { events: ['ticket.resolved'] },
      }),
    );
    expect(bad.statusCode).toBe(400);
    const notFound = await expectNothingStored(t, () =>
      t.request({
        method: 'PATCH',
        url: `/api/webhooks/${'z'.repeat(300)}`,
        headers: w.owner.headers,
        payload: {},
      }),
    );
    expect(notFound.statusCode).toBe(404);
  });

  it('Form A webhooks are not managed through Form B', async () => {
    const res = await t.request({
      method: 'POST',
      url: `/api/workspaces/${w.ws}/webhooks`,
      headers: w.owner.headers,
      payload: { url: URL_OK, events: ['*'] },
    });
    const id = res.json().data.id;
    const patch = await t.request({
      method: 'PATCH',
      url: `/api/webhooks/${id}`,
      headers: w.owner.headers,
      payload: { active: false },
    });
    expect(patch.statusCode).toBe(404);
    const list = await t.request({
      method: 'GET',
      url: `/api/webhooks?workspaceId=${w.ws}`,
      headers: w.owner.headers,
    });
    expect(list.json().data.map((h: { id: string }) => h.id)).not.toContain(id);
  });
});
