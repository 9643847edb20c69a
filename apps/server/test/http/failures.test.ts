import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { createContext } from '../../src/bootstrap.ts';
import { loadConfig } from '../../src/config.ts';
import type { AppContext } from '../../src/context.ts';
import { freshDatabase, type TestDatabase } from '../support/database.ts';
import { ORIGIN } from '../support/harness.ts';

/**
 * Health, readiness and the unexpected-error path (docs/configuration.md "Health and shutdown";
 * docs/api.md "Errors"). The failure is real: the app's database is closed under it, no test-only code in
 * production.
 */
let app: FastifyInstance;
let ctx: AppContext;
let db: TestDatabase;
const logs: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'parley-test-'));
  const config = loadConfig({ PUBLIC_BASE_URL: ORIGIN, DATA_DIR: dataDir, REDIS_URL: '' });
  db = await freshDatabase();
  ctx = createContext(config, db.database);
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) logs.push(JSON.parse(line));
      done();
    },
  });
  app = await buildApp(ctx, { logger: { level: 'info', stream } });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await ctx.limits.close();
  await db.drop().catch(() => undefined);
});

describe('health and readiness', () => {
  it('answers /healthz and /readyz with 200 while the database answers', async () => {
    const health = await app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready' });
  });
});

describe('when the database is gone', () => {
  it('answers /readyz 503 but /healthz still 200', async () => {
    await db.database.close();
    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: 'unavailable' });
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });

  it('answers a route that queries with 500 internal_server_error:api, no internals, logged with the request id', async () => {
    logs.length = 0;
    const res = await app.inject({
      method: 'GET',
      url: '/api/auth/session',
      headers: { cookie: 'parley.session-token=whatever-token-value', origin: ORIGIN },
    });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ error: 'Internal server error', code: 'internal_server_error:api' });
    expect(res.body).not.toMatch(/stack|pglite|postgres|pool|closed|select|at /i);
    const reqId = res.headers['x-request-id'];
    expect(reqId).toEqual(expect.any(String));
    const errorLog = logs.find((l) => l.level === 50);
    expect(errorLog).toMatchObject({ reqId, msg: 'unhandled error', err: { stack: expect.any(String) } });
  });

  it('answers a write the same way', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { origin: ORIGIN },
      payload: { email: 'someone@example.com', password: 'long enough pw' },
    });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ error: 'Internal server error', code: 'internal_server_error:api' });
  });
});
