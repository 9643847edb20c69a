import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { type BuildOptions, buildApp } from '../../src/app.ts';
import { createContext } from '../../src/bootstrap.ts';
import { loadConfig } from '../../src/config.ts';
import type { AppContext } from '../../src/context.ts';
import { type JobName, type StartedJobs, startJobs } from '../../src/jobs/catalog.ts';
import { freshDatabase, type TestDatabase } from './database.ts';

export const ORIGIN = 'http://parley.test';

export type TestApp = {
  app: FastifyInstance;
  ctx: AppContext;
  db: TestDatabase;
  dataDir: string;
  /** Inject with the app's own Origin (the CSRF guard) unless the caller sets one. */
  request(opts: InjectOptions): Promise<LightMyRequestResponse>;
  /**
   * Starts jobs of the catalog by name, as main.ts starts them all (jobs/catalog.ts); `everyMs`
   * shortens their pauses. `close` stops whatever still runs.
   */
  startJobs(only: JobName[], everyMs?: Partial<Record<JobName, number>>): StartedJobs;
  close(): Promise<void>;
};

/**
 * The real app on a fresh database for one test file. `env` overrides configuration, e.g.
 * `{ API_RATE_LIMIT_PER_MINUTE: '5' }`; `opts.features` registers only those routes.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  opts: Pick<BuildOptions, 'features'> = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'parley-test-'));
  const config = loadConfig({
    PUBLIC_BASE_URL: ORIGIN,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    AUTH_RATE_LIMIT_PER_MINUTE: '100000',
    REDIS_URL: '',
    // A loaded test machine is not an overloaded server: no chat is shed unless a test asks
    // (docs/testing.md "Overload").
    CHAT_SHED_AFTER_MS: '0',
    CHAT_SHED_LOOP_DELAY_MS: '0',
    CHAT_START_TARGET_MS: '0',
    ...env,
  });
  const db = await freshDatabase();
  const ctx = createContext(config, db.database);
  const app = await buildApp(ctx, { logger: false, ...opts });
  await app.ready();
  return {
    app,
    ctx,
    db,
    dataDir,
    request: (opts) => {
      const headers = { origin: ORIGIN, ...(opts.headers ?? {}) };
      return app.inject({ ...opts, headers });
    },
    startJobs: (only, everyMs) => startJobs(ctx, { only, everyMs }),
    close: async () => {
      await ctx.jobs.stop(1000);
      await app.close();
      await ctx.limits.close();
      await ctx.fanout.close();
      await db.drop();
    },
  };
}
