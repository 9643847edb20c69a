import { buildApp } from './app.ts';
import { createContext, migrateDatabase, openConfiguredDatabase } from './bootstrap.ts';
import { loadConfig } from './config.ts';
import { startCreditScheduler } from './features/credits/credits.service.ts';
import { startWidgetJobs } from './features/widget/widget.jobs.ts';
import { startWorkers } from './jobs/index.ts';
import { startKnowledgeWorker } from './jobs/knowledge-worker.ts';
import { modelFor } from './providers/llm/index.ts';

/** config → database → migrate → app → listen; SIGTERM drains (decisions §14). */
async function main() {
  const config = loadConfig();
  // A remote model that cannot be built (say, no key for the vendor's own host) stops the start
  // here, with the reason, rather than failing every chat later.
  modelFor(config.ai, { passages: [] });
  const database = await openConfiguredDatabase(config);
  const { vector } = await migrateDatabase(database);
  const ctx = createContext(config, database);
  const app = await buildApp(ctx);
  await app.listen({ port: config.port, host: config.host });
  // Background workers (webhook dispatch and delivery) run in every process (ARCHITECTURE.md).
  const workers = startWorkers(ctx, { log: app.log });
  const ingestion = startKnowledgeWorker(ctx, { log: app.log });
  const credits = startCreditScheduler(ctx, { log: app.log });
  const widgetJobs = startWidgetJobs(ctx, { log: app.log });
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
      await Promise.all([
        workers.stop(config.shutdownGraceMs),
        ingestion.stop(config.shutdownGraceMs),
        credits.stop(),
        widgetJobs.stop(),
      ]);
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
