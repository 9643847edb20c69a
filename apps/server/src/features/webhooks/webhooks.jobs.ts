import type { AppContext } from '../../context.ts';
import type { Job } from '../../jobs/catalog.ts';
import { now } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { closeOutboundAgents } from '../../lib/outbound/http.ts';
import { type AttemptLog, attemptDelivery } from './delivery.ts';
import { matchEvent } from './event-names.ts';
import * as queue from './queue.repo.ts';
import { SuccessBatcher } from './success-batcher.ts';

const DISPATCH_BATCH = 500;

/**
 * The relay's pause after a pass that found events but less than a full batch: events committed
 * meanwhile are taken by the next pass together, instead of a pass (two statements) for every
 * commit under a steady stream of chats. An event alone is taken at once (its NOTIFY wakes the
 * relay); one that follows another within the pause waits at most this long.
 */
export const DISPATCH_PAUSE_MS = 50;

/**
 * The outbox relay: turns committed events into one delivery per matching active webhook, and
 * marks them dispatched in the same statement (queue.repo.ts commitDispatch). Two statements a
 * step, one when there is nothing to do. Idempotent: (event_id, webhook_id) is unique. Returns
 * how many events it handled (a full batch means: call again at once).
 */
export async function dispatchEvents(ctx: AppContext): Promise<{ events: number; deliveries: number }> {
  const cfg = ctx.config.webhooks;
  const pending = await queue.pendingEventsWithWebhooks(ctx.db, DISPATCH_BATCH);
  if (pending.length === 0) return { events: 0, deliveries: 0 };
  const at = now();
  const eventIds = [...new Set(pending.map((p) => p.eventId))];
  const rows: queue.NewDelivery[] = [];
  for (const { eventId, workspaceId, type, webhook } of pending) {
    if (!webhook) continue;
    const name = matchEvent(type, webhook.format, webhook.events);
    if (name === null) continue;
    const delays = webhook.format === 'A' ? cfg.retryDelaysA : cfg.retryDelaysB;
    rows.push({
      id: newId('dlv'),
      workspaceId,
      webhookId: webhook.id,
      eventId,
      event: name,
      maxAttempts: delays.length + 1,
      at,
    });
  }
  const done = await queue.commitDispatch(ctx.db, eventIds, rows, at);
  // Events another process took meanwhile count as handled here too: the batch is spent.
  return { events: eventIds.length, deliveries: done.deliveries };
}

/** Claims due deliveries for a worker with `free` slots; the lease outlives one attempt. */
export function claimDeliveries(ctx: AppContext, free: number) {
  const at = now();
  const leaseMs = ctx.config.webhooks.timeoutMs + 5_000;
  return queue.claimDue(ctx.db, free, at, new Date(at.getTime() + leaseMs));
}

export { type AttemptLog, attemptDelivery };

/**
 * The outbox relay as a job (jobs/catalog.ts `event-dispatch`). Nobody waits on its passes to
 * see an answer start, so each yields to chats (lib/lanes.ts); new deliveries wake the delivery
 * job of this process at once. A full batch is followed by the next pass at once; a smaller one
 * by DISPATCH_PAUSE_MS, then the loop's pause, which a NOTIFY received during the pass or the
 * pause cuts short (jobs/loop.ts keeps a wake that comes while no pause is running). So every
 * event committed after a pass's read is announced to a later pass, and the 500 ms poll still
 * takes what a lost NOTIFY left.
 */
export function dispatchJob(ctx: AppContext): Job {
  return {
    async step(signal) {
      const r = await ctx.lanes.background(() => dispatchEvents(ctx));
      if (r.deliveries > 0) ctx.jobs.wake('webhook-delivery');
      if (r.events >= DISPATCH_BATCH) return true;
      if (r.events > 0) await pause(DISPATCH_PAUSE_MS, signal);
      return false;
    },
  };
}

/** Waits `ms`, or less when `signal` aborts (the process stops). */
function pause(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * The delivery worker as a job (jobs/catalog.ts `webhook-delivery`;
 * docs/decisions/0003-webhook-delivery-queue.md). Each attempt runs on its own, up to
 * WEBHOOK_CONCURRENCY at once in this process, so a slow receiver holds one slot, never the
 * others; a stop waits for the attempts in flight (within its grace).
 */
export function deliveryJob(ctx: AppContext): Job {
  const concurrency = ctx.config.webhooks.concurrency;
  const inFlight = new Set<Promise<void>>();
  const successes = new SuccessBatcher(ctx.db);
  return {
    async step() {
      const free = concurrency - inFlight.size;
      if (free <= 0) return false;
      // Claim in batches: one statement per handful of free slots, not one per slot.
      if (inFlight.size > 0 && free < Math.min(25, concurrency)) return false;
      const want = Math.min(free, 100);
      const claims = await claimDeliveries(ctx, want);
      for (const claim of claims) {
        const p: Promise<void> = attemptDelivery(ctx, claim, ctx.log, successes)
          .catch((err) => ctx.log.error({ err, deliveryId: claim.id }, 'webhook attempt failed'))
          .finally(() => {
            inFlight.delete(p);
            ctx.jobs.wake('webhook-delivery');
          });
        inFlight.add(p);
      }
      return claims.length === want;
    },
    drain: async () => {
      await Promise.allSettled([...inFlight]);
    },
    close: closeOutboundAgents,
  };
}
