import type { FastifyReply } from 'fastify';

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
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    ...headers,
  });
  if (!opts.headersWithFirstEvent) res.flushHeaders();
  const keepAlive = setInterval(() => {
    if (open) res.write(': keep-alive\n\n');
  }, keepAliveMs);
  keepAlive.unref();
  const finish = () => {
    open = false;
    clearInterval(keepAlive);
  };
  res.on('close', () => {
    if (open) abort.abort(new Error('client disconnected'));
    finish();
  });
  // The first event leaves at once (time to first event is what a visitor feels): Node's HTTP
  // response corks the socket on every write until process.nextTick, which waits for the whole
  // promise chain that follows (on PGlite that can include storing the reply), so it is uncorked
  // here. Later events written in the same turn of the event loop (a model's burst of deltas)
  // leave in one socket write: corked on the first of them, uncorked once the turn is over.
  let sent = 0;
  let corked = false;
  const uncork = () => {
    corked = false;
    res.uncork();
  };
  const write = (json: string) => {
    if (!open) return;
    if (sent++ === 0) {
      res.write(`data: ${json}\n\n`);
      res.uncork();
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
      return open;
    },
    onClose(fn) {
      if (res.closed || res.destroyed) fn();
      else res.once('close', fn);
    },
    end() {
      if (!open) return;
      finish();
      res.end();
    },
  };
}
