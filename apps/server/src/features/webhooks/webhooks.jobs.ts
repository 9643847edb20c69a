import type { AppContext } from '../../context.ts';
import { now } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import {
  claimUndispatchedEvents,
  hasUndispatchedEvents,
  markEventsDispatched,
} from '../events/events.service.ts';
import { type AttemptLog, attemptDelivery } from './delivery.ts';
import { matchEvent } from './event-names.ts';
import * as queue from './queue.repo.ts';

const DISPATCH_BATCH = 500;

/**
 * The outbox relay: turns committed events into one delivery per matching active webhook, in one
 * transaction with marking the events dispatched. Idempotent: (event_id, webhook_id) is unique.
 * Returns how many events it handled (a full batch means: call again at once).
 */
export async function dispatchEvents(ctx: AppContext): Promise<{ events: number; deliveries: number }> {
  const cfg = ctx.config.webhooks;
  // Idle polls cost one statement instead of a transaction (PGlite has a single connection).
  if (!(await hasUndispatchedEvents(ctx.db))) return { events: 0, deliveries: 0 };
  return ctx.db.transaction(async (tx) => {
    const batch = await claimUndispatchedEvents(tx, DISPATCH_BATCH);
    if (batch.length === 0) return { events: 0, deliveries: 0 };
    const hooks = await queue.activeWebhooksOf(tx, [...new Set(batch.map((e) => e.workspaceId))]);
    const at = now();
    const rows: Parameters<typeof queue.insertDeliveries>[1] = [];
    for (const event of batch) {
      for (const hook of hooks) {
        if (hook.workspaceId !== event.workspaceId) continue;
        const name = matchEvent(event.type, hook.format, hook.events);
        if (name === null) continue;
        const delays = hook.format === 'A' ? cfg.retryDelaysA : cfg.retryDelaysB;
        rows.push({
          id: newId('dlv'),
          workspaceId: event.workspaceId,
          webhookId: hook.id,
          eventId: event.id,
          event: name,
          status: 'pending',
          attempt: 0,
          maxAttempts: delays.length + 1,
          nextAttemptAt: at,
          createdAt: at,
          updatedAt: at,
        });
      }
    }
    await queue.insertDeliveries(tx, rows);
    await markEventsDispatched(
      tx,
      batch.map((e) => e.id),
    );
    return { events: batch.length, deliveries: rows.length };
  });
}

/** Claims due deliveries for a worker with `free` slots; the lease outlives one attempt. */
export function claimDeliveries(ctx: AppContext, free: number) {
  const at = now();
  const leaseMs = ctx.config.webhooks.timeoutMs + 5_000;
  return queue.claimDue(ctx.db, free, at, new Date(at.getTime() + leaseMs));
}

export { type AttemptLog, attemptDelivery };
