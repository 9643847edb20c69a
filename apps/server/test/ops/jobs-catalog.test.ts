import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import { hasVectorColumn, requestBackfill } from '../../src/features/knowledge/retrieval/vector-backfill.ts';
import { CATALOG, JOB_NAMES, type JobName, startJobs } from '../../src/jobs/catalog.ts';
import { createAssistant } from '../assistants/helpers.ts';
import { addSource, getSource } from '../knowledge/helpers.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { waitFor } from '../support/receiver.ts';
import { createWorld, type World } from '../support/world.ts';

/**
 * The job catalog (jobs/catalog.ts; docs/decisions/0010-job-queue.md): one list of every
 * background job, started and stopped in one place, each woken by name through `ctx.jobs`.
 * Pauses here are an hour: a second pass within the test's time can only come from a wake.
 */
const HOUR = 3_600_000;
const hourly = Object.fromEntries(JOB_NAMES.map((n) => [n, HOUR])) as Record<JobName, number>;

let t: TestApp;
let w: World;
let asst: string;
beforeAll(async () => {
  t = await createTestApp();
  w = await createWorld(t);
  asst = await createAssistant(t, w.owner, w.ws);
});
afterAll(async () => {
  await t?.close();
});

const passes = (name: JobName) => t.ctx.jobs.passes(name) ?? 0;

describe('the job catalog', () => {
  it('lists every job once, with its pause and what wakes it', () => {
    expect([...JOB_NAMES].sort()).toEqual(
      [
        'billing-lifecycle',
        'credits-reset',
        'event-dispatch',
        'ingestion',
        'webhook-delivery',
        'widget-inactivity',
        'sms-inbound',
        'sms-send',
        'sms-sessions',
        'analytics-rollup',
        'ai-resolution',
        'test-runs',
        'auto-assign',
        'sla-breaches',
        'email-inbound',
        'email-send',
        'email-imap',
      ].sort(),
    );
    for (const name of JOB_NAMES) expect(CATALOG[name].everyMs, name).toBeGreaterThan(0);
    expect(CATALOG['event-dispatch'].listen).toBe('parley_events');
    expect(CATALOG.ingestion.wokenBy.join(' ')).toContain('sources.service.ts');
  });

  it("names in each job's wokenBy every file that wakes it, and a job nothing wakes says so", () => {
    const src = fileURLToPath(new URL('../../src/', import.meta.url));
    const wakers = new Map<string, Set<string>>();
    for (const file of readdirSync(src, { recursive: true, encoding: 'utf8' })) {
      if (!file.endsWith('.ts') || file.startsWith('jobs/')) continue;
      const code = readFileSync(join(src, file), 'utf8')
        .split('\n')
        .filter((line) => !/^\s*(\*|\/\/|\/\*)/.test(line))
        .join('\n');
      for (const m of code.matchAll(/jobs\.wake\('([a-z-]+)'\)/g)) {
        const name = m[1] ?? '';
        wakers.set(name, (wakers.get(name) ?? new Set()).add(basename(file)));
      }
    }
    for (const name of JOB_NAMES) {
      const named = CATALOG[name].wokenBy.join(' ');
      const files = [...(wakers.get(name) ?? [])];
      for (const file of files) expect(named, `${name} is woken by ${file}`).toContain(file);
      if (files.length === 0 && !CATALOG[name].listen) expect(CATALOG[name].wokenBy, name).toEqual([]);
    }
  });

  it('starts every listed job; a wake by name runs that one again at once; stop ends them all', async () => {
    const jobs = startJobs(t.ctx, { everyMs: hourly });
    let stopped = false;
    try {
      expect([...t.ctx.jobs.names()].sort()).toEqual([...JOB_NAMES].sort());
      expect(() => startJobs(t.ctx, { only: ['ingestion'] })).toThrow(/already running/);
      await waitFor(() => JOB_NAMES.every((n) => passes(n) > 0), 20_000, 'every first pass');
      await t.ctx.jobs.listening();
      for (const name of JOB_NAMES) {
        const before = passes(name);
        t.ctx.jobs.wake(name);
        await waitFor(() => passes(name) > before, 10_000, `a woken pass of ${name}`);
      }
      expect(await jobs.stop(60_000)).toBe(true);
      stopped = true;
    } finally {
      if (!stopped) await jobs.stop(1000);
    }
    // Nothing runs on: the loops ended within the grace, and wakes reach no job.
    expect(t.ctx.jobs.names()).toEqual([]);
    for (const name of JOB_NAMES) {
      t.ctx.jobs.wake(name);
      expect(t.ctx.jobs.passes(name)).toBeUndefined();
    }
    // On PostgreSQL the relay's LISTEN connection went back to the pool (PGlite has no pool).
    const pool = t.ctx.database.pool;
    expect(pool ? pool.totalCount - pool.idleCount : 0).toBe(0);
  });

  it('adding a source wakes the ingestion job through the context, with no poll', async () => {
    const jobs = t.startJobs(['ingestion'], { ingestion: HOUR });
    try {
      await waitFor(() => passes('ingestion') > 0, 10_000, 'the first idle pass');
      const src = await addSource(t, w.owner, asst, {
        type: 'text',
        name: 'Woken',
        text: 'Parcels ship within two working days.',
      });
      await waitFor(
        async () => (await getSource(t, w.owner, asst, src.id)).status === 'ready',
        20_000,
        'the source ingested',
      );
    } finally {
      await jobs.stop();
    }
  });

  it('a requested vector backfill wakes the ingestion job too (where pgvector exists)', async (c) => {
    if (!(await hasVectorColumn(t.ctx))) c.skip();
    const jobs = t.startJobs(['ingestion'], { ingestion: HOUR });
    try {
      await waitFor(() => passes('ingestion') > 0, 10_000, 'the first idle pass');
      await requestBackfill(t.ctx, [asst]);
      await waitFor(
        async () => {
          const [row] = await queryRows<{ ready: boolean }>(
            t.ctx.db,
            sql`select ready from knowledge_vector_namespaces where namespace = ${asst}`,
          );
          return row?.ready === true;
        },
        20_000,
        'the backfill',
      );
    } finally {
      await jobs.stop();
    }
  });
});
