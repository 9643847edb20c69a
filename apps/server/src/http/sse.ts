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
  // Events go out in socket writes of their own making: the first at once (time to first event is
  // what a visitor feels), later ones written in the same turn of the event loop (a model's burst
  // of deltas) joined and sent once that turn is over. Each write corks the socket around it, so
  // that the chunk's size line, its data and its end (and the headers, with the first) leave in
  // one system call: Node's own response cork sent each buffered piece in a write of its own
  // (docs/performance.md "Chat capacity").
  let pending: string[] = [];
  let flushing = false;
  const take = () => {
    const out = pending.join('');
    pending = [];
    return out;
  };
  const flush = () => {
    flushing = false;
    // Gone (the client left) or ended: what was held goes nowhere.
    if (!open || res.writableEnded) pending = [];
    if (pending.length === 0) return;
    const socket = res.socket;
    socket?.cork();
    res.write(take());
    socket?.uncork();
  };
  const keepAlive = setInterval(() => {
    if (open && !cut) emit(': keep-alive\n\n');
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
        emit(`data: ${JSON.stringify(RESTARTING_REPLY)}\n\n`);
        flush();
        cut = true;
        abort.abort(new Error('server shutting down'));
      } else {
        emit(`data: ${JSON.stringify(RESTARTING)}\n\n`);
        finish();
        res.end(take());
      }
    },
  };
  streams.add(entry);
  res.on('close', () => {
    if (open && !cut) abort.abort(new Error('client disconnected'));
    finish();
  });
  let sent = 0;
  const emit = (text: string) => {
    pending.push(text);
    if (flushing) return;
    flushing = true;
    setImmediate(flush);
  };
  const write = (json: string) => {
    if (!open || cut) return;
    if (sent++ > 0) return emit(`data: ${json}\n\n`);
    pending.push(`data: ${json}\n\n`);
    flush();
    // A chat turn's foreground work ends with its first event (lib/lanes.ts).
    reply.request.endForeground?.();
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
      // The events still held leave with the closing chunk, in one socket write.
      res.end(take());
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
