import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assistants, memberships, workspaces } from '../../src/db/schema/index.ts';
import { newId } from '../../src/lib/ids.ts';
import { personalToken, signupUser } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { createWorld, type World } from '../support/world.ts';
import { cloneWorld, insertInvitation } from './helpers.ts';

let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await createTestApp();
  w = await createWorld(t);
});
afterAll(() => t.close());

const url = (ws: string) => `/api/workspaces/${ws}`;

describe('GET /api/workspaces/:workspaceId', () => {
  it('returns the workspace with memberCount, assistantCount, the caller role and the AI provider', async () => {
    const ws = await cloneWorld(t, w);
    await t.ctx.db.insert(assistants).values([
      { id: newId('asst'), workspaceId: ws, name: 'A' },
      { id: newId('asst'), workspaceId: ws, name: 'B' },
      { id: newId('asst'), workspaceId: w.otherWs, name: 'Elsewhere' },
    ]);
    const res = await t.request({ method: 'GET', url: url(ws), headers: await personalToken(t, w.guest) });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      id: ws,
      name: 'Acme',
      slug: expect.any(String),
      plan: 'pro',
      role: 'guest',
      createdAt: expect.any(String),
      trialEndsAt: expect.any(String),
      defaultLanguage: 'en',
      memberCount: 4,
      assistantCount: 2,
      // No AI_PROVIDER: the built-in offline responder answers, and the dashboard says so.
      aiProvider: 'offline',
    });
  });

  it('answers 404 for unknown, foreign and absurd ids alike', async () => {
    for (const id of ['ws_nope', w.otherWs, 'x'.repeat(150), '%F0%9F%9A%80', "ws'; drop table users;--"]) {
      const res = await t.request({
        method: 'GET',
        url: url(encodeURIComponent(decodeURIComponent(id))),
        headers: w.owner.headers,
      });
      expect(res.statusCode, id).toBe(404);
      expect(res.json().code).toBe('not_found:api');
    }
  });
});

