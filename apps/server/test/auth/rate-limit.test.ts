import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { signupUser, uniqueEmail } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { createWorld, insertApiKey } from '../support/world.ts';

/**
 * docs/api.md "Rate limits": per-IP sign-up/sign-in attempts, failed sign-ins per account, per-caller API
 * limit.
 */
describe('sign-up and sign-in attempts per client IP', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '3' });
  });
  afterAll(() => t.close());

  it('answers 429 rate_limit:api with Retry-After beyond the limit, counting signups and logins', async () => {
    const ip = { remoteAddress: '203.0.113.7' };
    const email = uniqueEmail();
    const signup = await t.request({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { email, password: 'long enough pw', name: 'A' },
      ...ip,
    });
    expect(signup.statusCode).toBe(201);
    for (let i = 0; i < 2; i++) {
      const res = await t.request({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email, password: 'long enough pw' },
        ...ip,
      });
      expect(res.statusCode).toBe(200);
    }
    const blocked = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password: 'long enough pw' },
      ...ip,
    });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().code).toBe('rate_limit:api');
    const retry = Number(blocked.headers['retry-after']);
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(60);
    const signupBlocked = await t.request({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { email: uniqueEmail(), password: 'long enough pw', name: 'B' },
      ...ip,
    });
    expect(signupBlocked.statusCode).toBe(429);
    // Another IP is not affected.
    const other = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password: 'long enough pw' },
      remoteAddress: '203.0.113.8',
    });
    expect(other.statusCode).toBe(200);
  });
});

describe('failed sign-ins per account', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  afterEach(() => {
    vi.useRealTimers();
  });

  const login = (email: string, password: string, remoteAddress = '198.51.100.1') =>
    t.request({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress });

  it('after 10 failures even the right password gets 429 until the 15-minute window passes', async () => {
    const u = await signupUser(t);
    for (let i = 0; i < 10; i++) {
      // From many IPs: the budget is per account, not per address.
      expect((await login(u.email, `wrong ${i}`, `198.51.100.${i + 10}`)).statusCode).toBe(401);
    }
    const blocked = await login(u.email, u.password);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().code).toBe('rate_limit:api');
    const retry = Number(blocked.headers['retry-after']);
    expect(retry).toBeGreaterThan(14 * 60);
    expect(retry).toBeLessThanOrEqual(15 * 60);
    // Another account is not affected.
    const v = await signupUser(t);
    expect((await login(v.email, v.password)).statusCode).toBe(200);
    // The email is matched case-insensitively: no bypass by changing case.
    expect((await login(u.email.toUpperCase(), u.password)).statusCode).toBe(429);

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 14 * 60_000);
    expect((await login(u.email, u.password)).statusCode).toBe(429);
    vi.setSystemTime(Date.now() + 2 * 60_000);
    expect((await login(u.email, u.password)).statusCode).toBe(200);
  });

  it('a success resets the failure count', async () => {
    const u = await signupUser(t);
    for (let i = 0; i < 9; i++) expect((await login(u.email, 'wrong')).statusCode).toBe(401);
    expect((await login(u.email, u.password)).statusCode).toBe(200);
    for (let i = 0; i < 9; i++) expect((await login(u.email, 'wrong')).statusCode).toBe(401);
    expect((await login(u.email, u.password)).statusCode).toBe(200);
  });

  it('limits unknown emails the same way (no enumeration by status)', async () => {
    const email = uniqueEmail();
    for (let i = 0; i < 10; i++) expect((await login(email, 'wrong')).statusCode).toBe(401);
    expect((await login(email, 'wrong')).statusCode).toBe(429);
  });
});

describe('authenticated requests per caller', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ API_RATE_LIMIT_PER_MINUTE: '5' });
  });
  afterAll(() => t.close());

  it('answers 429 with Retry-After beyond API_RATE_LIMIT_PER_MINUTE, per user and per key', async () => {
    const w = await createWorld(t);
    const get = (headers: Record<string, string>) =>
      t.request({ method: 'GET', url: `/api/workspaces/${w.ws}/api-keys`, headers });
    for (let i = 0; i < 5; i++) expect((await get(w.owner.headers)).statusCode).toBe(200);
    const blocked = await get(w.owner.headers);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().code).toBe('rate_limit:api');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // Per user: the admin has their own budget.
    expect((await get(w.admin.headers)).statusCode).toBe(200);
    // API keys count per key.
    const key = await insertApiKey(t, w.ws, ['events:read']);
    for (let i = 0; i < 5; i++) {
      expect((await t.request({ method: 'GET', url: '/api/v1/workspace', headers: key })).statusCode).toBe(
        200,
      );
    }
    const keyBlocked = await t.request({ method: 'GET', url: '/api/v1/workspace', headers: key });
    expect(keyBlocked.statusCode).toBe(429);
    expect(keyBlocked.headers['retry-after']).toBeDefined();
  });
});

describe('with REDIS_URL set but Redis unreachable', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Nothing listens on port 1: every limiter falls back to its per-process count.
    t = await createTestApp({ API_RATE_LIMIT_PER_MINUTE: '3', REDIS_URL: 'redis://127.0.0.1:1' });
  });
  afterAll(() => t.close());

  it('keeps serving and keeps limiting, per process, instead of failing requests', async () => {
    const w = await createWorld(t);
    const get = () => t.request({ method: 'GET', url: `/api/workspaces/${w.ws}`, headers: w.owner.headers });
    for (let i = 0; i < 3; i++) expect((await get()).statusCode).toBe(200);
    const blocked = await get();
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().code).toBe('rate_limit:api');
  });
});
