import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setClockOffset } from '../../src/lib/clock.ts';
import { personalToken, signupUser } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { addMember, insertWorkspace, setPlan } from '../support/world.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
afterEach(() => setClockOffset(0));

const create = (headers: Record<string, string>, payload: unknown) =>
  t.request({ method: 'POST', url: '/api/workspaces', headers, payload: payload as object });

describe('POST /api/workspaces', () => {
  it('creates a 14-day Pro trial owned by the caller (personal access token)', async () => {
    const u = await signupUser(t);
    const res = await create(await personalToken(t, u), { name: 'Acme Support' });
    expect(res.statusCode, res.body).toBe(201);
    const ws = res.json().data;
    expect(ws).toMatchObject({
      name: 'Acme Support',
      slug: 'acme-support',
      plan: 'pro',
      role: 'owner',
      memberCount: 1,
      assistantCount: 0,
    });
    expect(ws.id).toMatch(/^ws_[0-9a-z]{26}$/);
    const days = (new Date(ws.trialEndsAt).getTime() - new Date(ws.createdAt).getTime()) / 86_400_000;
    expect(days).toBe(14);
    const members = await t.request({
      method: 'GET',
      url: `/api/workspaces/${ws.id}/members`,
      headers: u.headers,
    });
    expect(members.json().data).toEqual([expect.objectContaining({ userId: u.id, role: 'owner' })]);
  });

  it('folds unicode names to an ASCII slug and falls back to a random one', async () => {
    const a = await signupUser(t);
    const res = await create(a.headers, { name: 'Café Zürich — Straße' });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.slug).toBe('cafe-zurich-strasse');
    const b = await signupUser(t);
    const cjk = await create(b.headers, { name: '日本語サポート 🚀' });
    expect(cjk.statusCode).toBe(201);
    expect(cjk.json().data.name).toBe('日本語サポート 🚀');
    expect(cjk.json().data.slug).toMatch(/^ws-[a-z0-9]{8}$/);
  });

  it('suffixes a generated slug on collision and cuts long names to 48 characters', async () => {
    const slugs: string[] = [];
    for (let i = 0; i < 3; i++) {
      const u = await signupUser(t);
      const res = await create(u.headers, { name: 'Collide Co' });
      expect(res.statusCode).toBe(201);
      slugs.push(res.json().data.slug);
    }
    expect(slugs).toEqual(['collide-co', 'collide-co-2', 'collide-co-3']);
    const u = await signupUser(t);
    const long = await create(u.headers, { name: `${'Long name '.repeat(9)}!` });
    expect(long.json().data.slug.length).toBeLessThanOrEqual(48);
    expect(long.json().data.slug).toMatch(/^[a-z0-9](-?[a-z0-9])*$/);
  });

  it('takes a valid explicit slug; a taken one is 409 conflict:api', async () => {
    const a = await signupUser(t);
    const res = await create(a.headers, { name: 'Mine', slug: 'my-team-1' });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.slug).toBe('my-team-1');
    const b = await signupUser(t);
    const dup = await create(b.headers, { name: 'Other', slug: 'my-team-1' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({ code: 'conflict:api', details: { slug: expect.any(String) } });
    // The refused creation left nothing behind: b can still create.
    expect((await create(b.headers, { name: 'Other' })).statusCode).toBe(201);
  });

  it.each([
    ['uppercase', 'Acme'],
    ['leading dash', '-acme'],
    ['trailing dash', 'acme-'],
    ['double dash', 'ac--me'],
    ['underscore', 'ac_me'],
    ['unicode', 'café'],
    ['too long', 'a'.repeat(49)],
    ['empty', ''],
    ['wrong type', 42],
  ])('rejects an invalid explicit slug (%s) with 400', async (_, slug) => {
    const u = await signupUser(t);
    const res = await create(u.headers, { name: 'X', slug });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'bad_request:api', details: { slug: expect.any(String) } });
  });

  it('accepts a 48-character slug', async () => {
    const u = await signupUser(t);
    const res = await create(u.headers, { name: 'X', slug: 'a'.repeat(48) });
    expect(res.statusCode).toBe(201);
  });

  it('rejects bad bodies: missing, wrong types, unknown fields, huge and control characters', async () => {
    const u = await signupUser(t);
    for (const payload of [
      {},
      { name: '' },
      { name: '   ' },
      { name: 7 },
      { name: ['a'] },
      { name: 'x'.repeat(101) },
      { name: 'x'.repeat(100_000) },
      { name: 'nul\u0000byte' },
      { name: 'Ok', plan: 'enterprise' },
      { name: 'Ok', ownerId: 'usr_x' },
    ]) {
      const res = await create(u.headers, payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(res.json().code).toBe('bad_request:api');
    }
    const unknown = await create(u.headers, { name: 'Ok', plan: 'enterprise' });
    expect(unknown.json().details).toEqual({ plan: 'Unknown field' });
    const raw = await t.request({
      method: 'POST',
      url: '/api/workspaces',
      headers: { ...u.headers, 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(raw.statusCode).toBe(400);
  });

  it('enforces one owned workspace: a second is 403 plan_upgrade_required', async () => {
    const u = await signupUser(t);
    expect((await create(u.headers, { name: 'First' })).statusCode).toBe(201);
    const second = await create(u.headers, { name: 'Second' });
    expect(second.statusCode).toBe(403);
    expect(second.json().code).toBe('plan_upgrade_required');
  });

  it('counts only owned workspaces: membership elsewhere does not block', async () => {
    const owner = await signupUser(t);
    const u = await signupUser(t);
    const ws = await insertWorkspace(t, owner);
    await addMember(t, ws, u, 'admin');
    expect((await create(u.headers, { name: 'Own' })).statusCode).toBe(201);
  });

  it('allows more workspaces when one the user owns is on Enterprise', async () => {
    const u = await signupUser(t);
    const ws = await insertWorkspace(t, u);
    await setPlan(t, ws, 'enterprise');
    expect((await create(u.headers, { name: 'Second' })).statusCode).toBe(201);
    expect((await create(u.headers, { name: 'Third' })).statusCode).toBe(201);
  });

  it('holds the one-workspace rule under 20 concurrent creations by one user', async () => {
    const u = await signupUser(t);
    const headers = await personalToken(t, u);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => create(headers, { name: `Race ${i}` })),
    );
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 201)).toHaveLength(1);
    expect(codes.filter((c) => c === 403)).toHaveLength(19);
    for (const r of results.filter((x) => x.statusCode === 403)) {
      expect(r.json().code).toBe('plan_upgrade_required');
    }
    const list = await t.request({ method: 'GET', url: '/api/workspaces', headers });
    expect(list.json().total).toBe(1);
  });
});

