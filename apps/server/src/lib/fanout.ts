import { Redis } from 'ioredis';
import { closeRedis, type RedisHealthLog, watchRedis } from './redis-health.ts';

export type Listener = (payload: unknown) => void;

/**
 * Live fan-out of small messages to open streams (agent replies to a widget,
 * docs/widget.md "Live agent replies"). In one process it is a map of listeners; with REDIS_URL every process
 * publishes through Redis and each keeps one subscriber connection, so a reply posted on one instance reaches
 * a visitor whose stream is open on another (docs/configuration.md "Redis (optional)"). Delivery is
 * best-effort: the message is already stored, and history shows it to anyone who missed it.
 *
 * While Redis cannot be reached, messages go to this process's listeners only (one warning when
 * it is lost, one info line when it is back, then cross-process again); no publish or subscribe
 * fails or waits for it (docs/configuration.md "When PostgreSQL or Redis goes away").
 */
export type Fanout = {
  publish(channel: string, payload: unknown): Promise<void>;
  /** Resolves, once messages on `channel` will arrive, to the unsubscribe function. */
  subscribe(channel: string, listener: Listener): Promise<() => void>;
  close(): Promise<void>;
};

const PREFIX = 'parley:live:';
/** The longest a publish or subscribe waits on Redis before it counts as unreachable. */
const REDIS_WAIT_MS = 1000;

type Channel = { listeners: Set<Listener>; ready: Promise<unknown> };

export function createFanout(opts: { redisUrl?: string; log?: RedisHealthLog }): Fanout {
  const channels = new Map<string, Channel>();
  const dispatch = (channel: string, payload: unknown) => {
    for (const fn of channels.get(channel)?.listeners ?? []) {
      try {
        fn(payload);
      } catch {
        /* one broken listener never stops the others */
      }
    }
  };
  const url = opts.redisUrl;
  // Connections open on first use: a process (or a test) that never streams opens none.
  let clients: { pub: Redis; sub: Redis; health: ReturnType<typeof watchRedis> } | undefined;
  const redis = (u: string) => {
    if (clients) return clients;
    // Fail fast while Redis is away (no offline queue, a command timeout): the caller falls back.
    const pub = new Redis(u, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: REDIS_WAIT_MS,
    });
    const sub = new Redis(u);
    const health = watchRedis([pub, sub], {
      log: opts.log,
      lost: 'Redis unreachable: live fan-out stays within this process until it is back',
      back: 'Redis is back: live fan-out crosses processes again',
      onBack: () => {
        // Subscriptions asked for while Redis was away may have been dropped from the queue.
        if (channels.size > 0)
          void sub.subscribe(...[...channels.keys()].map((c) => PREFIX + c)).catch(() => undefined);
      },
    });
    sub.on('message', (raw: string, message: string) => {
      try {
        dispatch(raw.slice(PREFIX.length), JSON.parse(message));
      } catch {
        /* not ours */
      }
    });
    clients = { pub, sub, health };
    return clients;
  };

  return {
    publish: async (channel, payload) => {
      if (!url) return dispatch(channel, payload);
      const { pub, health } = redis(url);
      if (await health.up(REDIS_WAIT_MS)) {
        try {
          await pub.publish(PREFIX + channel, JSON.stringify(payload));
          return;
        } catch (err) {
          health.failed(err);
        }
      }
      dispatch(channel, payload);
    },
    subscribe: async (channel, fn) => {
      let entry = channels.get(channel);
      if (!entry) {
        let ready: Promise<unknown> = Promise.resolve();
        if (url) {
          const { sub, health } = redis(url);
          const subscribed = sub.subscribe(PREFIX + channel).catch(() => undefined);
          // Waits for Redis only while it is there; otherwise the listener works in this process now
          // and the subscription is made again when Redis is back.
          ready = health.up(REDIS_WAIT_MS).then((up) => (up ? within(subscribed, REDIS_WAIT_MS) : undefined));
        }
        entry = { listeners: new Set(), ready };
        channels.set(channel, entry);
      }
      entry.listeners.add(fn);
      await entry.ready;
      return () => {
        const current = channels.get(channel);
        if (!current?.listeners.delete(fn) || current.listeners.size > 0) return;
        channels.delete(channel);
        if (url && clients) void clients.sub.unsubscribe(PREFIX + channel).catch(() => undefined);
      };
    },
    close: async () => {
      channels.clear();
      if (!clients) return;
      const { pub, sub, health } = clients;
      clients = undefined;
      health.close();
      await Promise.all([closeRedis(pub), closeRedis(sub)]);
    },
  };
}

/** `promise`, or undefined after `ms`. */
function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
