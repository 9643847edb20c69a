import type { FastifyInstance, FastifyReply } from 'fastify';

export type EventStream = {
  /** Writes one event as a JSON object on a `data:` line (docs/chat.md "Stream events"). */
  send(event: object): void;
  /** Writes an event already encoded as JSON (one encoding shared by many streams). */
  sendEncoded(json: string): void;
  /** Aborted when the client goes away before the stream ends. */
  signal: AbortSignal;
  readonly open: boolean;
  /** Runs once the connection is gone, whoever closed it. */
  onClose(fn: () => void): void;
  end(): void;
};

/**
 * Takes over the response for server-sent events: status 200, the given headers, a keep-alive
 * comment every `keepAliveMs` (docs/chat.md "Stream events": proxies drop silent connections), and an abort
 * signal that fires when the client disconnects, so the model call can stop.
 */
export function openEventStream(
  reply: FastifyReply,
  headers: Record<string, string>,
  keepAliveMs: number,
  /**
   * A reply stream: its headers leave with its first event (or keep-alive), one socket write
   * instead of two on the way to the first event. A subscription stream, which may stay silent,
   * sends them at once.
   */
  opts: { headersWithFirstEvent?: boolean } = {},
): EventStream {
  reply.hijack();
  const res = reply.raw;
  const abort = new AbortController();
  let open = true;
  // Set when the server stops: nothing more is written but the final event; the handler still ends the response.
  let cut = false;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    ...headers,
  });
  if (!opts.headersWithFirstEvent) res.flushHeaders();
  const keepAlive = setInterval(() => {
    if (open && !cut) res.write(': keep-alive\n\n');
  }, keepAliveMs);
  keepAlive.unref();
  const finish = () => {
    open = false;
    clearInterval(keepAlive);
    streams.delete(entry);
  };
  const streams = openStreams(reply.server);
  const entry: OpenStream = {
    reply: opts.headersWithFirstEvent === true,
    stop() {
      if (!open || cut) return;
      if (entry.reply) {
        // The reply is cut short: the final event, then the model call is aborted; the handler
        // stores what was generated (as when the client leaves) and ends the response.
        res.write(`data: ${JSON.stringify(RESTARTING_REPLY)}\n\n`);
        cut = true;
        abort.abort(new Error('server shutting down'));
      } else {
        res.write(`data: ${JSON.stringify(RESTARTING)}\n\n`);
        finish();
        uncork();
        res.end();
      }
    },
  };
  streams.add(entry);
  res.on('close', () => {
    if (open && !cut) abort.abort(new Error('client disconnected'));
    finish();
  });
  // The first event leaves at once (time to first event is what a visitor feels): Node's HTTP
  // response corks the socket on every write until process.nextTick, which waits for the whole
  // promise chain that follows (on PGlite that can include storing the reply), so it is uncorked
  // here. Later events written in the same turn of the event loop (a model's burst of deltas)
  // leave in one socket write: corked on the first of them, uncorked once the turn is over.
  let sent = 0;
  let corked = false;
  // Also run before the response ends: on Node 22 and later, an end while the response is corked
  // sends the closing chunk first and the corked events after it, where clients drop them.
  const uncork = () => {
    if (!corked) return;
    corked = false;
    res.uncork();
  };
  const write = (json: string) => {
    if (!open || cut) return;
    if (sent++ === 0) {
      res.write(`data: ${json}\n\n`);
      // The socket, not the response: on Node 22 and later a response keeps its own cork count,
      // and an uncork with none taken drives it below zero, after which writes outside a
      // cork/uncork pair (keep-alives, the final event on shutdown) are held until the end and
      // sent after the closing chunk, where clients drop them.
      res.socket?.uncork();
      // A chat turn's foreground work ends with its first event (lib/lanes.ts).
      reply.request.endForeground?.();
      return;
    }
    if (!corked) {
      corked = true;
      res.cork();
      setImmediate(uncork);
    }
    res.write(`data: ${json}\n\n`);
  };
  return {
    send(event) {
      write(JSON.stringify(event));
    },
    sendEncoded: write,
    signal: abort.signal,
    get open() {
      return open && !cut;
    },
    onClose(fn) {
      if (res.closed || res.destroyed) fn();
      else res.once('close', fn);
    },
    end() {
      if (!open) return;
      finish();
      uncork();
      res.end();
    },
  };
}

/**
 * What a stream says when the server stops (docs/deploy.md "Stopping"). A reply still streaming
 * gets the `error` event of docs/chat.md "Stream events" (what was generated is stored as
 * `partial`); a subscription (the widget's live events) gets `{type: "restarting"}` and is closed,
 * and its client connects again (to another replica, or this one once it is back); what it missed
 * is in the history.
 */
export const RESTARTING_REPLY = {
  type: 'error',
  error: 'The server is restarting. Please send your message again in a moment.',
  code: 'service_unavailable:api',
} as const;
export const RESTARTING = { type: 'restarting' } as const;

type OpenStream = { reply: boolean; stop(): void };

/** Streams open per app, keyed by the Node server that every scope of the app shares. */
const registry = new WeakMap<object, Set<OpenStream>>();

function openStreams(app: FastifyInstance): Set<OpenStream> {
  let set = registry.get(app.server);
  if (!set) {
    set = new Set();
    registry.set(app.server, set);
  }
  return set;
}

/**
 * On shutdown (main.ts): `subscriptions` closes the streams that never end by themselves, at once;
 * `all` also cuts the replies still streaming (at the end of the grace). Returns how many were open.
 */
export function stopEventStreams(app: FastifyInstance, which: 'subscriptions' | 'all'): number {
  const set = registry.get(app.server);
  if (!set) return 0;
  let count = 0;
  for (const stream of [...set]) {
    if (which === 'subscriptions' && stream.reply) continue;
    stream.stop();
    count++;
  }
  return count;
}
