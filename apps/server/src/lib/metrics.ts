import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** Latency buckets (seconds) from a cached read to a long model answer. */
const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/**
 * What an operator scrapes at `/metrics` (docs/metrics.md), in Prometheus's text format through
 * prom-client. One registry per app (AppContext.metrics), never the library's global one, so two
 * apps in one process (tests) keep their own counts. Node's own (event-loop delay, heap, GC)
 * come with prom-client's default metrics.
 */
export type Metrics = ReturnType<typeof createMetrics>;

export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'parley_' });
  return {
    registry,
    httpDuration: new Histogram({
      name: 'parley_http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by route pattern, method and status',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: SECONDS,
      registers: [registry],
    }),
    chatFirstEvent: new Histogram({
      name: 'parley_chat_first_event_seconds',
      help: "Time from a chat request's arrival to its stream's first event",
      labelNames: ['surface'] as const,
      buckets: SECONDS,
      registers: [registry],
    }),
    chatDuration: new Histogram({
      name: 'parley_chat_duration_seconds',
      help: "Time from a chat request's arrival to its stream's end",
      labelNames: ['surface'] as const,
      buckets: SECONDS,
      registers: [registry],
    }),
    chatsShed: new Counter({
      name: 'parley_chats_shed_total',
      help: 'New chats refused with 503 because the process could not start them in time, by reason (lib/admission.ts)',
      labelNames: ['reason'] as const,
      registers: [registry],
    }),
    openStreams: new Gauge({
      name: 'parley_open_streams',
      help: 'Server-sent event streams open now (chat replies and widget live streams)',
      labelNames: ['kind'] as const,
      registers: [registry],
    }),
  };
}

/** Counts a stream as open until it closes. */
export function trackStream(
  metrics: Metrics,
  kind: 'chat' | 'widget',
  stream: { onClose(fn: () => void): void },
) {
  metrics.openStreams.inc({ kind });
  stream.onClose(() => metrics.openStreams.dec({ kind }));
}
