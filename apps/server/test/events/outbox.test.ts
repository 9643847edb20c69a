import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, webhookDeliveries } from '../../src/db/schema/index.ts';
import { recordEvent } from '../../src/features/events/events.service.ts';
import { dispatchEvents } from '../../src/features/webhooks/webhooks.jobs.ts';
import { EVENTS_CHANNEL, listen } from '../../src/jobs/listen.ts';
import { onPostgres } from '../support/database.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { Receiver } from '../support/receiver.ts';
import { waitFor } from '../support/wait.ts';
import { createHookA, emit } from '../support/webhooks.ts';
import { createWorld, type World } from '../support/world.ts';

let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
  w = await createWorld(t);
});
afterAll(async () => {
  await t?.close();
});

describe('events outbox (docs/webhooks.md, How events are recorded)', () => {
  it('wakes the relay (NOTIFY parley_events) only for an insert that stored events', async () => {
    let heard = 0;
    const stop = await listen(t.db.database, EVENTS_CHANNEL, () => {
      heard++;
    });
    try {
      // An insert of no rows, as a private chat's statements make from their empty event list.
      await t.ctx.db.execute(
        sql`insert into events (id, workspace_id, type, data, created_at)
            select id, workspace_id, type, data, created_at from events where false`,
      );
      await new Promise((r) => setTimeout(r, 300));
      expect(heard).toBe(0);
      await t.ctx.db.transaction((tx) =>
        recordEvent(tx, { workspaceId: w.ws, type: 'member.joined', data: { n: 2 } }),
      );
      await waitFor(() => heard > 0, 5000, 'the NOTIFY of a stored event');
    } finally {
      await stop();
    }
  });

  it('an event commits with its change and gets a unique id', async () => {
    const a = await t.ctx.db.transaction((tx) =>
      recordEvent(tx, { workspaceId: w.ws, type: 'member.joined', data: { n: 1 } }),
    );
    const b = await t.ctx.db.transaction((tx) =>
      recordEvent(tx, { workspaceId: w.ws, type: 'member.joined', data: { n: 1 } }),
    );
    expect(a.id).toMatch(/^evt_/);
    expect(a.id).not.toBe(b.id);
    const [row] = await t.ctx.db.select().from(events).where(eq(events.id, a.id));
    expect(row).toMatchObject({
      workspaceId: w.ws,
      type: 'member.joined',
      data: { n: 1 },
      dispatchedAt: null,
    });
  });

  it('a change that rolls back leaves no event', async () => {
    let id = '';
    await expect(
      t.ctx.db.transaction(async (tx) => {
        id = (await recordEvent(tx, { workspaceId: w.ws, type: 'member.left', data: {} })).id;
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(id).toMatch(/^evt_/);
    expect(await t.ctx.db.select().from(events).where(eq(events.id, id))).toHaveLength(0);
  });

  it('an event is invisible to the dispatcher until its transaction commits', async () => {
    const { id: hookId } = await createHookA(t, w.ws, w.owner.headers, {
      url: 'https://127.0.0.1:9/x',
      events: ['*'],
    });
    await dispatchEvents(t.ctx); // drain what earlier tests left
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let eventId = '';
    const pending = t.ctx.db.transaction(async (tx) => {
      eventId = (await recordEvent(tx, { workspaceId: w.ws, type: 'ticket.created', data: {} })).id;
      await gate;
    });
    // On PostgreSQL the relay runs beside the open transaction and must not see its row. PGlite
    // has one connection: the relay's read waits for the commit, then finds the event.
    const dispatched = dispatchEvents(t.ctx);
    if (!onPostgres()) release();
    expect(await dispatched).toMatchObject({ events: onPostgres() ? 0 : 1 });
    release();
    await pending;
    await dispatchEvents(t.ctx);
    const rows = await t.ctx.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.eventId, eventId));
    expect(rows.map((r) => r.webhookId)).toEqual([hookId]);
  });

  it('dispatching is idempotent: one delivery per (event, webhook)', async () => {
    const { id: hookId } = await createHookA(t, w.ws, w.owner.headers, {
      url: 'https://127.0.0.1:9/y',
      events: ['member.joined'],
    });
    const evt = await t.ctx.db.transaction((tx) =>
      recordEvent(tx, { workspaceId: w.ws, type: 'member.joined', data: {} }),
    );
    await dispatchEvents(t.ctx);
    // Simulate a relay that crashed after inserting deliveries but before its commit was seen.
    await t.ctx.db.update(events).set({ dispatchedAt: null }).where(eq(events.id, evt.id));
    await dispatchEvents(t.ctx);
    const rows = await t.ctx.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, evt.id));
    expect(rows.filter((r) => r.webhookId === hookId)).toHaveLength(1);
  });

  it('a commit wakes the relay through LISTEN/NOTIFY: no poll needed', async () => {
    const rx = await new Receiver().start();
    // Pauses far past the test's time: only the NOTIFY at commit can wake the relay in time.
    const workers = t.startJobs(['event-dispatch', 'webhook-delivery'], {
      'event-dispatch': 600_000,
      'webhook-delivery': 600_000,
    });
    try {
      await t.ctx.jobs.listening();
      await waitFor(() => (t.ctx.jobs.passes('event-dispatch') ?? 0) > 0, 5000, 'the first idle pass');
      const url = rx.on('/notified', () => ({ status: 200 }));
      await createHookA(t, w.ws, w.owner.headers, { url, events: ['conversation.created'] });
      await emit(t, w.ws, 'conversation.created', {});
      await waitFor(() => rx.hits('/notified').length === 1, 5000, 'delivery without polling');
    } finally {
      await workers.stop(1000);
      await rx.close();
    }
  });
});
