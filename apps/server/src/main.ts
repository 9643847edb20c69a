import { buildApp } from './app.ts';
import { createContext, migrateDatabase, openConfiguredDatabase } from './bootstrap.ts';
import { loadConfig } from './config.ts';
import { startJobs } from './jobs/catalog.ts';
import { modelFor } from './providers/llm/index.ts';

/** config → database → migrate → app → listen → jobs; SIGTERM drains (docs/configuration.md). */
async function main() {
  const config = loadConfig();
  // A remote model that cannot be built (say, no key for the vendor's own host) stops the start
  // here, with the reason, rather than failing every chat later.
  modelFor(config.ai, { passages: [] });
  const database = await openConfiguredDatabase(config);
  const { vector } = await migrateDatabase(database);
  const ctx = createContext(config, database);
  const app = await buildApp(ctx);
  // Work off the request path (jobs, credit alerts) logs through the app's logger.
  ctx.log.attach(app.log);
  await app.listen({ port: config.port, host: config.host });
  // Every job of the catalog runs in every process: each claims its rows with SKIP LOCKED
  // (docs/decisions/0010-job-queue.md).
  const jobs = startJobs(ctx);
  // The bound port, not the configured one: PORT=0 picks a free port (tests, benchmarks).
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const shown = config.publicBaseUrl ?? `http://localhost:${port}`;
  app.log.info(
    { database: database.kind, vectorIndex: vector },
    `Parley is running at ${shown} (database: ${database.kind === 'pglite' ? `embedded PGlite in ${config.dataDir}` : 'PostgreSQL'})`,
  );
  process.stdout.write(`\n  Parley is ready: ${shown}\n\n`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down: no new requests, finishing open ones');
    const force = setTimeout(() => {
      app.log.warn('grace period over; closing remaining connections');
      app.server.closeAllConnections();
    }, config.shutdownGraceMs);
    force.unref();
    try {
      await app.close();
      // Queued work stays queued: claims not finished within the grace expire and are retried.
      if (!(await jobs.stop(config.shutdownGraceMs))) {
        app.log.warn('grace period over; unfinished jobs are taken again once their claims expire');
      }
      await ctx.limits.close();
      await ctx.fanout.close();
      await database.close();
    } finally {
      clearTimeout(force);
      process.exit(0);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((err) => {
  process.stderr.write(`Parley failed to start: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
