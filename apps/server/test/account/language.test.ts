import { LANGUAGES } from '@parley/contract/languages';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema/index.ts';
import { signupUser } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';

/**
 * The account's language (docs/languages.md "Dashboard"): `language` on the account's shape, null
 * (the browser's) until chosen, set with PATCH /api/account to one of the supported languages.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const patch = (headers: Record<string, string>, payload: unknown) =>
  t.request({ method: 'PATCH', url: '/api/account', headers, payload: payload as object });
const read = (headers: Record<string, string>) => t.request({ method: 'GET', url: '/api/account', headers });

describe('the account language', () => {
  it('is null for a new account, then the language chosen, on the account and the session', async () => {
    const u = await signupUser(t);
    expect((await read(u.headers)).json().data.language).toBeNull();
    const res = await patch(u.headers, { language: 'es' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.language).toBe('es');
    expect((await read(u.headers)).json().data.language).toBe('es');
    const session = await t.request({ method: 'GET', url: '/api/auth/session', headers: u.headers });
    expect(session.json().data.user.language).toBe('es');
    const [row] = await t.ctx.db.select().from(users).where(eq(users.id, u.id));
    expect(row?.language).toBe('es');
  });

  it('takes every supported language, keeps it through other changes, and null goes back to the browser', async () => {
    const u = await signupUser(t);
    for (const language of LANGUAGES) {
      const res = await patch(u.headers, { language });
      expect(res.statusCode, language).toBe(200);
      expect(res.json().data.language).toBe(language);
    }
    await patch(u.headers, { language: 'es' });
    const other = await patch(u.headers, { name: 'Ana', preferences: { theme: 'dark' } });
    expect(other.json().data).toMatchObject({ name: 'Ana', language: 'es', preferences: { theme: 'dark' } });
    const reset = await patch(u.headers, { language: null });
    expect(reset.statusCode).toBe(200);
    expect(reset.json().data.language).toBeNull();
  });

  it('refuses a language Parley does not speak, or not in its stored form, with 400', async () => {
    const u = await signupUser(t);
    await patch(u.headers, { language: 'es' });
    const refused: unknown[] = [
      'xx',
      'ES',
      'es-MX',
      'zh',
      'zh-Hant',
      'english',
      '',
      ' es',
      'es\u0000',
      'español',
      '🇪🇸',
      'e'.repeat(10_000),
      5,
      true,
      ['es'],
      { code: 'es' },
    ];
    for (const language of refused) {
      const res = await patch(u.headers, { language });
      const label = JSON.stringify(language).slice(0, 40);
      expect(res.statusCode, label).toBe(400);
      expect(res.json().code, label).toBe('bad_request:api');
      expect(res.json().details, label).toHaveProperty(['language']);
    }
    // Nothing refused was stored.
    expect((await read(u.headers)).json().data.language).toBe('es');
  });

  it('refuses unknown fields beside it, a huge body and a malformed one', async () => {
    const u = await signupUser(t);
    const unknown = await patch(u.headers, { language: 'es', locale: 'es-ES' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().details).toHaveProperty(['locale']);
    const huge = await t.request({
      method: 'PATCH',
      url: '/api/account',
      headers: { ...u.headers, 'content-type': 'application/json' },
      payload: JSON.stringify({ language: 'es', name: 'x'.repeat(3_000_000) }),
    });
    expect([400, 413]).toContain(huge.statusCode);
    const broken = await t.request({
      method: 'PATCH',
      url: '/api/account',
      headers: { ...u.headers, 'content-type': 'application/json' },
      payload: '{"language":',
    });
    expect(broken.statusCode).toBe(400);
    expect((await read(u.headers)).json().data.language).toBeNull();
  });

  it('needs a session: no credential is a 401', async () => {
    const res = await patch({}, { language: 'es' });
    expect(res.statusCode).toBe(401);
  });
});
