import type { EventType } from '@parley/contract/events';
import { and, asc, eq, isNull } from 'drizzle-orm';
import { expect } from 'vitest';
import { events, webhookDeliveries } from '../../src/db/schema/index.ts';
import { recordEvent } from '../../src/features/events/events.service.ts';
import type { StartedJobs } from '../../src/jobs/catalog.ts';
import { createTestApp, type TestApp } from './harness.ts';
import { Receiver } from './receiver.ts';
import { waitFor } from './wait.ts';
import { createWorld, type World } from './world.ts';

/** The webhook jobs (outbox relay and delivery) on a test app, polling fast; stop them before `t.close()`. */
export function runWorkers(t: TestApp): StartedJobs {
  return t.startJobs(['event-dispatch', 'webhook-delivery'], {
    'event-dispatch': 10,
    'webhook-delivery': 20,
  });
}

export type WebhookWorld = { t: TestApp; w: World; rx: Receiver; stop: () => Promise<void> };

/**
 * A test app (`env` on top of private networks allowed, so the local receiver can be reached)
 * with the shared world, a receiver, and the webhook workers running; `stop` ends them in order.
 */
export async function startWebhookWorld(env: Record<string, string> = {}): Promise<WebhookWorld> {
  const t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', ...env });
  const w = await createWorld(t);
  const rx = await new Receiver().start();
  const workers = runWorkers(t);
  const stop = async () => {
    await workers.stop(1000);
    await rx.close();
    await t.close();
  };
  return { t, w, rx, stop };
}

/** Creates a Form A webhook through the API; returns its id and secret. */
export async function createHookA(
  t: TestApp,
  ws: string,
  headers: Record<string, string>,
  body: Record<string, unknown>,
): Promise<{ id: string; secret: string }> {
  const res = await t.request({
    method: 'POST',
    url: `/api/workspaces/${ws}/webhooks`,
    headers,
    payload: body,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
}

/** Creates a Form B webhook through the API. */
export async function createHookB(
  t: TestApp,
  headers: Record<string, string>,
  body: Record<string, unknown>,
): Promise<{ id: string; secret: string }> {
  const res = await t.request({ method: 'POST', url: '/api/webhooks', headers, payload: body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
}

/**
 * Events of one type recorded for a workspace (the outbox table), oldest first: ids are
 * time-ordered, and without an order PostgreSQL returns heap order, which the relay's updates
 * reshuffle.
 */
export async function eventsOf(t: TestApp, workspaceId: string, type: string) {
  return t.ctx.db
    .select()
    .from(events)
    .where(and(eq(events.workspaceId, workspaceId), eq(events.type, type)))
    .orderBy(asc(events.id));
}

/** Records an event as a feature would, in its own committed transaction (fixture setup). */
export async function emit(
  t: TestApp,
  workspaceId: string,
  type: string,
  data: Record<string, unknown> = {},
) {
  return t.ctx.db.transaction((tx) => recordEvent(tx, { workspaceId, type: type as EventType, data }));
}

/**
 * Waits until every recorded event of `workspaceId` has been dispatched and none of its deliveries
 * is pending: from then on nothing more is sent until something new happens, so a test can count
 * what arrived (instead of sleeping and hoping the workers were done).
 */
export async function waitForQuiet(t: TestApp, workspaceId: string, timeoutMs = 30_000): Promise<void> {
  await waitFor(
    async () =>
      (await t.ctx.db.$count(
        events,
        and(eq(events.workspaceId, workspaceId), isNull(events.dispatchedAt)),
      )) === 0 &&
      (await t.ctx.db.$count(
        webhookDeliveries,
        and(eq(webhookDeliveries.workspaceId, workspaceId), eq(webhookDeliveries.status, 'pending')),
      )) === 0,
    timeoutMs,
    `every event of ${workspaceId} dispatched and no delivery pending`,
  );
}