describe('GET /api/workspaces', () => {
  it("lists the caller's workspaces with role and effective plan, offset paged", async () => {
    const u = await signupUser(t);
    const other = await signupUser(t);
    const own = (await create(u.headers, { name: 'Own' })).json().data;
    const ids = [own.id];
    for (let i = 0; i < 3; i++) {
      const ws = await insertWorkspace(t, other, { name: `Joined ${i}` });
      await addMember(t, ws, u, i === 0 ? 'guest' : 'member');
      ids.push(ws);
    }
    await insertWorkspace(t, other, { name: 'Not mine' });
    const page = await t.request({
      method: 'GET',
      url: '/api/workspaces?limit=2&offset=1',
      headers: u.headers,
    });
    expect(page.statusCode).toBe(200);
    expect(page.json()).toMatchObject({ total: 4, limit: 2, offset: 1 });
    expect(page.json().data.map((w: { id: string }) => w.id)).toEqual(ids.slice(1, 3));
    expect(page.json().data[0]).toEqual({
      id: ids[1],
      name: 'Joined 0',
      slug: expect.any(String),
      plan: 'pro',
      role: 'guest',
      createdAt: expect.any(String),
      trialEndsAt: expect.any(String),
      defaultLanguage: 'en',
    });
    const past = await t.request({ method: 'GET', url: '/api/workspaces?offset=10', headers: u.headers });
    expect(past.json()).toMatchObject({ data: [], total: 4, limit: 25, offset: 10 });
  });

  it('shows free once the trial has ended', async () => {
    const u = await signupUser(t);
    await create(u.headers, { name: 'Trial' });
    setClockOffset(15 * 86_400_000);
    const res = await t.request({ method: 'GET', url: '/api/workspaces', headers: u.headers });
    expect(res.json().data[0].plan).toBe('free');
  });

  it('validates limit and offset', async () => {
    const u = await signupUser(t);
    for (const q of ['limit=0', 'limit=101', 'offset=-1', 'limit=abc', 'limit=1.5']) {
      const res = await t.request({ method: 'GET', url: `/api/workspaces?${q}`, headers: u.headers });
      expect(res.statusCode, q).toBe(400);
    }
  });
});
