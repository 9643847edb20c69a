import { buildApp } from './app.ts';
import { createContext, migrateDatabase, openConfiguredDatabase } from './bootstrap.ts';
import { loadConfig } from './config.ts';
import { addAcceptors, REUSE_PORT } from './http/acceptors.ts';
import { stopEventStreams } from './http/sse.ts';
import { jobsFromSetting, startJobs } from './jobs/catalog.ts';
import { modelFor } from './providers/llm/index.ts';

/** config → database → migrate → app → listen → jobs; SIGTERM drains (docs/deploy.md "Stopping"). */
async function main() {
  const config = loadConfig();
  // A remote model that cannot be built (say, no key for the vendor's own host) stops the start
  // here, with the reason, rather than failing every chat later.
  modelFor(config.ai, { passages: [] });
  const jobNames = jobsFromSetting(config.jobs);
  const database = await openConfiguredDatabase(config);
  // On PostgreSQL under an advisory lock: replicas that start together apply them once.
  const { vector, waited } = await migrateDatabase(database);
  const ctx = createContext(config, database);
  const app = await buildApp(ctx);
  // Work off the request path (jobs, credit alerts) logs through the app's logger.
  ctx.log.attach(app.log);
  const acceptors = config.httpAcceptors;
  await app.listen({
    port: config.port,
    host: config.host,
    ...(acceptors > 1 && REUSE_PORT ? { reusePort: true } : {}),
  });
  // More than one listening socket on the port, so a busy loop still takes new connections in
  // time (http/acceptors.ts); closed first when stopping.
  const listening = await addAcceptors(app.server, acceptors);
  // Every job of the catalog runs in every process unless JOBS says otherwise: each claims its
  // rows with SKIP LOCKED (docs/decisions/0010-job-queue.md).
  const jobs = startJobs(ctx, { only: jobNames });
  // The bound port, not the configured one: PORT=0 picks a free port (tests, benchmarks).
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const shown = config.publicBaseUrl ?? `http://localhost:${port}`;
  app.log.info(
    {
      database: database.kind,
      vectorIndex: vector,
      waitedForMigrationLock: waited,
      jobs: jobs.names,
      listeningSockets: listening.listening,
    },
    `Parley is running at ${shown} (database: ${database.kind === 'pglite' ? `embedded PGlite in ${config.dataDir}` : 'PostgreSQL'})`,
  );
  process.stdout.write(`\n  Parley is ready: ${shown}\n\n`);

  // docs/deploy.md "Stopping": one grace for open requests, streams and jobs, then the pools close.
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    const grace = config.shutdownGraceMs;
    app.log.info({ signal, graceMs: grace }, 'shutting down: no new requests, finishing open ones');
    // Live subscriptions never end by themselves: their final event now; their clients reconnect.
    stopEventStreams(app, 'subscriptions');
    // Replies still streaming near the end get their final event, with a second left to store
    // what was generated; at the end, whatever is still open is closed.
    const cut = setTimeout(
      () => {
        const count = stopEventStreams(app, 'all');
        if (count > 0) app.log.warn({ streams: count }, 'grace period almost over; cutting open replies');
      },
      Math.max(grace - 1000, grace / 2),
    );
    // A keep-alive connection that turns idle once its response is done would otherwise hold the
    // stop until the end of the grace: closed as soon as it is idle.
    const idle = setInterval(() => app.server.closeIdleConnections(), 250);
    const force = setTimeout(() => {
      app.log.warn('grace period over; closing remaining connections');
      app.server.closeAllConnections();
    }, grace);
    try {
      await Promise.all([
        // The extra listening sockets stop taking connections at once; what they took is finished
        // like the rest (http/acceptors.ts).
        listening.close(),
        app.close(),
        // Queued work stays queued: claims not finished within the grace expire and are retried.
        jobs.stop(grace).then((drained) => {
          if (!drained)
            app.log.warn('grace period over; unfinished jobs are taken again once their claims expire');
        }),
      ]);
      await ctx.limits.close();
      await ctx.fanout.close();
      await database.close();
    } catch (err) {
      app.log.error({ err }, 'error while shutting down');
    } finally {
      clearTimeout(cut);
      clearTimeout(force);
      clearInterval(idle);
      process.exit(0);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  // Under an npm script (`npm start`, `npm run start:prod`) npm forwards SIGTERM and SIGINT to
  // this process; should npm itself die without forwarding (SIGKILL), the server would keep its
  // port with no one to stop it, so it stops when its parent goes away.
  if (process.env.npm_lifecycle_event) {
    const parent = process.ppid;
    setInterval(() => {
      if (process.ppid !== parent) void stop('parent exited');
    }, 1000).unref();
  }
}

main().catch((err) => {
  process.stderr.write(`Parley failed to start: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
