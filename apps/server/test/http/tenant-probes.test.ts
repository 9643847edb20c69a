import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildApp } from '../../src/app.ts';
import type { FeatureApp } from '../../src/http/feature.ts';
import { resourceOf, tenantOf } from '../../src/http/tenant.ts';
import { createAssistant } from '../support/factories.ts';
import { createTestApp, ORIGIN, type TestApp } from '../support/harness.ts';
import { createWorld, insertApiKey, type World } from '../support/world.ts';

/**
 * The tenant resolver (src/http/tenant.ts) on probe routes of a second app over the same database,
 * one per way a route names its workspace and resources: the path, a resource id in the body or
 * the query (located among the caller's workspaces), `workspace: 'input'`; the role check; the NUL
 * refusal; and a handler asking for what its route did not declare.
 */
let base: TestApp;
let t: TestApp;
let probeApp: FastifyInstance;
let w: World;
let assistantId: string;

const assistantOut = (request: Parameters<typeof tenantOf>[0]) => ({
  workspaceId: tenantOf(request).workspaceId,
  role: tenantOf(request).role,
  assistantId: resourceOf(request, 'assistant').row.id,
});

beforeAll(async () => {
  base = await createTestApp();
  probeApp = await buildApp(base.ctx, { logger: false });
  await probeApp.register(async (scope) => {
    const app = scope.withTypeProvider() as unknown as FeatureApp;
    app.post(
      '/api/probe/workspaces/:workspaceId/members/:userId',
      {
        config: { auth: 'user-or-key', permission: 'members.manage', resources: ['member'] },
        schema: {
          params: z.object({ workspaceId: z.string(), userId: z.string() }),
          querystring: z.object({ q: z.string().optional() }),
          body: z.object({ s: z.string().optional(), deep: z.unknown().optional() }),
        },
      },
      async (request) => ({ data: { role: resourceOf(request, 'member').role } }),
    );
    app.post(
      '/api/probe/body',
      {
        config: { auth: 'user', idsFrom: 'body', resources: ['assistant'] },
        schema: {
          body: z.object({
            assistantId: z.union([z.string(), z.number()]),
            workspaceId: z.string().optional(),
          }),
        },
      },
      async (request) => ({ data: assistantOut(request) }),
    );
    app.get(
      '/api/probe/query',
      {
        config: { auth: 'user', idsFrom: 'query', resources: ['assistant'] },
        schema: { querystring: z.object({ assistantId: z.string(), workspaceId: z.string().optional() }) },
      },
      async (request) => ({ data: assistantOut(request) }),
    );
    for (const method of ['GET', 'POST'] as const) {
      app.route({
        method,
        url: '/api/probe/input',
        config: { auth: 'user', workspace: 'input', permission: 'workspace.view' },
        schema: method === 'GET' ? {} : { body: z.object({ workspaceId: z.string().optional() }) },
        handler: async (request) => ({ data: { workspaceId: tenantOf(request).workspaceId } }),
      });
    }
    app.get('/api/probe/public', { config: { auth: 'none' } }, async (request) => ({
      data: tenantOf(request).workspaceId,
    }));
    app.get(
      '/api/probe/workspaces/:workspaceId/undeclared',
      { config: { auth: 'user' } },
      async (request) => ({
        data: resourceOf(request, 'member').role,
      }),
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

const member = (headers: Record<string, string>, payload: unknown = {}, query = '') =>
  t.request({
    method: 'POST',
    url: `/api/probe/workspaces/${w.ws}/members/${w.member.id}${query}`,
    headers,
    payload: payload as object,
  });

describe('tenant resolver: the path names the workspace', () => {
  it('a role with the permission gets the resource; a role without it 403; a non-member 404', async () => {
    const ok = await member(w.admin.headers);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data).toEqual({ role: 'member' });
    expect((await member(w.member.headers)).statusCode).toBe(403);
    expect((await member(w.outsider.headers)).statusCode).toBe(404);
  });

  it('an API key cannot use a route that asks for a role and no scope', async () => {
    const res = await member(await insertApiKey(t, w.ws, ['contacts:write']));
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('API keys cannot do this');
  });

  it('a NUL in the body, a nested value, a key or the query is a 400 naming where it is', async () => {
    const cases: [unknown, string, string[]][] = [
      [{ s: 'a\u0000b' }, '', ['s']],
      [{ deep: { list: ['ok', { x: '\u0000' }] } }, '', ['deep', 'list', '1', 'x']],
      [{ deep: { 'k\u0000': 'v' } }, '', ['deep', 'k\u0000']],
      [{}, '?q=a%00', ['q']],
    ];
    for (const [payload, query, path] of cases) {
      const res = await member(w.admin.headers, payload, query);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.body).toContain('Must not contain the NUL character');
      expect(JSON.stringify(res.json().details)).toContain(JSON.stringify(path.join('.')).slice(1, -1));
    }
    expect((await member(w.admin.headers, { deep: { a: { b: 'clean' } } })).statusCode).toBe(200);
  });
});

describe('tenant resolver: a resource id in the body or the query', () => {
  const body = (headers: Record<string, string>, payload: object) =>
    t.request({ method: 'POST', url: '/api/probe/body', headers, payload });
  const query = (headers: Record<string, string>, q: string) =>
    t.request({ method: 'GET', url: `/api/probe/query?${q}`, headers });

  it('the body id is found among the caller’s workspaces, with the caller’s role there', async () => {
    const res = await body(w.member.headers, { assistantId });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ workspaceId: w.ws, role: 'member', assistantId });
    expect((await body(w.outsider.headers, { assistantId })).statusCode).toBe(404);
    expect((await body(w.member.headers, { assistantId: 'x'.repeat(101) })).statusCode).toBe(404);
  });

  it('a workspaceId in the body other than the resource’s own is a 404; its own passes', async () => {
    expect((await body(w.owner.headers, { assistantId, workspaceId: w.otherWs })).statusCode).toBe(404);
    expect((await body(w.owner.headers, { assistantId, workspaceId: w.ws })).statusCode).toBe(200);
  });

  it('a body id that validation accepts but is not a string names nothing: 404 after validation', async () => {
    const res = await body(w.owner.headers, { assistantId: 12345 });
    expect(res.statusCode, res.body).toBe(404);
    expect((await body(w.owner.headers, { assistantId: true })).statusCode).toBe(400);
  });

  it('the query id likewise, and a workspaceId in the query other than its own is a 404', async () => {
    const res = await query(w.guest.headers, `assistantId=${assistantId}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ workspaceId: w.ws, role: 'guest', assistantId });
    expect(
      (await query(w.owner.headers, `assistantId=${assistantId}&workspaceId=${w.otherWs}`)).statusCode,
    ).toBe(404);
    expect((await query(w.outsider.headers, `assistantId=${assistantId}`)).statusCode).toBe(404);
  });
});

describe('tenant resolver: workspace from the input', () => {
  it('GET reads the query, POST the body; a workspace the caller is not in is a 404', async () => {
    const get = await t.request({
      method: 'GET',
      url: `/api/probe/input?workspaceId=${w.ws}`,
      headers: w.guest.headers,
    });
    expect(get.statusCode, get.body).toBe(200);
    expect(get.json().data.workspaceId).toBe(w.ws);
    const post = await t.request({
      method: 'POST',
      url: `/api/probe/input?workspaceId=${w.otherWs}`,
      headers: w.guest.headers,
      payload: { workspaceId: w.ws },
    });
    expect(post.statusCode, post.body).toBe(200);
    expect(post.json().data.workspaceId).toBe(w.ws);
    const outside = await t.request({
      method: 'POST',
      url: '/api/probe/input',
      headers: w.guest.headers,
      payload: { workspaceId: w.otherWs },
    });
    expect(outside.statusCode).toBe(404);
  });
});

describe('tenant resolver: what the route did not declare', () => {
  it('tenantOf on a public route and resourceOf of an undeclared kind are server errors, not data', async () => {
    const pub = await t.request({ method: 'GET', url: '/api/probe/public' });
    expect(pub.statusCode).toBe(500);
    const und = await t.request({
      method: 'GET',
      url: `/api/probe/workspaces/${w.ws}/undeclared`,
      headers: w.owner.headers,
    });
    expect(und.statusCode).toBe(500);
  });
});
