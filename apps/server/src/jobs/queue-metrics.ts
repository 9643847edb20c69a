import { sql } from 'drizzle-orm';
import { Gauge } from 'prom-client';
import type { AppContext } from '../context.ts';
import { queryRows } from '../db/client.ts';

type QueueRow = { queue: string; depth: number | string; oldest_seconds: number | string | null };

/**
 * The job queues' depth and age, and the database pool's waits, read when `/metrics` is scraped
 * (docs/metrics.md). The queues are the domain's own rows (docs/decisions/0010-job-queue.md): the
 * outbox's undispatched events, deliveries due now, sources waiting for ingestion, inbound SMS not
 * yet answered and SMS replies due to be sent. Each is one indexed count on its partial index.
 */
export function registerQueueMetrics(ctx: AppContext): void {
  const registers = [ctx.metrics.registry];
  let last: Promise<QueueRow[]> | undefined;
  // Depth and age come from one statement per scrape, shared by both gauges.
  const read = () => {
    last ??= queryRows<QueueRow>(
      ctx.db,
      sql`select 'event-dispatch' as queue, count(*) as depth,
                 extract(epoch from now() - min(created_at)) as oldest_seconds
            from events where dispatched_at is null
          union all
          select 'webhook-delivery', count(*), extract(epoch from now() - min(next_attempt_at))
            from webhook_deliveries where status = 'pending' and next_attempt_at <= now()
          union all
          select 'ingestion', count(*), extract(epoch from now() - min(created_at))
            from knowledge_sources where status in ('pending', 'processing')
          union all
          select 'sms-inbound', count(*), extract(epoch from now() - min(received_at))
            from sms_inbound where state <> 'done'
          union all
          select 'sms-send', count(*), extract(epoch from now() - min(next_attempt_at))
            from sms_outbound where state = 'pending' and next_attempt_at <= now()`,
    ).finally(() => {
      setImmediate(() => {
        last = undefined;
      });
    });
    return last;
  };
  new Gauge({
    name: 'parley_job_queue_depth',
    help: 'Rows waiting for a background job, by job',
    labelNames: ['job'] as const,
    registers,
    async collect() {
      for (const row of await read()) this.set({ job: row.queue }, Number(row.depth));
    },
  });
  new Gauge({
    name: 'parley_job_queue_oldest_seconds',
    help: 'Age of the oldest row waiting for a background job (webhook-delivery: the delivery lag)',
    labelNames: ['job'] as const,
    registers,
    async collect() {
      for (const row of await read()) this.set({ job: row.queue }, Number(row.oldest_seconds ?? 0));
    },
  });
  const pool = ctx.database.pool;
  if (!pool) return; // PGlite: one connection in process, no pool to wait for.
  new Gauge({
    name: 'parley_db_pool_waiting',
    help: 'Queries waiting for a PostgreSQL connection from the pool',
    registers,
    collect() {
      this.set(pool.waitingCount);
    },
  });
  new Gauge({
    name: 'parley_db_pool_connections',
    help: 'PostgreSQL pool connections, by state',
    labelNames: ['state'] as const,
    registers,
    collect() {
      this.set({ state: 'total' }, pool.totalCount);
      this.set({ state: 'idle' }, pool.idleCount);
    },
  });
}
