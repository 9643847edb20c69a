import type Stripe from 'stripe';
import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';
import type { SignInGuard } from './features/auth/auth.service.ts';
import type { SessionCache } from './features/auth/session-cache.ts';
import type { Channels } from './features/conversations/channels.ts';
import type { SheetCache } from './features/knowledge/realtime/spreadsheet.ts';
import type { VectorState } from './features/knowledge/retrieval/vector-index.ts';
import type { ProviderClient } from './features/sms/provider.ts';
import type { SteeringCache } from './features/steering/steering.cache.ts';
import type { Cursors } from './http/pagination.ts';
import type { RateLimits } from './http/rate-limits.ts';
import type { Jobs } from './jobs/runner.ts';
import type { Admission } from './lib/admission.ts';
import type { Fanout } from './lib/fanout.ts';
import type { Lanes } from './lib/lanes.ts';
import type { LogSink } from './lib/log.ts';
import type { Metrics } from './lib/metrics.ts';
import type { Embedder } from './providers/embeddings/types.ts';
import type { Mailer } from './providers/mail/mailer.ts';

/**
 * What every feature gets: built once by bootstrap.ts `createContext`, never read from globals.
 * Features keep no state of their own at module level (test/conventions/module-state.test.ts):
 * registries, provider clients and caches of an app are fields here (docs/architecture.md "State").
 */
export type AppContext = {
  config: Config;
  database: Database;
  db: Db;
  /** Provider clients, one of each per app: outgoing mail (providers/mail/mailer.ts)... */
  mail: Mailer;
  /** ...the SMS provider's REST API (features/sms/provider.ts, SMS_PROVIDER_API_BASE)... */
  smsProvider: ProviderClient;
  /** ...and Stripe (features/billing/stripe.ts), null without STRIPE_SECRET_KEY. */
  stripe: Stripe | null;
  /** Each channel's adapter (features/registries.ts `channels`), whichever routes are registered. */
  channels: Channels;
  /** Checks every password sign-in passes (features/registries.ts `signInGuards`). */
  signInGuards: readonly SignInGuard[];
  /**
   * One encoding per published live event, shared by every stream of this app that sends it
   * (features/inbox/inbox-stream.ts, features/widget/widget-events.routes.ts); keyed by the event
   * object, so an event's entry goes with it.
   */
  streamEncodings: { inbox: WeakMap<object, string>; widget: WeakMap<object, string | null> };
  limits: RateLimits;
  /** Live messages to open streams (lib/fanout.ts): in process, or through Redis when configured. */
  fanout: Fanout;
  /** Foreground (a chat until its first event) before background work (lib/lanes.ts). */
  lanes: Lanes;
  /** Whether a new chat can start in time, or is refused with 503 (lib/admission.ts). */
  admission: Admission;
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
  /** Assistants' guidance rules and curated answers, by steering version (features/steering/steering.cache.ts). */
  steering: SteeringCache;
  /** Live sessions looked up in the last few seconds, dropped when revoked (features/auth/session-cache.ts). */
  sessions: SessionCache;
};

/**
 * The public origin the app is served from (the CSRF guard of docs/api.md "Surfaces and credentials"; invite
 * links).
 */
export function publicBaseUrl(ctx: AppContext, fallbackHost?: string): string {
  return ctx.config.publicBaseUrl ?? `http://${fallbackHost ?? `localhost:${ctx.config.port}`}`;
}
