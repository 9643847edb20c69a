import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys } from '../../src/db/schema/index.ts';
import { sha256Hex } from '../../src/lib/crypto.ts';
import { newId } from '../../src/lib/ids.ts';
import { personalToken } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { securitySuite } from '../support/security.ts';
import { expectNothingStored } from '../support/stored-rows.ts';
import { waitFor } from '../support/wait.ts';
import { createWorld, type World } from '../support/world.ts';

let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await createTestApp();
  w = await createWorld(t);
});
afterAll(() => t.close());

const base = (ws: string) => `/api/workspaces/${ws}/api-keys`;
const create = (ws: string, headers: Record<string, string>, payload: unknown) =>
  t.request({ method: 'POST', url: base(ws), headers, payload: payload as object });

/** Creates a key row directly in `workspaceId` (security-suite fixture). */
async function insertKeyRow(app: TestApp, workspaceId: string) {
  const id = newId('key');
  await app.ctx.db.insert(apiKeys).values({
    id,
    workspaceId,
    name: 'fixture',
    scopes: ['events:read'],
    keyHash: sha256Hex(id),
    last4: 'abcd',
  });
  return { keyId: id };
}

describe('POST /api/workspaces/:workspaceId/api-keys', () => {
  it('creates a key shown once, stored only as its hash', async () => {
    const res = await create(w.ws, w.admin.headers, {
      name: 'Zapier',
      scopes: ['contacts:write', 'events:read'],
    });
    expect(res.statusCode, res.body).toBe(201);
    const data = res.json().data;
    expect(Object.keys(data).sort()).toEqual(['createdAt', 'id', 'key', 'last4', 'name', 'scopes']);
    expect(data).toMatchObject({ name: 'Zapier', scopes: ['contacts:write', 'events:read'] });
    expect(data.id).toMatch(/^key_[0-9a-z]{26}$/);
    // wsk_live_ + 32 random bytes in base64url (256 bits).
    expect(data.key).toMatch(/^wsk_live_[A-Za-z0-9_-]{43}$/);
    expect(data.last4).toBe(data.key.slice(-4));
    expect(new Date(data.createdAt).toISOString()).toBe(data.createdAt);
    const [row] = await t.ctx.db.select().from(apiKeys).where(eq(apiKeys.id, data.id));
    expect(row?.keyHash).toBe(sha256Hex(data.key));
    expect(JSON.stringify(row)).not.toContain(data.key);
    expect(row?.createdBy).toBe(w.admin.id);
  });

  it('works with a personal access token (auth: user)', async () => {
    const res = await create(w.ws, await personalToken(t, w.owner), { name: 'ci', scopes: ['events:read'] });
    expect(res.statusCode, res.body).toBe(201);
  });

  it('refuses write scopes on a Free workspace with 403 plan_upgrade_required', async () => {
    for (const scope of ['contacts:write', 'tickets:write', 'chat:write']) {
      const res = await create(w.freeWs, w.freeOwner.headers, { name: 'k', scopes: ['events:read', scope] });
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json().code).toBe('plan_upgrade_required');
    }
  });

  it('allows events:read alone on a Free workspace', async () => {
    const res = await create(w.freeWs, w.freeOwner.headers, { name: 'events', scopes: ['events:read'] });
    expect(res.statusCode, res.body).toBe(201);
  });

  it('validates name and scopes with details', async () => {
    const cases: [unknown, string][] = [
      [{ name: 'k', scopes: [] }, 'scopes'],
      [{ name: 'k', scopes: ['events:read', 'events:read'] }, 'scopes'],
      [{ name: 'k', scopes: ['admin:all'] }, 'scopes.0'],
      [{ name: 'k', scopes: 'events:read' }, 'scopes'],
      [{ name: 'k' }, 'scopes'],
      [{ scopes: ['events:read'] }, 'name'],
      [{ name: '', scopes: ['events:read'] }, 'name'],
      [{ name: '   ', scopes: ['events:read'] }, 'name'],
      [{ name: 'x'.repeat(101), scopes: ['events:read'] }, 'name'],
      [{ name: 42, scopes: ['events:read'] }, 'name'],
      [{ name: 'k', scopes: ['events:read'], key: 'wsk_live_mine' }, 'key'],
      [{ name: 'k', scopes: ['events:read'], workspaceId: w.otherWs }, 'workspaceId'],
    ];
    for (const [payload, field] of cases) {
      const res = await create(w.ws, w.owner.headers, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().code).toBe('bad_request:api');
      expect(res.json().details, JSON.stringify(payload)).toHaveProperty([field]);
    }
  });

  it('takes unicode names and refuses non-JSON, huge and malformed bodies', async () => {
    const ok = await create(w.ws, w.owner.headers, {
      name: 'Automatización 🤖 ключ',
      scopes: ['events:read'],
    });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().data.name).toBe('Automatización 🤖 ключ');
    const malformed = await t.request({
      method: 'POST',
      url: base(w.ws),
      headers: { ...w.owner.headers, 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(malformed.statusCode).toBe(400);
    const huge = await create(w.ws, w.owner.headers, {
      name: 'x'.repeat(3 * 1024 * 1024),
      scopes: ['events:read'],
    });
    expect(huge.statusCode).toBe(413);
  });
});

describe('GET /api/workspaces/:workspaceId/api-keys', () => {
  it('lists the workspace keys newest first, without the key, as an offset page', async () => {
    const { ws, owner } = await createWorld(t);
    const first = await create(ws, owner.headers, { name: 'one', scopes: ['events:read'] });
    const second = await create(ws, owner.headers, { name: 'two', scopes: ['contacts:write'] });
    const res = await t.request({ method: 'GET', url: base(ws), headers: owner.headers });
    expect(res.statusCode).toBe(200);
    const page = res.json();
    expect(page).toMatchObject({ total: 2, limit: 25, offset: 0 });
    expect(page.data.map((k: { id: string }) => k.id)).toEqual([second.json().data.id, first.json().data.id]);
    expect(page.data[0]).toEqual({
      id: second.json().data.id,
      name: 'two',
      scopes: ['contacts:write'],
      last4: second.json().data.last4,
      createdAt: second.json().data.createdAt,
      lastUsedAt: null,
    });
    expect(res.body).not.toContain(second.json().data.key);
    const paged = await t.request({
      method: 'GET',
      url: `${base(ws)}?limit=1&offset=1`,
      headers: owner.headers,
    });
    expect(paged.json()).toMatchObject({ total: 2, limit: 1, offset: 1, data: [{ name: 'one' }] });
  });

  it('rejects bad pagination', async () => {
    for (const q of ['limit=0', 'limit=101', 'offset=-1', 'limit=abc', 'extra=1&limit=1e400']) {
      const res = await t.request({ method: 'GET', url: `${base(w.ws)}?${q}`, headers: w.owner.headers });
      expect(res.statusCode, q).toBe(400);
    }
  });

  it('records lastUsedAt when a key is used', async () => {
    const { ws, owner } = await createWorld(t);
    const key = (await create(ws, owner.headers, { name: 'used', scopes: ['events:read'] })).json().data.key;
    const use = await t.request({
      method: 'GET',
      url: '/api/v1/workspace',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(use.statusCode).toBe(200);
    // Recorded after the answer, off the request's path.
    await waitFor(
      async () =>
        (await t.request({ method: 'GET', url: base(ws), headers: owner.headers })).json().data[0]
          .lastUsedAt !== null,
      5000,
      'lastUsedAt on the key',
    );
  });
});

describe('DELETE /api/workspaces/:workspaceId/api-keys/:keyId', () => {
  it('revokes: the key is refused on the very next request', async () => {
    const created = (await create(w.ws, w.owner.headers, { name: 'gone', scopes: ['events:read'] })).json()
      .data;
    const headers = { authorization: `Bearer ${created.key}` };
    expect((await t.request({ method: 'GET', url: '/api/v1/workspace', headers })).statusCode).toBe(200);
    const del = await t.request({
      method: 'DELETE',
      url: `${base(w.ws)}/${created.id}`,
      headers: w.admin.headers,
    });
    expect(del.statusCode).toBe(204);
    expect(del.body).toBe('');
    const after = await t.request({ method: 'GET', url: '/api/v1/workspace', headers });
    expect(after.statusCode).toBe(401);
    expect(after.json().code).toBe('unauthorized:api');
    const again = await t.request({
      method: 'DELETE',
      url: `${base(w.ws)}/${created.id}`,
      headers: w.admin.headers,
    });
    expect(again.statusCode).toBe(404);
    expect(again.json().code).toBe('not_found:api');
  });

  it('404 for unknown, hostile and over-long key ids, and nothing is deleted', async () => {
    for (const id of [
      'key_nope',
      encodeURIComponent("' or 1=1 --"),
      encodeURIComponent('ключ🔑'),
      'k'.repeat(150),
    ]) {
      const res = await expectNothingStored(t, () =>
        t.request({ method: 'DELETE', url: `${base(w.ws)}/${id}`, headers: w.owner.headers }),
      );
      expect([400, 404], id).toContain(res.statusCode);
    }
  });
});

securitySuite(() => t, {
  name: 'POST /api/workspaces/:workspaceId/api-keys',
  auth: 'user',
  minRole: 'admin',
  request: (ws) => ({ method: 'POST', url: base(ws), payload: { name: 'k', scopes: ['events:read'] } }),
});
securitySuite(() => t, {
  name: 'GET /api/workspaces/:workspaceId/api-keys',
  auth: 'user',
  minRole: 'admin',
  request: (ws) => ({ method: 'GET', url: base(ws) }),
});
securitySuite(() => t, {
  name: 'DELETE /api/workspaces/:workspaceId/api-keys/:keyId',
  auth: 'user',
  minRole: 'admin',
  prepare: (app, _world, ws) => insertKeyRow(app, ws),
  request: (ws, extra) => ({ method: 'DELETE', url: `${base(ws)}/${extra.keyId}` }),
});
