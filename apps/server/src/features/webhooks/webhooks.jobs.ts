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
 * job of this process at once.
 */
export function dispatchJob(ctx: AppContext): Job {
  return {
    async step() {
      const r = await ctx.lanes.background(() => dispatchEvents(ctx));
      if (r.deliveries > 0) ctx.jobs.wake('webhook-delivery');
      return r.events > 0;
    },
  };
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
