import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema/index.ts';
import { uniqueEmail } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('concurrent sign-ups with one email', () => {
  it('exactly one 201 and nineteen 409 conflict:api', async () => {
    const email = uniqueEmail('race');
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.request({
          method: 'POST',
          url: '/api/auth/signup',
          payload: { email: i % 2 ? email.toUpperCase() : email, password: 'long enough pw', name: `R${i}` },
        }),
      ),
    );
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    for (const r of results.filter((x) => x.statusCode === 409)) expect(r.json().code).toBe('conflict:api');
    expect(await t.ctx.db.select().from(users).where(eq(users.email, email))).toHaveLength(1);
  });
});
