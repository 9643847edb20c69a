import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../src/bootstrap.ts';
import type { AppContext } from '../../src/context.ts';
import { type StartedJobs, startJobs } from '../../src/jobs/catalog.ts';
import { waitFor } from '../support/wait.ts';
import { createWorld, type World } from '../support/world.ts';
import {
  compose,
  type EmailChannel,
  type EmailEnv,
  emailChannel,
  forward,
  type MailServer,
  startEmailApp,
  startMailServer,
  stopEmailApp,
} from './support.ts';

/**
 * docs/jobs.md "Which process runs which job": a web process that does not process mail (JOBS
 * without `email-inbound`) stores a forwarded message and answers 202, and the process that runs
 * the job takes it at once, woken by NOTIFY parley_email_inbound, not at its next poll. The second
 * process is a second context on the same database with jobs of its own.
 */
let e: EmailEnv;
let smtp: MailServer;
let worker: AppContext;
let jobs: StartedJobs;
let w: World;
let ch: EmailChannel;
beforeAll(async () => {
  e = await startEmailApp();
  smtp = await startMailServer();
  w = await createWorld(e.t);
  ch = await emailChannel(e.t, w.owner, w.ws, smtp);
  worker = createContext(e.t.ctx.config, e.t.ctx.database);
  // A pause longer than the test: only a wake makes the job look again after its first pass.
  const hour = 3_600_000;
  jobs = startJobs(worker, {
    only: ['email-inbound', 'email-send'],
    everyMs: { 'email-inbound': hour, 'email-send': hour },
  });
  await worker.jobs.listening();
});
afterAll(async () => {
  await jobs.stop(2000);
  await stopEmailApp(e);
  await smtp.close();
});

describe('processing forwarded mail in another process than the one that takes it', () => {
  it('the web process does not run the job, and the worker answers without waiting for its poll', async () => {
    expect(e.t.ctx.jobs.runs('email-inbound')).toBe(false);
    expect(worker.jobs.runs('email-inbound')).toBe(true);
    for (const n of [1, 2]) {
      const raw = await compose({
        from: `Anna Customer <anna-${n}@example.com>`,
        to: ch.address,
        subject: `Order ${n} is late`,
        messageId: `<split-${n}-${process.pid}@example.com>`,
        text: `Hello, where is my order ${n}?`,
      });
      expect((await forward(e.t, ch.token, raw)).statusCode).toBe(202);
      await waitFor(
        () => smtp.sent.some((m) => m.to.includes(`anna-${n}@example.com`)),
        15_000,
        `the reply to message ${n}`,
      );
    }
  });
});
