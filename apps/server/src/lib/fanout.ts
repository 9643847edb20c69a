import { Redis } from 'ioredis';

export type Listener = (payload: unknown) => void;

/**
 * Live fan-out of small messages to open streams (agent replies to a widget,
 * docs/widget.md "Live agent replies"). In one process it is a map of listeners; with REDIS_URL every process
 * publishes through Redis and each keeps one subscriber connection, so a reply posted on one instance reaches
 * a visitor whose stream is open on another (docs/configuration.md "Redis (optional)"). Delivery is
 * best-effort: the message is already stored, and history shows it to anyone who missed it.
 */
export type Fanout = {
  publish(channel: string, payload: unknown): Promise<void>;
  /** Resolves, once messages on `channel` will arrive, to the unsubscribe function. */
  subscribe(channel: string, listener: Listener): Promise<() => void>;
  close(): Promise<void>;
};

const PREFIX = 'parley:live:';

type Channel = { listeners: Set<Listener>; ready: Promise<unknown> };

export function createFanout(opts: { redisUrl?: string }): Fanout {
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
  let clients: { pub: Redis; sub: Redis } | undefined;
  const redis = (u: string) => {
    if (clients) return clients;
    const pub = new Redis(u, { maxRetriesPerRequest: 2 });
    const sub = new Redis(u);
    pub.on('error', () => undefined);
    sub.on('error', () => undefined);
    sub.on('message', (raw: string, message: string) => {
      try {
        dispatch(raw.slice(PREFIX.length), JSON.parse(message));
      } catch {
        /* not ours */
      }
    });
    clients = { pub, sub };
    return clients;
  };

  return {
    publish: async (channel, payload) => {
      if (url) await redis(url).pub.publish(PREFIX + channel, JSON.stringify(payload));
      else dispatch(channel, payload);
    },
    subscribe: async (channel, fn) => {
      let entry = channels.get(channel);
      if (!entry) {
        const ready = url ? redis(url).sub.subscribe(PREFIX + channel) : Promise.resolve();
        entry = { listeners: new Set(), ready: ready.catch(() => undefined) };
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
      const { pub, sub } = clients;
      clients = undefined;
      await Promise.all([pub.quit().catch(() => undefined), sub.quit().catch(() => undefined)]);
    },
  };
}
