import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { personalToken, signupUser } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { eventsOf } from '../support/webhooks.ts';
import { addMember, createWorld, type World } from '../support/world.ts';
import { cloneWorld } from './helpers.ts';

let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await createTestApp();
  w = await createWorld(t);
});
afterAll(() => t.close());

const members = (ws: string) => `/api/workspaces/${ws}/members`;
const patchRole = (ws: string, userId: string, headers: Record<string, string>, payload: unknown) =>
  t.request({ method: 'PATCH', url: `${members(ws)}/${userId}`, headers, payload: payload as object });
const remove = (ws: string, userId: string, headers: Record<string, string>) =>
  t.request({ method: 'DELETE', url: `${members(ws)}/${userId}`, headers });

describe('GET /api/workspaces/:workspaceId/members', () => {
  it('lists members with user fields, oldest first, offset paged; a guest may view', async () => {
    const res = await t.request({ method: 'GET', url: `${members(w.ws)}?limit=2`, headers: w.guest.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ total: 4, limit: 2, offset: 0 });
    expect(res.json().data[0]).toEqual({
      userId: w.owner.id,
      name: 'Owner',
      email: w.owner.email,
      role: 'owner',
      joinedAt: expect.any(String),
      availability: 'offline',
    });
    const rest = await t.request({
      method: 'GET',
      url: `${members(w.ws)}?offset=2`,
      headers: w.guest.headers,
    });
    expect(rest.json().data.map((m: { userId: string }) => m.userId)).toEqual([w.member.id, w.guest.id]);
    expect(
      (await t.request({ method: 'GET', url: `${members(w.ws)}?limit=500`, headers: w.guest.headers }))
        .statusCode,
    ).toBe(400);
  });
});

