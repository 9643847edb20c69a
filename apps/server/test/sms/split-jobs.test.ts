import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../src/bootstrap.ts';
import type { AppContext } from '../../src/context.ts';
import { type StartedJobs, startJobs } from '../../src/jobs/catalog.ts';
import type { TestApp } from '../support/harness.ts';
import type { SmsProvider } from '../support/sms-provider.ts';
import { waitFor } from '../support/wait.ts';
import { createWorld, type World } from '../support/world.ts';
import { inbound, smsApp, smsLine } from './helpers.ts';

/**
 * docs/jobs.md "Which process runs which job": a web process that does not answer SMS (JOBS
 * without `sms-inbound`) acknowledges the provider's post, and the process that runs the job
 * answers it at once, woken by NOTIFY parley_sms_inbound, not at its next poll. The second process
 * is a second context on the same database with jobs of its own (on PostgreSQL its LISTEN holds a
 * connection of the pool; on PGlite the database's own listen).
 */
let t: TestApp;
let provider: SmsProvider;
let worker: AppContext;
let jobs: StartedJobs;
let w: World;
beforeAll(async () => {
  ({ t, provider } = await smsApp());
  w = await createWorld(t);
  worker = createContext(t.ctx.config, t.ctx.database);
  // A pause longer than the test: only a wake makes the job look again after its first pass.
  const hour = 3_600_000;
  jobs = startJobs(worker, {
    only: ['sms-inbound', 'sms-send'],
    everyMs: { 'sms-inbound': hour, 'sms-send': hour },
  });
  await worker.jobs.listening();
});
afterAll(async () => {
  await jobs.stop(2000);
  await t.close();
  await provider.close();
});

describe('answering SMS in another process than the one that acknowledges', () => {
  it('the web process does not run the job, and the answering process replies without waiting for its poll', async () => {
    expect(t.ctx.jobs.runs('sms-inbound')).toBe(false);
    expect(worker.jobs.runs('sms-inbound')).toBe(true);
    const line = await smsLine(t, provider, w.owner, w.ws);
    const from = '+15557770001';
    const posted = await inbound(t, line, from, 'Where is my order?');
    expect(posted.statusCode).toBe(200);
    await waitFor(() => provider.sent.some((m) => m.to === from), 15_000, 'the reply at the provider');
    // and a second message from the same customer, after the first is done
    const again = await inbound(t, line, from, 'And when does it arrive?');
    expect(again.statusCode).toBe(200);
    await waitFor(() => provider.sent.filter((m) => m.to === from).length === 2, 15_000, 'the second reply');
  });
});
