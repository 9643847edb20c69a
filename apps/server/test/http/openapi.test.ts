import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/harness.ts';

/** docs/api.md: an OpenAPI 3.1 document generated from the route schemas describes every endpoint. */
let t: TestApp;
let doc: {
  openapi: string;
  paths: Record<string, Record<string, { security?: Array<Record<string, string[]>> }>>;
  components: { securitySchemes: Record<string, unknown> };
};
beforeAll(async () => {
  t = await createTestApp();
  const res = await t.request({ method: 'GET', url: '/api/openapi.json' });
  expect(res.statusCode).toBe(200);
  doc = res.json();
});
afterAll(() => t.close());

/** Every route Fastify registered, from its own route tree (independent of the swagger plugin). */
function registeredRoutes(app: TestApp['app']): Array<{ method: string; path: string }> {
  const out: Array<{ method: string; path: string }> = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^((?:[│ ] {3})*)[├└]── (\S+)(?: \(([^)]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = (m[1]?.length ?? 0) / 4;
    const path = (stack[depth - 1] ?? '') + m[2];
    stack[depth] = path;
    stack.length = depth + 1;
    for (const method of (m[3] ?? '').split(', ').filter(Boolean)) out.push({ method, path });
  }
  return out;
}

describe('GET /api/openapi.json', () => {
  it('is an OpenAPI 3.1 document that passes the validator', async () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
    const validator = new Validator();
    const result = await validator.validate(doc as unknown as Parameters<Validator['validate']>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('lists every registered /api route and method', () => {
    const routes = registeredRoutes(t.app).filter(
      (r) => r.path.startsWith('/api/') && r.path !== '/api/openapi.json' && r.method !== 'HEAD',
    );
    expect(routes).toContainEqual({ method: 'DELETE', path: '/api/auth/tokens/:tokenId' });
    expect(routes).toContainEqual({ method: 'POST', path: '/api/auth/signup' });
    const missing = routes.filter((r) => {
      const path = r.path.replace(/:(\w+)/g, '{$1}');
      return !doc.paths[path]?.[r.method.toLowerCase()];
    });
    expect(missing).toEqual([]);
  });

  it('declares the security schemes and names them on authenticated operations', () => {
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual([
      'bearer',
      'session',
      'widgetSession',
    ]);
    expect(doc.paths['/api/auth/session']?.get?.security).toEqual([{ session: [] }]);
    expect(doc.paths['/api/auth/signup']?.post?.security).toBeUndefined();
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        for (const requirement of op.security ?? []) {
          for (const name of Object.keys(requirement)) {
            expect(doc.components.securitySchemes, `${method} ${path} → ${name}`).toHaveProperty(name);
          }
        }
      }
    }
  });

  it('is public and served as JSON', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });
});
