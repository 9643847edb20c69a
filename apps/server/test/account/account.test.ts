import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema/index.ts';
import { personalToken, signupUser } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { securitySuite } from '../support/security.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const patch = (headers: Record<string, string>, payload: unknown) =>
  t.request({ method: 'PATCH', url: '/api/account', headers, payload: payload as object });

describe('GET /api/account', () => {
  it('returns the signed-in user in the auth user shape', async () => {
    const u = await signupUser(t, { name: 'Ada' });
    const res = await t.request({ method: 'GET', url: '/api/account', headers: u.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      id: u.id,
      name: 'Ada',
      email: u.email,
      avatarUrl: null,
      hasPassword: true,
      preferences: { theme: 'system', keyboardShortcuts: true },
      language: null,
      createdAt: expect.any(String),
    });
  });

  it('refuses a personal access token (session surface) with 401', async () => {
    const u = await signupUser(t);
    const res = await t.request({ method: 'GET', url: '/api/account', headers: await personalToken(t, u) });
    expect(res.statusCode).toBe(401);
  });
});

describe('PATCH /api/account', () => {
  it('updates name and avatar, merges preferences partially', async () => {
    const u = await signupUser(t);
    const res = await patch(u.headers, {
      name: '  Grace Hopper ',
      avatarUrl: 'https://cdn.example.com/a.png',
      preferences: { theme: 'dark' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      name: 'Grace Hopper',
      avatarUrl: 'https://cdn.example.com/a.png',
      preferences: { theme: 'dark', keyboardShortcuts: true },
    });
    const second = await patch(u.headers, { preferences: { keyboardShortcuts: false }, avatarUrl: null });
    expect(second.json().data).toMatchObject({
      name: 'Grace Hopper',
      avatarUrl: null,
      preferences: { theme: 'dark', keyboardShortcuts: false },
    });
    const read = await t.request({ method: 'GET', url: '/api/account', headers: u.headers });
    expect(read.json().data).toEqual(second.json().data);
  });

  it('accepts an empty body and unicode names', async () => {
    const u = await signupUser(t);
    expect((await patch(u.headers, {})).statusCode).toBe(200);
    const res = await patch(u.headers, { name: 'Zoë 李 🚀' });
    expect(res.json().data.name).toBe('Zoë 李 🚀');
  });

  it('refuses an email change: changed through support', async () => {
    const u = await signupUser(t);
    const res = await patch(u.headers, { email: 'new@example.com', name: 'X' });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('bad_request:api');
    expect(res.json().details.email).toMatch(/changed through support/);
    const [row] = await t.ctx.db.select().from(users).where(eq(users.id, u.id));
    expect(row?.email).toBe(u.email);
    expect(row?.name).toBe('Test User');
  });

  it('validates every field and refuses read-only and unknown ones', async () => {
    const u = await signupUser(t);
    const cases: [unknown, string][] = [
      [{ name: '' }, 'name'],
      [{ name: 'x'.repeat(101) }, 'name'],
      [{ name: 5 }, 'name'],
      [{ avatarUrl: 'http://insecure.example.com/a.png' }, 'avatarUrl'],
      [{ avatarUrl: 'javascript:alert(1)' }, 'avatarUrl'],
      [{ avatarUrl: `https://e.com/${'a'.repeat(2100)}` }, 'avatarUrl'],
      [{ avatarUrl: 'https://user:pw@e.com/a.png' }, 'avatarUrl'],
      [{ preferences: { theme: 'neon' } }, 'preferences.theme'],
      [{ preferences: { keyboardShortcuts: 'yes' } }, 'preferences.keyboardShortcuts'],
      [{ preferences: { fontSize: 3 } }, 'preferences.fontSize'],
      [{ preferences: null }, 'preferences'],
      [{ hasPassword: false }, 'hasPassword'],
      [{ id: 'usr_x' }, 'id'],
      [{ passwordHash: 'x' }, 'passwordHash'],
    ];
    for (const [payload, field] of cases) {
      const res = await patch(u.headers, payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(res.json().details, JSON.stringify(payload).slice(0, 80)).toHaveProperty([field]);
    }
    const bodies = ['[]', '"x"', 'null', '{"name":'];
    for (const payload of bodies) {
      const res = await t.request({
        method: 'PATCH',
        url: '/api/account',
        headers: { ...u.headers, 'content-type': 'application/json' },
        payload,
      });
      expect(res.statusCode, payload).toBe(400);
    }
  });
});

describe('POST /api/account/password', () => {
  const change = (headers: Record<string, string>, payload: unknown) =>
    t.request({ method: 'POST', url: '/api/account/password', headers, payload: payload as object });

  it('changes the password, signs out other sessions and keeps this one', async () => {
    const u = await signupUser(t);
    const other = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: u.email, password: u.password },
    });
    const otherCookie = { cookie: `parley.session-token=${other.cookies[0]?.value}` };
    const pat = await personalToken(t, u);
    const res = await change(u.headers, { currentPassword: u.password, newPassword: 'a brand new secret' });
    expect(res.statusCode, res.body).toBe(204);
    expect(res.body).toBe('');
    expect((await t.request({ method: 'GET', url: '/api/account', headers: u.headers })).statusCode).toBe(
      200,
    );
    expect((await t.request({ method: 'GET', url: '/api/account', headers: otherCookie })).statusCode).toBe(
      401,
    );
    // Personal tokens are managed one by one; a password change leaves them.
    expect((await t.request({ method: 'GET', url: '/api/workspaces', headers: pat })).statusCode).not.toBe(
      401,
    );
    const oldLogin = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: u.email, password: u.password },
    });
    expect(oldLogin.statusCode).toBe(401);
    const newLogin = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: u.email, password: 'a brand new secret' },
    });
    expect(newLogin.statusCode).toBe(200);
  });

  it('400 for a wrong current password, and nothing changes', async () => {
    const u = await signupUser(t);
    const res = await change(u.headers, {
      currentPassword: 'not my password',
      newPassword: 'another long one',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'bad_request:api',
      details: { currentPassword: expect.any(String) },
    });
    const login = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: u.email, password: u.password },
    });
    expect(login.statusCode).toBe(200);
  });

  it('400 for an account without a password (identity provider)', async () => {
    const u = await signupUser(t);
    await t.ctx.db.update(users).set({ passwordHash: null }).where(eq(users.id, u.id));
    const res = await change(u.headers, { currentPassword: u.password, newPassword: 'another long one' });
    expect(res.statusCode).toBe(400);
    expect(res.json().details.currentPassword).toMatch(/no password/);
    const me = await t.request({ method: 'GET', url: '/api/account', headers: u.headers });
    expect(me.json().data.hasPassword).toBe(false);
  });

  it('validates the body', async () => {
    const u = await signupUser(t);
    const cases: [unknown, string][] = [
      [{ currentPassword: u.password, newPassword: 'short' }, 'newPassword'],
      [{ currentPassword: u.password, newPassword: 'x'.repeat(257) }, 'newPassword'],
      [{ currentPassword: u.password }, 'newPassword'],
      [{ newPassword: 'long enough pw' }, 'currentPassword'],
      [{ currentPassword: 1, newPassword: 'long enough pw' }, 'currentPassword'],
      [{ currentPassword: u.password, newPassword: 'long enough pw', userId: 'usr_x' }, 'userId'],
    ];
    for (const [payload, field] of cases) {
      const res = await change(u.headers, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().details).toHaveProperty([field]);
    }
  });

  it('limits wrong current-password guesses (429 with Retry-After)', async () => {
    const u = await signupUser(t);
    for (let i = 0; i < 10; i++) {
      const res = await change(u.headers, {
        currentPassword: `guess number ${i}`,
        newPassword: 'long enough pw',
      });
      expect(res.statusCode).toBe(400);
    }
    const res = await change(u.headers, { currentPassword: u.password, newPassword: 'long enough pw' });
    expect(res.statusCode).toBe(429);
    expect(res.json().code).toBe('rate_limit:api');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });
});

securitySuite(() => t, {
  name: 'GET /api/account',
  auth: 'session',
  noWorkspace: true,
  request: () => ({ method: 'GET', url: '/api/account' }),
});
securitySuite(() => t, {
  name: 'PATCH /api/account',
  auth: 'session',
  noWorkspace: true,
  request: () => ({ method: 'PATCH', url: '/api/account', payload: { name: 'Renamed' } }),
});
securitySuite(() => t, {
  name: 'POST /api/account/password',
  auth: 'session',
  noWorkspace: true,
  request: () => ({
    method: 'POST',
    url: '/api/account/password',
    payload: { currentPassword: 'correct horse battery', newPassword: 'a new long password' },
  }),
});
