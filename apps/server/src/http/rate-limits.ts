import type { ErrorCode } from '@parley/contract/errors';
import { Redis } from 'ioredis';
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import { closeRedis, type RedisHealthLog, watchRedis } from '../lib/redis-health.ts';
import { AppError } from './errors.ts';

export type RateLimits = {
  /** Authenticated requests per user or API key per minute (docs/api.md "Rate limits"). */
  api: RateLimiterAbstract;
  /** Sign-up and sign-in attempts per client IP per minute. */
  auth: RateLimiterAbstract;
  /** Failed sign-ins per account per 15 minutes. */
  loginFailures: RateLimiterAbstract;
  /** File downloads per user per minute (docs/api.md "Rate limits": 20). */
  downloads: RateLimiterAbstract;
  /** POSTs to the public widget API per client IP per minute (docs/widget.md "Limits"). */
  widget: RateLimiterAbstract;
  /** Resolves once Redis is connected (or could not be), so the first requests count there too. */
  ready(): Promise<void>;
  close(): Promise<void>;
};

export type RateLimitOptions = {
  redisUrl?: string;
  apiPerMinute: number;
  authPerMinute: number;
  loginFailuresPerAccount: number;
  widgetPerMinute: number;
  /** The window `widgetPerMinute` is counted in (60 s unless a test shortens it). */
  widgetWindowSeconds?: number;
  /** Where the loss and the return of Redis are logged (once each). */
  log?: RedisHealthLog;
};

/**
 * rate-limiter-flexible: in memory for one process, Redis when REDIS_URL is set (shared by
 * instances, exact under concurrency: each consume is one atomic increment). While Redis cannot
 * be reached each limiter falls back to a per-process count in memory (its insurance), so an
 * outage loosens the limits instead of failing every request; a command waits at most a second.
 * The loss is logged once (a warning) and the return once (an info line); ioredis reconnects by
 * itself and the shared counts take over again (docs/configuration.md "When PostgreSQL or Redis
 * goes away").
 */
export function createRateLimits(opts: RateLimitOptions): RateLimits {
  const redis = opts.redisUrl
    ? new Redis(opts.redisUrl, {
        enableOfflineQueue: false,
        lazyConnect: true,
        maxRetriesPerRequest: 1,
        commandTimeout: 1000,
      })
    : undefined;
  const health = redis
    ? watchRedis([redis], {
        log: opts.log,
        lost: 'Redis unreachable: rate limits are counted in this process until it is back',
        back: 'Redis is back: rate limits are shared again',
      })
    : undefined;
  redis?.on('error', () => {
    /* covered by the insurance limiters; logged once by watchRedis */
  });
  const connected = redis ? redis.connect().catch(() => undefined) : Promise.resolve();
  const make = (keyPrefix: string, points: number, duration: number) => {
    const memory = new RateLimiterMemory({ keyPrefix, points, duration });
    return redis
      ? new RateLimiterRedis({
          storeClient: redis,
          keyPrefix: `parley:rl:${keyPrefix}`,
          points,
          duration,
          insuranceLimiter: memory,
          rejectIfRedisNotReady: true,
        })
      : memory;
  };
  return {
    api: make('api', opts.apiPerMinute, 60),
    auth: make('auth', opts.authPerMinute, 60),
    loginFailures: make('loginfail', opts.loginFailuresPerAccount, 15 * 60),
    downloads: make('download', 20, 60),
    widget: make('widget', opts.widgetPerMinute, opts.widgetWindowSeconds ?? 60),
    ready: () => connected.then(() => undefined),
    close: async () => {
      await connected;
      health?.close();
      if (redis) await closeRedis(redis);
    },
  };
}

/** How a 429 reads: its message, and whether the wait is repeated in the body (`details.retryAfter`). */
export type TooManyText = { message?: string; retryAfterInBody?: boolean };

/** Consumes one point; over the limit throws a 429 with Retry-After. */
export async function consume(
  limiter: RateLimiterAbstract,
  key: string,
  code: ErrorCode = 'rate_limit:api',
  text: TooManyText = {},
): Promise<void> {
  try {
    await limiter.consume(key);
  } catch (err) {
    if (err instanceof RateLimiterRes) throw tooMany(err, code, text);
    throw err;
  }
}

/** Throws 429 if `key` has no points left, without consuming one. */
export async function assertNotBlocked(
  limiter: RateLimiterAbstract,
  key: string,
  code: ErrorCode,
): Promise<void> {
  const res = await limiter.get(key);
  // The memory store keeps an expired record until its timer fires: only a live window blocks.
  if (res && res.remainingPoints <= 0 && res.msBeforeNext > 0) throw tooMany(res, code);
}

function tooMany(res: RateLimiterRes, code: ErrorCode, text: TooManyText = {}): AppError {
  const seconds = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
  return new AppError(
    code,
    text.message ?? 'Too many requests; retry later',
    text.retryAfterInBody ? { retryAfter: seconds } : undefined,
    { 'Retry-After': String(seconds) },
  );
}
