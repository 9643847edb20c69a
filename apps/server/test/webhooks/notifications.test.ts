import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifications } from '../../src/db/schema/index.ts';
import { newId } from '../../src/lib/ids.ts';
import type { TestUser } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { securitySuite } from '../support/security.ts';
import { createWorld, type World } from '../support/world.ts';

let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await createTestApp();
  w = await createWorld(t);
});
afterAll(async () => {
  await t?.close();
});

let seq = 0;
const notify = async (user: TestUser, ws: string | null = null) => {
  const id = newId('ntf');
  await t.ctx.db.insert(notifications).values({
    id,
    userId: user.id,
    workspaceId: ws,
    type: 'webhook.disabled',
    title: `Notice ${++seq}`,
    body: 'Body ✓',
    createdAt: new Date(Date.now() + seq),
  });
  return id;
};

securitySuite(() => t, {
  name: 'GET /api/notifications',
  auth: 'session',
  noWorkspace: true,
  request: () => ({ method: 'GET', url: '/api/notifications' }),
});
securitySuite(() => t, {
  name: 'POST /api/notifications/read-all',
  auth: 'session',
  noWorkspace: true,
  request: () => ({ method: 'POST', url: '/api/notifications/read-all' }),
});
securitySuite(() => t, {
  name: 'POST /api/notifications/:id/read',
  auth: 'session',
  noWorkspace: true,
  prepare: async (_t, world) => ({ id: await notify(world.owner, world.ws) }),
  request: (_ws, x) => ({ method: 'POST', url: `/api/notifications/${x.id}/read` }),
});

describe('notifications (docs/accounts.md)', () => {
  it('lists own notifications newest first with cursor pages; read and read-all', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(await notify(w.member, w.ws));
    await notify(w.guest, w.ws); // someone else's
    const first = await t.request({
      method: 'GET',
      url: '/api/notifications?limit=2',
      headers: w.member.headers,
    });
    expect(first.statusCode).toBe(200);
    const page = first.json();
    expect(page.data.map((n: { id: string }) => n.id)).toEqual([ids[2], ids[1]]);
    expect(page.hasMore).toBe(true);
    expect(page.data[0]).toMatchObject({
      type: 'webhook.disabled',
      body: 'Body ✓',
      workspaceId: w.ws,
      readAt: null,
    });
    const second = await t.request({
      method: 'GET',
      url: `/api/notifications?limit=2&cursor=${encodeURIComponent(page.nextCursor)}`,
      headers: w.member.headers,
    });
    expect(second.json()).toMatchObject({ hasMore: false, nextCursor: null });
    expect(second.json().data.map((n: { id: string }) => n.id)).toEqual([ids[0]]);

    const read = await t.request({
      method: 'POST',
      url: `/api/notifications/${ids[0]}/read`,
      headers: w.member.headers,
    });
    expect(read.statusCode).toBe(200);
    expect(read.json().data.readAt).toMatch(/Z$/);
    const all = await t.request({
      method: 'POST',
      url: '/api/notifications/read-all',
      headers: w.member.headers,
    });
    expect(all.statusCode).toBe(204);
    const after = await t.request({ method: 'GET', url: '/api/notifications', headers: w.member.headers });
    expect(after.json().data.every((n: { readAt: string | null }) => n.readAt !== null)).toBe(true);
    const guest = await t.request({ method: 'GET', url: '/api/notifications', headers: w.guest.headers });
    expect(guest.json().data[0].readAt).toBeNull();
  });

  it("404 for someone else's or an unknown notification; 400 for bad queries", async () => {
    const theirs = await notify(w.guest);
    expect(
      (
        await t.request({
          method: 'POST',
          url: `/api/notifications/${theirs}/read`,
          headers: w.member.headers,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/api/notifications/ntf_nope/read',
          headers: w.member.headers,
        })
      ).statusCode,
    ).toBe(404);
    // Over the router's parameter bound: no such route.
    expect(
      (
        await t.request({
          method: 'POST',
          url: `/api/notifications/${'x'.repeat(300)}/read`,
          headers: w.member.headers,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await t.request({
          method: 'POST',
          url: `/api/notifications/${'x'.repeat(150)}/read`,
          headers: w.member.headers,
        })
      ).statusCode,
    ).toBe(400);
    for (const q of ['limit=0', 'limit=500', 'cursor=forged.sig', 'other=1']) {
      expect(
        (await t.request({ method: 'GET', url: `/api/notifications?${q}`, headers: w.member.headers }))
          .statusCode,
        q,
      ).toBe(400);
    }
  });
});