describe('PATCH /api/workspaces/:workspaceId/members/:userId', () => {
  it('lets an admin change member, guest and admin roles', async () => {
    const ws = await cloneWorld(t, w);
    const other = await signupUser(t);
    await addMember(t, ws, other, 'admin');
    const toGuest = await patchRole(ws, w.member.id, w.admin.headers, { role: 'guest' });
    expect(toGuest.statusCode, toGuest.body).toBe(200);
    expect(toGuest.json().data).toMatchObject({ userId: w.member.id, role: 'guest', email: w.member.email });
    expect((await patchRole(ws, w.guest.id, w.admin.headers, { role: 'admin' })).json().data.role).toBe(
      'admin',
    );
    expect((await patchRole(ws, other.id, w.admin.headers, { role: 'member' })).json().data.role).toBe(
      'member',
    );
    // Idempotent: setting the current role again is fine.
    expect(
      (await patchRole(ws, other.id, await personalToken(t, w.owner), { role: 'member' })).statusCode,
    ).toBe(200);
  });

  it('never assigns owner (400) and keeps the owner untouchable (admin 403, owner 400)', async () => {
    const ws = await cloneWorld(t, w);
    const owner = await patchRole(ws, w.member.id, w.owner.headers, { role: 'owner' });
    expect(owner.statusCode).toBe(400);
    expect(owner.json().details.role).toMatch(/transfer-ownership/);
    const byAdmin = await patchRole(ws, w.owner.id, w.admin.headers, { role: 'member' });
    expect(byAdmin.statusCode).toBe(403);
    expect(byAdmin.json().code).toBe('forbidden:api');
    const self = await patchRole(ws, w.owner.id, w.owner.headers, { role: 'admin' });
    expect(self.statusCode).toBe(400);
    expect(self.json().error).toMatch(/transfer ownership/i);
  });

  it('404 for a non-member (even with an invalid body), 400 for bad bodies', async () => {
    const ws = await cloneWorld(t, w);
    for (const payload of [{ role: 'member' }, { role: 'nope' }, {}]) {
      const res = await patchRole(ws, w.outsider.id, w.owner.headers, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(404);
    }
    for (const payload of [
      {},
      { role: 'superuser' },
      { role: 1 },
      { role: 'member', name: 'x' },
      { role: 'ADMIN' },
    ]) {
      const res = await patchRole(ws, w.member.id, w.owner.headers, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().code).toBe('bad_request:api');
    }
  });

  it('members and guests cannot change roles (403)', async () => {
    const ws = await cloneWorld(t, w);
    expect((await patchRole(ws, w.guest.id, w.member.headers, { role: 'admin' })).statusCode).toBe(403);
    expect((await patchRole(ws, w.guest.id, w.guest.headers, { role: 'admin' })).statusCode).toBe(403);
  });
});

describe('DELETE /api/workspaces/:workspaceId/members/:userId', () => {
  it('an admin removes a member: 204 and member.left in the outbox', async () => {
    const ws = await cloneWorld(t, w);
    const res = await remove(ws, w.member.id, w.admin.headers);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    const events = await eventsOf(t, ws, 'member.left');
    expect(events.map((e) => e.data)).toEqual([{ userId: w.member.id, workspaceId: ws, role: 'member' }]);
    expect(
      (await t.request({ method: 'GET', url: `/api/workspaces/${ws}`, headers: w.member.headers }))
        .statusCode,
    ).toBe(404);
  });

  it('any member may leave; a guest leaves by its own id', async () => {
    const ws = await cloneWorld(t, w);
    expect((await remove(ws, w.guest.id, w.guest.headers)).statusCode).toBe(204);
    expect((await remove(ws, w.admin.id, await personalToken(t, w.admin))).statusCode).toBe(204);
    const events = await eventsOf(t, ws, 'member.left');
    expect(events.map((e) => e.data.role).sort()).toEqual(['admin', 'guest']);
  });

  it('the owner cannot leave (409) nor be removed (403); nothing is recorded', async () => {
    const ws = await cloneWorld(t, w);
    const leave = await remove(ws, w.owner.id, w.owner.headers);
    expect(leave.statusCode).toBe(409);
    expect(leave.json().error).toMatch(/transfer ownership/i);
    expect((await remove(ws, w.owner.id, w.admin.headers)).statusCode).toBe(403);
    expect((await remove(ws, w.owner.id, w.member.headers)).statusCode).toBe(403);
    expect(await eventsOf(t, ws, 'member.left')).toHaveLength(0);
  });

  it('members and guests cannot remove others (403); unknown users are 404 for admins', async () => {
    const ws = await cloneWorld(t, w);
    expect((await remove(ws, w.guest.id, w.member.headers)).statusCode).toBe(403);
    expect((await remove(ws, w.member.id, w.guest.headers)).statusCode).toBe(403);
    expect((await remove(ws, w.outsider.id, w.admin.headers)).statusCode).toBe(404);
    expect((await remove(ws, 'usr_nobody', w.owner.headers)).statusCode).toBe(404);
    expect((await remove(ws, 'x'.repeat(150), w.owner.headers)).statusCode).toBe(400);
    expect(await eventsOf(t, ws, 'member.left')).toHaveLength(0);
  });
});

describe('PUT /api/workspaces/:workspaceId/members/me/availability', () => {
  const put = (headers: Record<string, string>, payload: unknown, ws = w.ws) =>
    t.request({
      method: 'PUT',
      url: `${members(ws)}/me/availability`,
      headers,
      payload: payload as Record<string, unknown>,
    });
  const listed = async (userId: string) =>
    (await t.request({ method: 'GET', url: members(w.ws), headers: w.owner.headers }))
      .json()
      .data.find((m: { userId: string }) => m.userId === userId)?.availability;

  it('sets your own availability, shown on the members list; only yours, only in that workspace', async () => {
    const r = await put(w.member.headers, { status: 'online' });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toEqual({ data: { status: 'online' } });
    expect(await listed(w.member.id)).toBe('online');
    expect(await listed(w.admin.id)).toBe('offline');
    expect((await put(w.member.headers, { status: 'busy' })).json().data.status).toBe('busy');
    expect(await listed(w.member.id)).toBe('busy');
  });

  it('a guest answers nothing: 403; bad bodies: 400 naming status; another workspace: 404', async () => {
    expect((await put(w.guest.headers, { status: 'online' })).statusCode).toBe(403);
    for (const bad of [{ status: 'away' }, { status: 1 }, {}, { status: 'online', extra: true }]) {
      const r = await put(w.member.headers, bad);
      expect(r.statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect((await put(w.member.headers, { status: 'ONLINE' })).json().details).toHaveProperty('status');
    expect((await put(w.member.headers, { status: 'online' }, w.otherWs)).statusCode).toBe(404);
  });
});
