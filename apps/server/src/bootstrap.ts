import { join } from 'node:path';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { type Database, openDatabase } from './db/client.ts';
import { migrateDatabase } from './db/migrate.ts';
import { SessionCache } from './features/auth/session-cache.ts';
import { createStripe } from './features/billing/stripe.ts';
import { createEmbedder } from './features/knowledge/embedder.ts';
import { channels, signInGuards } from './features/registries.ts';
import { providerClient } from './features/sms/provider.ts';
import { createCursors } from './http/pagination.ts';
import { createRateLimits } from './http/rate-limits.ts';
import { registerQueueMetrics } from './jobs/queue-metrics.ts';
import { Jobs } from './jobs/runner.ts';
import { Admission } from './lib/admission.ts';
import { hmacSha256 } from './lib/crypto.ts';
import { createFanout } from './lib/fanout.ts';
import { Lanes } from './lib/lanes.ts';
import { LogSink } from './lib/log.ts';
import { createMetrics } from './lib/metrics.ts';
import { createMailer } from './providers/mail/mailer.ts';

/** Opens the configured database: PostgreSQL with DATABASE_URL, else PGlite under DATA_DIR. */
export function openConfiguredDatabase(config: Config): Promise<Database> {
  return config.databaseUrl
    ? openDatabase({ kind: 'postgres', url: config.databaseUrl, poolSize: config.databasePoolSize })
    : openDatabase({ kind: 'pglite', dataDir: join(config.dataDir, 'pglite') });
}

/**
 * Wires the context every feature receives; everything a process keeps between requests lives
 * here. The caller owns `database`; background jobs start separately (`startJobs`, jobs/catalog.ts).
 */
export function createContext(config: Config, database: Database): AppContext {
  const log = new LogSink();
  const ctx: AppContext = {
    config,
    database,
    db: database.db,
    mail: createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir }),
    smsProvider: providerClient(config.sms.providerApiBase, config.webhooks.allowPrivateNetworks),
    stripe: createStripe(config),
    // From the feature list, not from route registration: a process or a test app without the
    // SMS routes still sends an agent's reply by SMS (docs/architecture.md "State").
    channels,
    signInGuards,
    streamEncodings: { inbox: new WeakMap(), widget: new WeakMap() },
    limits: createRateLimits({
      redisUrl: config.redisUrl,
      apiPerMinute: config.apiRateLimitPerMinute,
      authPerMinute: config.authRateLimitPerMinute,
      loginFailuresPerAccount: config.loginFailuresPerAccount,
      widgetPerMinute: config.widget.rateLimitPerMinute,
      widgetWindowSeconds: config.widget.rateLimitWindowSeconds,
      log,
    }),
    fanout: createFanout({ redisUrl: config.redisUrl, log }),
    // docs/decisions/0009-lanes.md: background work waits 200 ms at most, then catches up eight at a time.
    lanes: new Lanes({ maxWaitMs: 200, overdueConcurrent: 8 }),
    admission: new Admission(config.admission),
    jobs: new Jobs(),
    log,
    embedder: createEmbedder(config.embeddings),
    vectors: {},
    sheets: new Map(),
    // Every process derives the same cursor key from the shared ENCRYPTION_KEY (http/pagination.ts).
    cursors: createCursors(hmacSha256(config.encryptionKey, 'cursor')),
    credentialTouches: new Map(),
    steering: new Map(),
    sessions: new SessionCache(),
    metrics: createMetrics(),
  };
  registerQueueMetrics(ctx);
  return ctx;
}

export { migrateDatabase };
