import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildApp } from '../../src/app.ts';
import { assistants } from '../../src/db/schema/index.ts';
import type { FeatureApp } from '../../src/http/feature.ts';
import { resourceOf, tenantOf } from '../../src/http/tenant.ts';
import { createAssistant } from '../support/factories.ts';
import { createTestApp, ORIGIN, type TestApp } from '../support/harness.ts';
import { createWorld, insertApiKey, setPlan, type World } from '../support/world.ts';
import { fromSite, initWidget, NO_RATE_LIMIT, sessionUrl, widgetAssistant } from '../widget/helpers.ts';

/**
 * The edges of the tenant resolver (src/http/tenant.ts), on probe routes of a second app over the
 * same database and on real routes: a route that needs no workspace gets none; a route asking a
 * role and a scope; the plan check's answer; ids at the 100-character bound; bodies that are not
 * objects; two resources from the body, one of the wrong type; the widget's own surface.
 */
let base: TestApp;
let t: TestApp;
let probeApp: FastifyInstance;
let w: World;
let assistantId: string;

beforeAll(async () => {
  base = await createTestApp(NO_RATE_LIMIT);
  probeApp = await buildApp(base.ctx, { logger: false });
  await probeApp.register(async (scope) => {
    const app = scope.withTypeProvider() as unknown as FeatureApp;
    app.get('/api/probe/plain', { config: { auth: 'user' } }, async (request) => ({
      data: { tenant: request.tenant },
    }));
    app.post(
      '/api/probe/workspaces/:workspaceId/both',
      {
        config: { auth: 'user-or-key', permission: 'contacts.manage', scope: 'contacts:write' },
        schema: { params: z.object({ workspaceId: z.string() }) },
      },
      async (request) => ({ data: { workspaceId: tenantOf(request).workspaceId } }),
    );
    app.get(
      '/api/probe/workspaces/:workspaceId/paid',
      {
        config: { auth: 'user', planFeature: 'api_v1_write' },
        schema: { params: z.object({ workspaceId: z.string() }) },
      },
      async (request) => ({ data: { plan: tenantOf(request).plan } }),
    );
    app.post(
      '/api/probe/two',
      {
        config: { auth: 'user', idsFrom: 'body', resources: ['assistant', 'source'] },
        schema: { body: z.object({ assistantId: z.string(), sourceId: z.string() }) },
      },
      async (request) => ({ data: { sourceId: resourceOf(request, 'source').id } }),
    );
    app.post(
      '/api/probe/body',
      {
        config: { auth: 'user', idsFrom: 'body', resources: ['assistant'] },
        schema: { body: z.object({ assistantId: z.string() }) },
      },
      async (request) => ({ data: { assistantId: resourceOf(request, 'assistant').row.id } }),
    );
  });
  await probeApp.ready();
  t = {
    ...base,
    app: probeApp,
    request: (opts) => probeApp.inject({ ...opts, headers: { origin: ORIGIN, ...(opts.headers ?? {}) } }),
  };
  w = await createWorld(t);
  assistantId = await createAssistant(t, w.owner, w.ws);
});
afterAll(async () => {
  await probeApp.close();
  await base.close();
});

describe('tenant resolver: what a route does not ask for', () => {
  it('a signed-in route that names no workspace gets none', async () => {
    const res = await t.request({ method: 'GET', url: '/api/probe/plain', headers: w.owner.headers });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ tenant: null });
  });
});

describe('tenant resolver: a role for people, a scope for keys', () => {
  const both = (headers: Record<string, string>) =>
    t.request({ method: 'POST', url: `/api/probe/workspaces/${w.ws}/both`, headers });

  it('a key with the scope passes though the route also asks a role; without it, missing_scope naming it', async () => {
    expect((await both(await insertApiKey(t, w.ws, ['contacts:write']))).statusCode).toBe(200);
    const res = await both(await insertApiKey(t, w.ws, ['tickets:write']));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      error: 'This API key lacks the contacts:write scope',
      code: 'missing_scope',
      details: { scope: 'contacts:write' },
    });
  });

  it('a member with the permission passes; a guest without it is refused', async () => {
    expect((await both(w.member.headers)).statusCode).toBe(200);
    const res = await both(w.guest.headers);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('forbidden:api');
  });

  it('a plan without the feature: plan_upgrade_required, said in words', async () => {
    const paid = (ws: string, headers: Record<string, string>) =>
      t.request({ method: 'GET', url: `/api/probe/workspaces/${ws}/paid`, headers });
    const res = await paid(w.freeWs, w.freeOwner.headers);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({
      code: 'plan_upgrade_required',
      error: 'Your plan does not include this feature; upgrade to use it',
    });
    await setPlan(t, w.ws, 'pro');
    expect((await paid(w.ws, w.owner.headers)).json().data).toEqual({ plan: 'pro' });
  });
});

describe('tenant resolver: ids and bodies', () => {
  it('an id of 100 characters is looked up; one of 101 names nothing', async () => {
    const long = (n: number) => `asst_${'x'.repeat(n - 5)}`;
    for (const n of [100, 101]) {
      await t.ctx.db.insert(assistants).values({ id: long(n), workspaceId: w.ws, name: `Long ${n}` });
    }
    const post = (id: string) =>
      t.request({
        method: 'POST',
        url: '/api/probe/body',
        headers: w.owner.headers,
        payload: { assistantId: id },
      });
    const hundred = await post(long(100));
    expect(hundred.statusCode, hundred.body).toBe(200);
    expect(hundred.json().data).toEqual({ assistantId: long(100) });
    expect((await post(long(101))).statusCode).toBe(404);
  });

  it('two ids from the body, one not a string: validation names it, nothing is looked up first', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/probe/two',
      headers: w.owner.headers,
      payload: { assistantId, sourceId: 7 },
    });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().details)).toEqual(['sourceId']);
  });

  it('a JSON body that is null, or a workspaceId that is not a string: 400, never a 500', async () => {
    const post = (url: string, payload: string) =>
      t.request({
        method: 'POST',
        url,
        headers: { ...w.owner.headers, 'content-type': 'application/json' },
        payload,
      });
    for (const url of [`/api/assistants/${assistantId}/sources`, '/api/assistants']) {
      expect((await post(url, 'null')).statusCode, url).toBe(400);
    }
    const typed = await post('/api/assistants', JSON.stringify({ workspaceId: 123, name: 'n' }));
    expect(typed.statusCode).toBe(400);
    expect(Object.keys(typed.json().details)).toContain('workspaceId');
  });
});

describe('tenant resolver: the widget surface', () => {
  it("a widget session's route gets its workspace from the session; a bad token gets none", async () => {
    const id = await widgetAssistant(t, w.owner, w.ws);
    const s = await initWidget(t, id);
    const ok = await fromSite(t, { method: 'GET', url: sessionUrl(id, s, 'messages'), token: s.token });
    expect(ok.statusCode, ok.body).toBe(200);
    const bad = await fromSite(t, { method: 'GET', url: sessionUrl(id, s, 'messages'), token: 'nope' });
    expect([401, 404]).toContain(bad.statusCode);
  });
});
