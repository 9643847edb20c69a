import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { Receiver } from '../support/receiver.ts';
import { waitFor } from '../support/wait.ts';
import { createHookA, emit, waitForQuiet } from '../support/webhooks.ts';
import { createWorld, type World } from '../support/world.ts';

// The relay pauses briefly after a pass that found less than a full batch, so a steady stream is
// taken a few events a pass (webhooks.jobs.ts DISPATCH_PAUSE_MS). With its poll set far past the
// test's time, only the NOTIFYs can wake it: an event committed during a pass or a pause must
// still be announced to a later pass, never left for the poll.
let t: TestApp;
let w: World;
let rx: Receiver;
beforeAll(async () => {
  t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
  w = await createWorld(t);
  rx = await new Receiver().start();
});
afterAll(async () => {
  await rx?.close();
  await t?.close();
});

describe('the outbox relay under a stream of commits', () => {
  it('delivers every event committed during its passes and pauses, without polling', async () => {
    const workers = t.startJobs(['event-dispatch', 'webhook-delivery'], {
      'event-dispatch': 600_000,
      'webhook-delivery': 20,
    });
    try {
      await t.ctx.jobs.listening();
      await waitFor(() => (t.ctx.jobs.passes('event-dispatch') ?? 0) > 0, 5000, 'the first idle pass');
      const url = rx.on('/stream', () => ({ status: 200 }));
      await createHookA(t, w.ws, w.owner.headers, { url, events: ['ticket.created'] });
      const ids: string[] = [];
      // One event a transaction, as chats commit them: some land while a pass runs, some in its pause.
      for (let i = 0; i < 40; i++) {
        ids.push((await emit(t, w.ws, 'ticket.created', { n: i })).id);
        if (i % 10 === 9) await new Promise((r) => setTimeout(r, 30));
      }
      const seen = () => new Set(rx.hits('/stream').map((h) => JSON.parse(h.body).id as string));
      await waitFor(() => seen().size === ids.length, 20_000, 'every event delivered without a poll');
      expect([...seen()].sort()).toEqual([...ids].sort());
      await waitForQuiet(t, w.ws);
    } finally {
      await workers.stop(1000);
    }
  });
});
