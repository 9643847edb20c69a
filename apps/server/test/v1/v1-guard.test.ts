import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildApp, type FeatureApp } from '../../src/app.ts';
import { v1Guard } from '../../src/features/v1/v1-guard.ts';
import { notFound } from '../../src/http/errors.ts';
import { tenantOf } from '../../src/http/tenant.ts';
import { assertValid } from '../../src/http/validation.ts';
import { createTestApp, ORIGIN, type TestApp } from '../support/harness.ts';
import { securitySuite } from '../support/security.ts';
import { createWorld, insertApiKey, type World } from '../support/world.ts';

/**
 * The v1 guard as a later /api/v1 write route uses it, on a probe route of a second app over the
 * same database: proves the decisions' order 401 → plan → scope → 404 → 400.
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
      '/api/v1/probe/:id',
      {
        config: { auth: 'key', planFeature: 'api_v1_write', scope: 'contacts:write', deferValidation: true },
        preValidation: v1Guard(base.ctx),
        schema: { params: z.object({ id: z.string() }), body: z.strictObject({ n: z.number() }) },
      },
      async (request) => {
        const tenant = tenantOf(request);
        if ((request.params as { id: string }).id !== 'exists') throw notFound('Probe');
        assertValid(request);
        return { data: { workspaceId: tenant.workspaceId, plan: tenant.plan } };
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

const probe = (headers: Record<string, string>, id = 'exists', payload: unknown = { n: 1 }) =>
  t.request({ method: 'POST', url: `/api/v1/probe/${id}`, headers, payload: payload as object });

describe('v1Guard order', () => {
  it('passes a Pro key with the scope and exposes the tenant', async () => {
    const res = await probe(await insertApiKey(t, w.ws, ['contacts:write']));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ workspaceId: w.ws, plan: 'pro' });
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
    const bad = await probe(key, 'exists', { n: 'x' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toHaveProperty('n');
  });
});

securitySuite(() => t, {
  name: 'POST /api/v1/probe/:id (guard probe)',
  auth: 'key',
  noWorkspace: true,
  scope: 'contacts:write',
  planFeature: 'api_v1_write',
  request: () => ({ method: 'POST', url: '/api/v1/probe/exists', payload: { n: 1 } }),
});
