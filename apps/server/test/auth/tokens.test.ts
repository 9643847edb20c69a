import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { personalTokens } from '../../src/db/schema/index.ts';
import { sha256Hex } from '../../src/lib/crypto.ts';
import { signupUser, type TestUser } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { securitySuite } from '../support/security.ts';
import { waitFor } from '../support/wait.ts';
import { insertWorkspace } from '../support/world.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const createToken = (u: TestUser, payload: unknown = { name: 'CLI' }) =>
  t.request({ method: 'POST', url: '/api/auth/tokens', headers: u.headers, payload: payload as object });

describe('personal access tokens', () => {
  it('creates a token shown once and stored as its hash; lists metadata only', async () => {
    const u = await signupUser(t);
    const res = await createToken(u);
    expect(res.statusCode).toBe(201);
    const data = res.json().data;
    expect(Object.keys(data).sort()).toEqual(['createdAt', 'id', 'name', 'token']);
    expect(data.token).toMatch(/^pat_[A-Za-z0-9_-]{43}$/);
    const [row] = await t.ctx.db.select().from(personalTokens).where(eq(personalTokens.id, data.id));
    expect(row?.tokenHash).toBe(sha256Hex(data.token));
    const list = await t.request({ method: 'GET', url: '/api/auth/tokens', headers: u.headers });
    expect(list.json().data).toEqual([
      { id: data.id, name: 'CLI', last4: data.token.slice(-4), createdAt: data.createdAt, lastUsedAt: null },
    ]);
    expect(list.body).not.toContain(data.token);
  });

  it('works on a user route, is 401 on a session route, and revocation is effective next request', async () => {
    const u = await signupUser(t);
    const ws = await insertWorkspace(t, u);
    const { id, token } = (await createToken(u)).json().data;
    const headers = { authorization: `Bearer ${token}` };
    const userRoute = { method: 'GET' as const, url: `/api/workspaces/${ws}/api-keys`, headers };
    expect((await t.request(userRoute)).statusCode).toBe(200);
    const sessionRoute = await t.request({ method: 'GET', url: '/api/account', headers });
    expect(sessionRoute.statusCode).toBe(401);
    expect(sessionRoute.json().code).toBe('unauthorized:api');
    // A token cannot mint more tokens (session surface).
    const mint = await t.request({
      method: 'POST',
      url: '/api/auth/tokens',
      headers,
      payload: { name: 'x' },
    });
    expect(mint.statusCode).toBe(401);

    const del = await t.request({ method: 'DELETE', url: `/api/auth/tokens/${id}`, headers: u.headers });
    expect(del.statusCode).toBe(204);
    const after = await t.request(userRoute);
    expect(after.statusCode).toBe(401);
    expect(after.json().code).toBe('unauthorized:api');
  });

  it('records lastUsedAt on use', async () => {
    const u = await signupUser(t);
    const ws = await insertWorkspace(t, u);
    const { token } = (await createToken(u)).json().data;
    await t.request({
      method: 'GET',
      url: `/api/workspaces/${ws}/api-keys`,
      headers: { authorization: `Bearer ${token}` },
    });
    // Recorded after the answer, off the request's path.
    await waitFor(
      async () =>
        (await t.request({ method: 'GET', url: '/api/auth/tokens', headers: u.headers })).json().data[0]
          .lastUsedAt !== null,
      5000,
      'lastUsedAt on the token',
    );
  });

  it("404 when revoking another user's or an unknown token", async () => {
    const a = await signupUser(t);
    const b = await signupUser(t);
    const { id, token } = (await createToken(a)).json().data;
    for (const target of [id, 'pat_unknown', encodeURIComponent('🔑')]) {
      const res = await t.request({
        method: 'DELETE',
        url: `/api/auth/tokens/${target}`,
        headers: b.headers,
      });
      expect(res.statusCode).toBe(404);
    }
    const ws = await insertWorkspace(t, a);
    const still = await t.request({
      method: 'GET',
      url: `/api/workspaces/${ws}/api-keys`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(still.statusCode).toBe(200);
  });

  it('validates the token name', async () => {
    const u = await signupUser(t);
    for (const payload of [
      {},
      { name: '' },
      { name: 'x'.repeat(101) },
      { name: 1 },
      { name: 'a', scopes: [] },
    ]) {
      const res = await createToken(u, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().code).toBe('bad_request:api');
    }
    expect((await createToken(u, { name: 'Déploiement 🚀' })).statusCode).toBe(201);
  });
});

securitySuite(() => t, {
  name: 'GET /api/auth/session',
  auth: 'session',
  noWorkspace: true,
  request: () => ({ method: 'GET', url: '/api/auth/session' }),
});
// Last of its suite's requests that use the owner's cookie: it ends that session.
securitySuite(() => t, {
  name: 'POST /api/auth/logout',
  auth: 'session',
  noWorkspace: true,
  request: () => ({ method: 'POST', url: '/api/auth/logout' }),
});
securitySuite(() => t, {
  name: 'POST /api/auth/tokens',
  auth: 'session',
  noWorkspace: true,
  request: () => ({ method: 'POST', url: '/api/auth/tokens', payload: { name: 'sec' } }),
});
securitySuite(() => t, {
  name: 'GET /api/auth/tokens',
  auth: 'session',
  noWorkspace: true,
  request: () => ({ method: 'GET', url: '/api/auth/tokens' }),
});
securitySuite(() => t, {
  name: 'DELETE /api/auth/tokens/:tokenId',
  auth: 'session',
  noWorkspace: true,
  prepare: async (app, world) => {
    const res = await app.request({
      method: 'POST',
      url: '/api/auth/tokens',
      headers: world.owner.headers,
      payload: { name: 'to revoke' },
    });
    return { tokenId: res.json().data.id };
  },
  request: (_ws, extra) => ({ method: 'DELETE', url: `/api/auth/tokens/${extra.tokenId}` }),
});
