import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ PUBLIC_BASE_URL: 'https://support.example.com' });
});
afterAll(() => t.close());

describe('session cookie behind HTTPS', () => {
  it('is Secure, HttpOnly and SameSite=Lax when PUBLIC_BASE_URL is https', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/signup',
      headers: { origin: 'https://support.example.com' },
      payload: { email: uniqueEmail(), password: 'long enough pw', name: 'S' },
    });
    expect(res.statusCode).toBe(201);
    const cookie = res.cookies.find((c) => c.name === 'parley.session-token');
    expect(cookie).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Lax', path: '/' });
  });

  it('refuses sign-up from a foreign origin (login CSRF)', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/signup',
      headers: { origin: 'https://evil.example' },
      payload: { email: uniqueEmail(), password: 'long enough pw', name: 'S' },
    });
    expect(res.statusCode).toBe(403);
  });
});
