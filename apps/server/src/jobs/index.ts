import type { AppContext } from '../context.ts';
import { SuccessBatcher } from '../features/webhooks/success-batcher.ts';
import {
  type AttemptLog,
  attemptDelivery,
  claimDeliveries,
  dispatchEvents,
} from '../features/webhooks/webhooks.jobs.ts';
import { closeOutboundAgents } from '../lib/outbound/http.ts';
import { listenForEvents } from './listen.ts';
import { Loop } from './loop.ts';

/**
 * The catalog of background work (ARCHITECTURE.md jobs/). The queue is the database itself
 * (docs/decisions/0001-webhook-queue.md): the outbox relay and the delivery worker both claim
 * rows with FOR UPDATE SKIP LOCKED, so any number of processes can run them side by side.
 */
export type Workers = {
  /** Look for due work now (after a manual retry, for example). */
  wake(): void;
  /** Stops claiming; waits up to `graceMs` for attempts in flight. Unfinished claims expire and are retried. */
  stop(graceMs?: number): Promise<void>;
};

export type WorkerOptions = { log?: AttemptLog; dispatchIdleMs?: number; deliveryIdleMs?: number };

export function startWorkers(ctx: AppContext, opts: WorkerOptions = {}): Workers {
  const concurrency = ctx.config.webhooks.concurrency;
  const inFlight = new Set<Promise<void>>();
  const successes = new SuccessBatcher(ctx.db);
  let stopping = false;

  const delivery = new Loop(
    'webhook-delivery',
    async () => {
      const free = concurrency - inFlight.size;
      if (free <= 0 || stopping) return false;
      // Claim in batches: one statement per handful of free slots, not one per slot.
      if (inFlight.size > 0 && free < Math.min(25, concurrency)) return false;
      const want = Math.min(free, 100);
      const claims = await claimDeliveries(ctx, want);
      for (const claim of claims) {
        // Each attempt runs on its own: a slow receiver holds one slot, never the others.
        const p: Promise<void> = attemptDelivery(ctx, claim, opts.log, successes)
          .catch((err) => opts.log?.error({ err, deliveryId: claim.id }, 'webhook attempt failed'))
          .finally(() => {
            inFlight.delete(p);
            delivery.wake();
          });
        inFlight.add(p);
      }
      return claims.length === want;
    },
    opts.deliveryIdleMs ?? 200,
    opts.log,
  );

  const dispatch = new Loop(
    'event-dispatch',
    async () => {
      // Nobody waits on this step to see an answer start: it yields to chats (lib/lanes.ts).
      const r = await ctx.lanes.background(() => dispatchEvents(ctx));
      if (r.deliveries > 0) delivery.wake();
      return r.events > 0;
    },
    // LISTEN wakes the relay at commit; the poll is only the fallback.
    opts.dispatchIdleMs ?? 500,
    opts.log,
  );

  dispatch.start();
  delivery.start();
  const listening = listenForEvents(ctx.database, () => dispatch.wake()).catch((err) => {
    opts.log?.error({ err }, 'LISTEN failed; the outbox relay falls back to polling');
    return async () => undefined;
  });
  const workers: Workers = {
    wake: () => {
      dispatch.wake();
      delivery.wake();
    },
    stop: async (graceMs = ctx.config.webhooks.timeoutMs) => {
      stopping = true;
      await (await listening)();
      await Promise.all([dispatch.stop(), delivery.stop()]);
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((r) => {
        timer = setTimeout(r, graceMs);
      });
      await Promise.race([Promise.allSettled([...inFlight]), grace]);
      clearTimeout(timer);
      closeOutboundAgents();
      if (ctx.jobs === workers) ctx.jobs = undefined;
    },
  };
  ctx.jobs = workers;
  return workers;
}
