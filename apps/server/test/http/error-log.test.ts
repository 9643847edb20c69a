import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { SCOPES } from '@parley/contract/scopes';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { createContext } from '../../src/bootstrap.ts';
import { loadConfig } from '../../src/config.ts';
import type { AppContext } from '../../src/context.ts';
import { freshDatabase, type TestDatabase } from '../support/database.ts';
import { signupUser } from '../support/factories.ts';
import { ORIGIN, type TestApp } from '../support/harness.ts';
import { insertApiKey, insertWorkspace } from '../support/world.ts';

/**
 * Logs never hold a failed statement's parameters (src/lib/log-errors.ts): the log
 * line of a real database failure keeps the SQL text and SQLSTATE, never the customer's text.
 * The failures are real (a constraint added to the schema, a bad cast, the database closed); the
 * logger's own stream is captured.
 */
const SECRET = 'customer-secret-7b1d';

let app: FastifyInstance;
let ctx: AppContext;
let db: TestDatabase;
let key: Record<string, string>;
const lines: string[] = [];

beforeAll(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'parley-test-'));
  const config = loadConfig({ PUBLIC_BASE_URL: ORIGIN, DATA_DIR: dataDir, REDIS_URL: '' });
  db = await freshDatabase();
  ctx = createContext(config, db.database);
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  app = await buildApp(ctx, { logger: { level: 'info', stream } });
  await app.ready();
  // The factories take the harness's shape; this file builds its own app for the logger's stream.
  const t = {
    app,
    ctx,
    request: (o: InjectOptions) => app.inject({ ...o, headers: { origin: ORIGIN, ...o.headers } }),
  };
  const owner = await signupUser(t as unknown as TestApp);
  const ws = await insertWorkspace(t as unknown as TestApp, owner);
  key = await insertApiKey(t as unknown as TestApp, ws, [...SCOPES]);
});
afterAll(async () => {
  await app.close();
  await ctx.limits.close();
  await db.drop().catch(() => undefined);
});

const errorLines = () => lines.filter((l) => (JSON.parse(l) as { level: number }).level >= 40);

describe('a failed statement in the log', () => {
  it("keeps the SQL and the SQLSTATE of a request's failure, not the customer's text", async () => {
    // A rule the application does not know about: its insert fails in the database (23514).
    await ctx.db.execute(
      sql.raw(
        `alter table contacts add constraint no_secret check (position('${SECRET}' in coalesce(name, '')) = 0)`,
      ),
    );
    lines.length = 0;
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/contacts',
      headers: key,
      payload: { name: `Ada ${SECRET}`, customFields: { note: `${SECRET} in a field` } },
    });
    expect(res.statusCode, res.body).toBe(500);
    const [line, ...more] = errorLines();
    expect(more).toEqual([]);
    const logged = JSON.parse(line ?? '{}');
    expect(logged).toMatchObject({ msg: 'unhandled error', reqId: res.headers['x-request-id'] });
    const text = JSON.stringify(logged);
    expect(text).toMatch(/insert into \\"contacts\\"/);
    expect(text).toContain('23514');
    expect(logged.err.message).toMatch(/^Failed query: insert into "contacts" \(/);
    expect(logged.err.cause.message).toMatch(/relation "contacts" violates check constraint "no_secret"/);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('Ada');
    expect(logged.err.stack).toMatch(/^Error: Failed query: insert into "contacts" .* values \(\$1, \$2, /);
    expect(logged.err.stack).toMatch(/\n\s+at /);
  });

  it('redacts values PostgreSQL quotes in its message and the JSON text it was parsing', async () => {
    const failures = [
      sql`select ${`${SECRET} as an id`}::uuid`,
      sql`select ${`{"note": "\\ud800 ${SECRET}"}`}::jsonb`,
      sql`select ${`${SECRET}`}::int`,
    ];
    for (const failing of failures) {
      const err = await ctx.db.execute(failing).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeDefined();
      lines.length = 0;
      app.log.error({ err }, 'job failed');
      const [line] = errorLines();
      expect(line).toMatch(/"code":"22P02"/);
      expect(line).toMatch(/select \$1::(uuid|jsonb|int)/);
      expect(line).not.toContain(SECRET);
    }
  });

  it('the same when the database is gone', async () => {
    await db.database.close();
    lines.length = 0;
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { origin: ORIGIN },
      payload: { email: `${SECRET}@example.com`, password: 'long enough pw' },
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(500);
    const logged = errorLines();
    expect(logged.length).toBeGreaterThan(0);
    for (const line of logged) expect(line).not.toContain(SECRET);
  });
});