describe('PATCH /api/workspaces/:workspaceId', () => {
  it('lets an admin rename and re-slug', async () => {
    const ws = await cloneWorld(t, w);
    const res = await t.request({
      method: 'PATCH',
      url: url(ws),
      headers: w.admin.headers,
      payload: { name: 'Renamed ✨', slug: `renamed-${ws.slice(-6)}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      name: 'Renamed ✨',
      slug: `renamed-${ws.slice(-6)}`,
      role: 'admin',
    });
    const [row] = await t.ctx.db.select().from(workspaces).where(eq(workspaces.id, ws));
    expect(row?.name).toBe('Renamed ✨');
  });

  it('accepts an empty patch as a no-op and keeps the slug when only the name changes', async () => {
    const ws = await cloneWorld(t, w);
    const before = (await t.request({ method: 'GET', url: url(ws), headers: w.owner.headers })).json().data;
    const res = await t.request({ method: 'PATCH', url: url(ws), headers: w.owner.headers, payload: {} });
    expect(res.json().data).toEqual(before);
    const named = await t.request({
      method: 'PATCH',
      url: url(ws),
      headers: w.owner.headers,
      payload: { name: 'N' },
    });
    expect(named.json().data).toMatchObject({ name: 'N', slug: before.slug });
  });

  it('409 for a slug another workspace has; its own slug is fine', async () => {
    const ws = await cloneWorld(t, w);
    const other = (
      await t.request({ method: 'GET', url: url(w.otherWs), headers: w.outsider.headers })
    ).json().data;
    const res = await t.request({
      method: 'PATCH',
      url: url(ws),
      headers: w.owner.headers,
      payload: { slug: other.slug },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('conflict:api');
    const mine = (await t.request({ method: 'GET', url: url(ws), headers: w.owner.headers })).json().data;
    const same = await t.request({
      method: 'PATCH',
      url: url(ws),
      headers: w.owner.headers,
      payload: { slug: mine.slug },
    });
    expect(same.statusCode).toBe(200);
  });

  it('400 for invalid and read-only fields', async () => {
    const ws = await cloneWorld(t, w);
    for (const payload of [
      { name: '' },
      { name: 'x'.repeat(101) },
      { slug: 'Bad Slug' },
      { slug: 5 },
      { plan: 'enterprise' },
      { id: 'ws_x' },
      { role: 'owner' },
      { trialEndsAt: null },
    ]) {
      const res = await t.request({ method: 'PATCH', url: url(ws), headers: w.owner.headers, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().code).toBe('bad_request:api');
    }
  });
});

describe('DELETE /api/workspaces/:workspaceId', () => {
  it('deletes the workspace and everything in it', async () => {
    const ws = await cloneWorld(t, w);
    await t.ctx.db.insert(assistants).values({ id: newId('asst'), workspaceId: ws, name: 'A' });
    await insertInvitation(t, ws, 'someone@example.com');
    const res = await t.request({ method: 'DELETE', url: url(ws), headers: await personalToken(t, w.owner) });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(await t.ctx.db.select().from(memberships).where(eq(memberships.workspaceId, ws))).toHaveLength(0);
    expect(await t.ctx.db.select().from(assistants).where(eq(assistants.workspaceId, ws))).toHaveLength(0);
    const again = await t.request({ method: 'GET', url: url(ws), headers: w.owner.headers });
    expect(again.statusCode).toBe(404);
  });

  it('frees the one-workspace allowance', async () => {
    const user = await signupUser(t);
    const created = await t.request({
      method: 'POST',
      url: '/api/workspaces',
      headers: user.headers,
      payload: { name: 'Mine' },
    });
    const id = created.json().data.id;
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/api/workspaces',
          headers: user.headers,
          payload: { name: 'Two' },
        })
      ).statusCode,
    ).toBe(403);
    expect((await t.request({ method: 'DELETE', url: url(id), headers: user.headers })).statusCode).toBe(204);
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/api/workspaces',
          headers: user.headers,
          payload: { name: 'Two' },
        })
      ).statusCode,
    ).toBe(201);
  });
});

describe('POST /api/workspaces/:workspaceId/transfer-ownership', () => {
  const transfer = (ws: string, headers: Record<string, string>, payload: unknown) =>
    t.request({ method: 'POST', url: `${url(ws)}/transfer-ownership`, headers, payload: payload as object });

  it('makes the target the owner and the previous owner an admin', async () => {
    const ws = await cloneWorld(t, w);
    const res = await transfer(ws, w.owner.headers, { userId: w.member.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ id: ws, role: 'admin' });
    const [row] = await t.ctx.db.select().from(workspaces).where(eq(workspaces.id, ws));
    expect(row?.ownerId).toBe(w.member.id);
    const members = (
      await t.request({ method: 'GET', url: `${url(ws)}/members`, headers: w.owner.headers })
    ).json().data;
    const roles = Object.fromEntries(
      members.map((m: { userId: string; role: string }) => [m.userId, m.role]),
    );
    expect(roles).toMatchObject({ [w.owner.id]: 'admin', [w.member.id]: 'owner', [w.admin.id]: 'admin' });
    // The new owner now holds the owner's powers, the old one does not.
    expect((await transfer(ws, w.owner.headers, { userId: w.owner.id })).statusCode).toBe(403);
    expect((await transfer(ws, w.member.headers, { userId: w.owner.id })).statusCode).toBe(200);
  });

  it('404 when the target is not a member (a user of another workspace or nobody)', async () => {
    const ws = await cloneWorld(t, w);
    for (const userId of [w.outsider.id, 'usr_nobody']) {
      const res = await transfer(ws, w.owner.headers, { userId });
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('not_found:api');
    }
  });

  it('400 for oneself and for bad bodies', async () => {
    const ws = await cloneWorld(t, w);
    expect((await transfer(ws, w.owner.headers, { userId: w.owner.id })).statusCode).toBe(400);
    for (const payload of [
      {},
      { userId: 5 },
      { userId: '' },
      { userId: 'x'.repeat(101) },
      { userId: w.admin.id, role: 'x' },
    ]) {
      const res = await transfer(ws, w.owner.headers, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
  });
});
