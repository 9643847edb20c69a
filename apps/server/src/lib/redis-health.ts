import type { Redis } from 'ioredis';

export type RedisHealthLog = {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
};

export type RedisHealth = {
  /** True while every connection is ready; while the first connect is under way, waits up to `waitMs`. */
  up(waitMs: number): Promise<boolean>;
  /** A command failed: counts as lost until a ping answers again. */
  failed(err: unknown): void;
  close(): void;
};

/** How often a connection that looks ready, but failed a command, is pinged. */
const PROBE_EVERY_MS = 1000;

/**
 * Whether Redis can be used now, for a feature with a fallback in the process (rate limits,
 * live fan-out). One warning when it is lost (`lost`), one info line when it is back (`back`,
 * then `onBack`), never one per request or per reconnect attempt (docs/configuration.md "When
 * PostgreSQL or Redis goes away"). ioredis reconnects by itself; this only follows it.
 */
export function watchRedis(
  connections: Redis[],
  opts: { log?: RedisHealthLog; lost: string; back: string; onBack?: () => void },
): RedisHealth {
  let state: 'connecting' | 'up' | 'down' = 'connecting';
  let closed = false;
  let probe: NodeJS.Timeout | undefined;
  const waiters = new Set<() => void>();
  const settle = () => {
    for (const w of waiters) w();
    waiters.clear();
  };
  const allReady = () => connections.every((c) => c.status === 'ready');

  const ready = () => {
    if (closed || state === 'up' || !allReady()) return;
    const was = state;
    state = 'up';
    clearTimeout(probe);
    probe = undefined;
    settle();
    if (was === 'down') {
      opts.log?.info({}, opts.back);
      opts.onBack?.();
    }
  };
  const lost = (err?: unknown) => {
    if (closed || state === 'down') return;
    state = 'down';
    settle();
    opts.log?.warn(err ? { err } : {}, opts.lost);
  };
  // Down while the sockets say ready (a command timed out): ping until one answers.
  const schedule = () => {
    if (closed || probe || state !== 'down') return;
    probe = setTimeout(() => {
      probe = undefined;
      const first = connections[0];
      if (!first || !allReady()) return;
      first.ping().then(ready, schedule);
    }, PROBE_EVERY_MS);
    probe.unref();
  };

  for (const c of connections) {
    c.on('ready', ready);
    c.on('close', () => lost());
    c.on('error', (err: unknown) => {
      if (!allReady()) lost(err);
    });
  }

  return {
    up: async (waitMs) => {
      if (state === 'connecting') {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(() => {
            waiters.delete(done);
            resolve();
          }, waitMs);
          const done = () => {
            clearTimeout(timer);
            resolve();
          };
          waiters.add(done);
        });
      }
      return state === 'up';
    },
    failed: (err) => {
      lost(err);
      schedule();
    },
    close: () => {
      closed = true;
      clearTimeout(probe);
      settle();
    },
  };
}

/**
 * Closes a connection without waiting on a Redis that is away: QUIT when it is connected (at most
 * a second), else drop it (a QUIT queued for a Redis that never returns would hold a shutdown).
 */
export async function closeRedis(connection: Redis): Promise<void> {
  if (connection.status === 'end') return;
  if (connection.status === 'ready') {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, 1000);
    });
    await Promise.race([connection.quit().catch(() => undefined), late]);
    clearTimeout(timer);
  }
  // QUIT may have ended it meanwhile (status is read again: TypeScript narrowed it above).
  if ((connection.status as string) !== 'end') connection.disconnect();
}
