import { Redis } from 'ioredis';
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import { AppError, type ErrorCode } from './errors.ts';

export type RateLimits = {
  /** Authenticated requests per user or API key per minute (decisions §2). */
  api: RateLimiterAbstract;
  /** Sign-up and sign-in attempts per client IP per minute. */
  auth: RateLimiterAbstract;
  /** Failed sign-ins per account per 15 minutes. */
  loginFailures: RateLimiterAbstract;
  /** File downloads per user per minute (spec "Limits": 20). */
  downloads: RateLimiterAbstract;
  close(): Promise<void>;
};

export type RateLimitOptions = {
  redisUrl?: string;
  apiPerMinute: number;
  authPerMinute: number;
  loginFailuresPerAccount: number;
};

/** rate-limiter-flexible: in memory for one process, Redis when REDIS_URL is set (shared by instances). */
export function createRateLimits(opts: RateLimitOptions): RateLimits {
  const redis = opts.redisUrl
    ? new Redis(opts.redisUrl, { enableOfflineQueue: false, lazyConnect: false })
    : undefined;
  redis?.on('error', () => {
    /* reported by the limiter calls themselves */
  });
  const make = (keyPrefix: string, points: number, duration: number) =>
    redis
      ? new RateLimiterRedis({ storeClient: redis, keyPrefix: `parley:rl:${keyPrefix}`, points, duration })
      : new RateLimiterMemory({ keyPrefix, points, duration });
  return {
    api: make('api', opts.apiPerMinute, 60),
    auth: make('auth', opts.authPerMinute, 60),
    loginFailures: make('loginfail', opts.loginFailuresPerAccount, 15 * 60),
    downloads: make('download', 20, 60),
    close: async () => {
      if (redis) await redis.quit().catch(() => undefined);
    },
  };
}

/** Consumes one point; over the limit throws a 429 with Retry-After. */
export async function consume(
  limiter: RateLimiterAbstract,
  key: string,
  code: ErrorCode = 'rate_limit:api',
): Promise<void> {
  try {
    await limiter.consume(key);
  } catch (err) {
    if (err instanceof RateLimiterRes) throw tooMany(err, code);
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

function tooMany(res: RateLimiterRes, code: ErrorCode): AppError {
  const seconds = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
  return new AppError(code, 'Too many requests; retry later', undefined, { 'Retry-After': String(seconds) });
}
