import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signupUser, uniqueEmail } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('signup', () => {
  it('creates the user, sets an HttpOnly SameSite=Lax cookie and returns the user', async () => {
    const email = uniqueEmail();
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { email: email.toUpperCase(), password: 'long enough pw', name: 'Ada' },
    });
    expect(res.statusCode).toBe(201);
    const user = res.json().data.user;
    expect(user).toMatchObject({ email, name: 'Ada', hasPassword: true, avatarUrl: null });
    expect(user.id).toMatch(/^usr_[0-9a-z]{26}$/);
    const cookie = res.cookies.find((c) => c.name === 'parley.session-token');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie?.secure).toBeFalsy();
  });

  it('refuses a duplicate email with 409', async () => {
    const u = await signupUser(t);
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { email: u.email, password: 'long enough pw', name: 'B' },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('conflict:api');
  });

  it('validates fields and rejects unknown ones', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { email: 'nope', password: 'short', name: 5, admin: true },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'bad_request:api',
      details: {
        email: expect.any(String),
        password: expect.any(String),
        name: expect.any(String),
        admin: 'Unknown field',
      },
    });
  });
});

describe('login and session', () => {
  it('logs in, reads the session, logs out and the cookie stops working', async () => {
    const u = await signupUser(t);
    const login = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: u.email, password: u.password },
    });
    expect(login.statusCode).toBe(200);
    const cookie = `parley.session-token=${login.cookies[0]?.value}`;
    const session = await t.request({ method: 'GET', url: '/api/auth/session', headers: { cookie } });
    expect(session.statusCode).toBe(200);
    expect(session.json().data.user.email).toBe(u.email);
    expect(new Date(session.json().data.expiresAt).getTime()).toBeGreaterThan(Date.now());
    expect(
      (await t.request({ method: 'POST', url: '/api/auth/logout', headers: { cookie } })).statusCode,
    ).toBe(204);
    const after = await t.request({ method: 'GET', url: '/api/auth/session', headers: { cookie } });
    expect(after.statusCode).toBe(401);
    expect(after.json().code).toBe('unauthorized:api');
  });

  it('answers a wrong password and an unknown email alike', async () => {
    const u = await signupUser(t);
    const wrong = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: u.email, password: 'x' },
    });
    const unknown = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: uniqueEmail(), password: 'x' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
  });

  it('rejects a session cookie used as bearer, an API-key-shaped bearer, and garbage', async () => {
    const u = await signupUser(t);
    const token = u.cookie.split('=')[1];
    for (const authorization of [`Bearer ${token}`, 'Bearer wsk_live_abc', 'Basic Zm9vOmJhcg==']) {
      const res = await t.request({
        method: 'GET',
        url: '/api/auth/session',
        headers: { ...u.headers, authorization },
      });
      expect(res.statusCode).toBe(401);
    }
  });

  it('refuses a cookie-authenticated write from another origin (CSRF) and without Origin', async () => {
    const u = await signupUser(t);
    const foreign = await t.request({
      method: 'POST',
      url: '/api/auth/tokens',
      headers: { ...u.headers, origin: 'https://evil.example' },
      payload: { name: 'x' },
    });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().code).toBe('forbidden:api');
    const none = await t.app.inject({
      method: 'POST',
      url: '/api/auth/tokens',
      headers: u.headers,
      payload: { name: 'x' },
    });
    expect(none.statusCode).toBe(403);
  });
});
