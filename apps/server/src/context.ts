import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';
import type { RateLimits } from './http/rate-limits.ts';
import type { Fanout } from './lib/fanout.ts';
import type { Lanes } from './lib/lanes.ts';
import type { Mailer } from './providers/mail/mailer.ts';

/** What every feature gets: built once in app.ts, never read from globals. */
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
  /** The background workers of this process, when running (jobs/index.ts); services may wake them. */
  jobs?: { wake(): void };
};

/** The public origin the app is served from (decisions §3 CSRF guard, invite links). */
export function publicBaseUrl(ctx: AppContext, fallbackHost?: string): string {
  return ctx.config.publicBaseUrl ?? `http://${fallbackHost ?? `localhost:${ctx.config.port}`}`;
}
