import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';
import type { SheetCache } from './features/knowledge/realtime/spreadsheet.ts';
import type { VectorState } from './features/knowledge/retrieval/vector-index.ts';
import type { Cursors } from './http/pagination.ts';
import type { RateLimits } from './http/rate-limits.ts';
import type { Jobs } from './jobs/runner.ts';
import type { Fanout } from './lib/fanout.ts';
import type { Lanes } from './lib/lanes.ts';
import type { LogSink } from './lib/log.ts';
import type { Metrics } from './lib/metrics.ts';
import type { Embedder } from './providers/embeddings/types.ts';
import type { Mailer } from './providers/mail/mailer.ts';

/** What every feature gets: built once by bootstrap.ts `createContext`, never read from globals. */
export type AppContext = {
  config: Config;
  database: Database;
  db: Db;
  mail: Mailer;
  limits: RateLimits;
  /** Live messages to open streams (lib/fanout.ts): in process, or through Redis when configured. */
  fanout: Fanout;
  /** Foreground (a chat until its first event) before background work (lib/lanes.ts). */
  lanes: Lanes;
  /** The background jobs running in this process (jobs/catalog.ts); services wake them by name. */
  jobs: Jobs;
  /** Where work off the request path logs (jobs, credit alerts): the app's logger, attached by main.ts. */
  log: LogSink;
  /** The configured embeddings provider (features/knowledge/embedder.ts). */
  embedder: Embedder;
  /** Vector search as detected on first use (features/knowledge/retrieval/vector-index.ts). */
  vectors: VectorState;
  /** Live spreadsheet rows read recently (features/knowledge/realtime/spreadsheet.ts). */
  sheets: SheetCache;
  /** What /metrics shows (lib/metrics.ts, docs/metrics.md). */
  metrics: Metrics;
  /** Signed keyset cursors of cursor-paged lists (http/pagination.ts). */
  cursors: Cursors;
  /** When this process last stamped each bearer credential's lastUsedAt (features/auth/credentials.service.ts). */
  credentialTouches: Map<string, number>;
};

/**
 * The public origin the app is served from (the CSRF guard of docs/api.md "Surfaces and credentials"; invite
 * links).
 */
export function publicBaseUrl(ctx: AppContext, fallbackHost?: string): string {
  return ctx.config.publicBaseUrl ?? `http://${fallbackHost ?? `localhost:${ctx.config.port}`}`;
}
