import type { AppContext } from '../../context.ts';
import { now } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { type AttemptLog, attemptDelivery } from './delivery.ts';
import { matchEvent } from './event-names.ts';
import * as queue from './queue.repo.ts';

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
