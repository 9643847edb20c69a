import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildApp } from '../../src/app.ts';
import type { FeatureApp } from '../../src/http/feature.ts';
import { resourceOf, tenantOf } from '../../src/http/tenant.ts';
import { createTestApp, ORIGIN, type TestApp } from '../support/harness.ts';
import { securitySuite } from '../support/security.ts';
import { createWorld, insertApiKey, ownerOf, type World } from '../support/world.ts';

/**
 * The tenant resolver (src/http/tenant.ts) as an /api/v1 write route uses it, on a probe route of
 * a second app over the same database that declares a plan feature, a scope and a resource (a
 * member of the key's workspace): proves the order 401 → plan → scope → 404 → 400 (docs/api.md),
 * and that the handler gets the resource and a validated body.
 */
let base: TestApp;
let t: TestApp;
let probeApp: FastifyInstance;
let w: World;

beforeAll(async () => {
  base = await createTestApp();
  probeApp = await buildApp(base.ctx, { logger: false });
  await probeApp.register(async (scope) => {
    (scope.withTypeProvider() as unknown as FeatureApp).post(
      '/api/v1/probe/:userId',
      {
        config: { auth: 'key', planFeature: 'api_v1_write', scope: 'contacts:write', resources: ['member'] },
        schema: { params: z.object({ userId: z.string() }), body: z.strictObject({ n: z.number() }) },
      },
      async (request) => {
        const tenant = tenantOf(request);
        const member = resourceOf(request, 'member');
        const n: number = request.body.n;
        return { data: { workspaceId: tenant.workspaceId, plan: tenant.plan, role: member.role, n } };
      },
    );
  });
  await probeApp.ready();
  t = {
    ...base,
    app: probeApp,
    request: (opts) => probeApp.inject({ ...opts, headers: { origin: ORIGIN, ...(opts.headers ?? {}) } }),
  };
  w = await createWorld(t);
});
afterAll(async () => {
  await probeApp.close();
  await base.close();
});

const probe = (headers: Record<string, string>, id = w.owner.id, payload: unknown = { n: 1 }) =>
  t.request({ method: 'POST', url: `/api/v1/probe/${id}`, headers, payload: payload as object });

describe('tenant resolver order', () => {
  it('passes a Pro key with the scope and exposes the tenant', async () => {
    const res = await probe(await insertApiKey(t, w.ws, ['contacts:write']));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ workspaceId: w.ws, plan: 'pro', role: 'owner', n: 1 });
  });

  it('401 before anything else', async () => {
    expect((await probe({}, 'missing', { bad: true })).statusCode).toBe(401);
  });

  it('plan before scope: a Free key without the scope gets plan_upgrade_required', async () => {
    const res = await probe(await insertApiKey(t, w.freeWs, ['events:read']), 'missing', { bad: true });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('plan_upgrade_required');
  });

  it('scope before 404 and 400', async () => {
    const res = await probe(await insertApiKey(t, w.ws, ['events:read']), 'missing', { bad: true });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('missing_scope');
  });

  it('404 before 400, then 400 with details', async () => {
    const key = await insertApiKey(t, w.ws, ['contacts:write']);
    expect((await probe(key, 'missing', { bad: true })).statusCode).toBe(404);
    expect((await probe(key, w.outsider.id, { bad: true })).statusCode).toBe(404);
    const bad = await probe(key, w.owner.id, { n: 'x' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toHaveProperty('n');
  });
});

securitySuite(() => t, {
  name: 'POST /api/v1/probe/:userId (resolver probe)',
  auth: 'key',
  noWorkspace: true,
  scope: 'contacts:write',
  planFeature: 'api_v1_write',
  prepare: async (_app, world, ws) => ({ userId: ownerOf(world, ws).id }),
  request: (_ws, x) => ({ method: 'POST', url: `/api/v1/probe/${x.userId}`, payload: { n: 1 } }),
});
