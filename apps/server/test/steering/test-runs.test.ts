import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  conversations,
  curatedAnswers,
  events,
  messages,
  notifications,
  testRuns,
  workspaceCredits,
} from '../../src/db/schema/index.ts';
import { playRun } from '../../src/features/steering/test-runs.jobs.ts';
import { claimRun } from '../../src/features/steering/test-runs.repo.ts';
import { newId } from '../../src/lib/ids.ts';
import { addSource, drainIngestion } from '../knowledge/helpers.ts';
import { createAssistant } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { waitFor } from '../support/wait.ts';
import { createWorld, type World } from '../support/world.ts';
import { addAnswer, addItem, addRule } from './helpers.ts';

/**
 * docs/steering.md "Test runs": runs play every test against the assistant as it is (offline
 * responder here), in conversations nothing else sees; a knowledge change starts one by itself
 * and a regression notifies; runs go through the job queue and survive a restart.
 */
let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await createTestApp({ TEST_RUN_DELAY_SECONDS: '1', TEST_RUN_LEASE_SECONDS: '2' });
  w = await createWorld(t);
});
afterAll(() => t.close());

const runUrl = (a: string, id = '') => `/api/assistants/${a}/test-runs${id ? `/${id}` : ''}`;
const startRun = (a: string) => t.request({ method: 'POST', url: runUrl(a), headers: w.owner.headers });
const getRun = async (a: string, id: string) =>
  (await t.request({ method: 'GET', url: runUrl(a, id), headers: w.member.headers })).json().data;
const runsOf = (a: string) => t.ctx.db.select().from(testRuns).where(eq(testRuns.assistantId, a));

/** Plays every due run in this process, as the job does, until none is left. */
async function playDue() {
  for (;;) {
    const run = await claimRun(t.ctx.db, t.ctx.config.testRuns.leaseMs);
    if (!run) return;
    await playRun(t.ctx, run);
  }
}

async function shopAssistant() {
  const a = await createAssistant(t, w.owner, w.ws);
  const returns = await addSource(t, w.owner, a, {
    type: 'text',
    name: 'Returns',
    text: 'Returns policy. Unworn shoes can be returned within 30 days for a full refund.',
  });
  const shipping = await addSource(t, w.owner, a, {
    type: 'text',
    name: 'Shipping',
    text: 'Shipping policy. We ship to every country in Europe; delivery takes 3 to 5 working days.',
  });
  await drainIngestion(t);
  await addRule(t, w.owner, a, {
    name: 'legal',
    kind: 'refuse',
    text: 'No legal advice.',
    triggers: ['lawyer'],
  });
  const answer = await addAnswer(t, w.owner, a, {
    question: 'Do you have a shop in Paris?',
    answer: 'Yes, rue de Rivoli.',
  });
  const tests = {
    returns: await addItem(t, w.owner, a, 'tests', {
      name: 'returns window',
      turns: [{ content: 'Hello' }, { content: 'How many days do I have to return shoes?' }],
      expect: { outcome: 'answered', contains: ['30 days'], cites: [returns.id] },
    }),
    shipping: await addItem(t, w.owner, a, 'tests', {
      name: 'shipping time',
      turns: [{ content: 'How long does delivery take?' }],
      expect: { contains: ['3 to 5'], cites: [shipping.id] },
    }),
    legal: await addItem(t, w.owner, a, 'tests', {
      name: 'no legal advice',
      turns: [{ content: 'Do I need a lawyer?' }],
      expect: { outcome: 'declined', notContains: ['refund'] },
    }),
    paris: await addItem(t, w.owner, a, 'tests', {
      name: 'paris shop',
      turns: [{ content: 'do you have a shop in paris' }],
      expect: { outcome: 'curated', contains: ['Rivoli'] },
    }),
    wrong: await addItem(t, w.owner, a, 'tests', {
      name: 'expects the impossible',
      turns: [{ content: 'How long does delivery take?' }],
      expect: { outcome: 'handoff', contains: ['tomorrow'], notContains: ['days'] },
    }),
  };
  // A first run, for the runs of each test to be compared with.
  expect((await startRun(a)).statusCode).toBe(202);
  await playDue();
  return { a, returns, shipping, answer, tests };
}

describe('a run', () => {
  it('202 running, then done: each test judged, a reason in words per unmet expectation, nothing else stored', async () => {
    const s = await shopAssistant();
    const before = {
      conversations: await t.ctx.db
        .select({ n: count() })
        .from(conversations)
        .where(eq(conversations.workspaceId, w.ws)),
      messages: await t.ctx.db.select({ n: count() }).from(messages).where(eq(messages.workspaceId, w.ws)),
      events: await t.ctx.db.select({ n: count() }).from(events).where(eq(events.workspaceId, w.ws)),
      credits: await t.ctx.db.select().from(workspaceCredits).where(eq(workspaceCredits.workspaceId, w.ws)),
    };
    const res = await startRun(s.a);
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().data).toMatchObject({
      status: 'running',
      trigger: 'manual',
      passed: 0,
      failed: 0,
      results: [],
    });
    const id = res.json().data.id as string;
    await playDue();
    const run = await getRun(s.a, id);
    expect(run).toMatchObject({ status: 'done', passed: 4, failed: 1, finishedAt: expect.any(String) });
    const byName = Object.fromEntries(run.results.map((r: { name: string }) => [r.name, r]));
    expect(byName['returns window']).toMatchObject({ passed: true, outcome: 'answered', reasons: [] });
    expect(byName['returns window'].reply).toContain('30 days');
    expect(byName['returns window'].citations).toContainEqual({ sourceId: s.returns.id });
    expect(byName['no legal advice']).toMatchObject({
      passed: true,
      outcome: 'declined',
      reply: 'No legal advice.',
    });
    expect(byName['paris shop']).toMatchObject({
      passed: true,
      outcome: 'curated',
      reply: 'Yes, rue de Rivoli.',
    });
    expect(byName['expects the impossible']).toMatchObject({ passed: false, previouslyPassed: false });
    expect(byName['expects the impossible'].reasons).toEqual([
      'Expected the outcome "handoff", but the reply was "answered".',
      'The reply does not contain "tomorrow".',
      'The reply contains "days", which it must not.',
    ]);
    // Nothing of the run is anywhere else: no conversation, message, event, credit or use count.
    expect(
      await t.ctx.db.select({ n: count() }).from(conversations).where(eq(conversations.workspaceId, w.ws)),
    ).toEqual(before.conversations);
    expect(
      await t.ctx.db.select({ n: count() }).from(messages).where(eq(messages.workspaceId, w.ws)),
    ).toEqual(before.messages);
    expect(await t.ctx.db.select({ n: count() }).from(events).where(eq(events.workspaceId, w.ws))).toEqual(
      before.events,
    );
    expect(
      await t.ctx.db.select().from(workspaceCredits).where(eq(workspaceCredits.workspaceId, w.ws)),
    ).toEqual(before.credits);
    const [answer] = await t.ctx.db.select().from(curatedAnswers).where(eq(curatedAnswers.id, s.answer.id));
    expect(answer?.usedCount).toBe(0);
  });

  it('removing the source a test cites fails that test and only it, by itself, and notifies owners and admins', async () => {
    const s = await shopAssistant();
    const noticesBefore = await t.ctx.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.workspaceId, w.ws), eq(notifications.type, 'assistant.tests_failed')));
    t.startJobs(['test-runs'], { 'test-runs': 50 });
    try {
      const del = await t.request({
        method: 'DELETE',
        url: `/api/assistants/${s.a}/sources/${s.shipping.id}`,
        headers: w.owner.headers,
      });
      expect(del.statusCode).toBe(204);
      const [queued] = (await runsOf(s.a)).filter((r) => r.status === 'queued');
      expect(queued).toMatchObject({ trigger: 'knowledge' });
      await waitFor(
        async () => (await runsOf(s.a)).some((r) => r.id === queued!.id && r.status === 'done'),
        30_000,
        'the run',
      );
    } finally {
      await t.ctx.jobs.stop(5_000, ['test-runs']);
    }
    const run = (await runsOf(s.a)).find((r) => r.trigger === 'knowledge')!;
    const failed = run.results.filter((r) => !r.passed).map((r) => r.name);
    expect(failed.sort()).toEqual(['expects the impossible', 'shipping time']);
    const shipping = run.results.find((r) => r.name === 'shipping time')!;
    expect(shipping.previouslyPassed).toBe(true);
    expect(shipping.reasons).toContain(
      `The reply does not cite the source ${s.shipping.id}, which the assistant no longer has.`,
    );
    const notices = await t.ctx.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.workspaceId, w.ws), eq(notifications.type, 'assistant.tests_failed')));
    const fresh = notices.filter((n) => !noticesBefore.some((b) => b.id === n.id));
    // One each for the owner and the admin; the member and the guest get none.
    expect(new Set(fresh.map((n) => n.userId))).toEqual(new Set([w.owner.id, w.admin.id]));
    expect(fresh[0]?.title).toContain('1 test of Helper stopped passing');
    expect(fresh[0]?.body).toContain('shipping time');
  });
});

describe('when runs start', () => {
  it('a burst of changes shares one run, which keeps the first trigger; a manual start then takes it at once', async () => {
    const s = await shopAssistant();
    await t.request({
      method: 'PATCH',
      url: `/api/assistants/${s.a}`,
      headers: w.owner.headers,
      payload: { instructions: 'Be brief.' },
    });
    await addRule(t, w.owner, s.a, { name: 'tone', kind: 'tone', text: 'Warm.' });
    await addAnswer(t, w.owner, s.a, { question: 'q', answer: 'a' });
    const queued = (await runsOf(s.a)).filter((r) => r.status === 'queued');
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({ trigger: 'instructions' });
    const res = await startRun(s.a);
    expect(res.json().data).toMatchObject({ id: queued[0]!.id, trigger: 'manual', status: 'running' });
    const row = (await runsOf(s.a)).find((r) => r.id === queued[0]!.id)!;
    expect(row.runAfter.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it('concurrent manual starts get the same run; a start while one plays is a 409', async () => {
    const s = await shopAssistant();
    const starts = await Promise.all(Array.from({ length: 10 }, () => startRun(s.a)));
    expect(new Set(starts.map((r) => r.statusCode))).toEqual(new Set([202]));
    expect(new Set(starts.map((r) => r.json().data.id)).size).toBe(1);
    const claimed = await claimRun(t.ctx.db, 60_000);
    expect(claimed?.assistantId).toBe(s.a);
    const res = await startRun(s.a);
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('conflict:api');
    await playRun(t.ctx, claimed!);
  });

  it('a run is never claimed twice at once: 10 claims race, one wins', async () => {
    const s = await shopAssistant();
    await startRun(s.a);
    const claims = await Promise.all(Array.from({ length: 10 }, () => claimRun(t.ctx.db, 60_000)));
    const won = claims.filter((c) => c?.assistantId === s.a);
    expect(won).toHaveLength(1);
    for (const c of claims) if (c) await playRun(t.ctx, c);
  });
});

describe('restarts', () => {
  it('a process stopping mid-run gives the run back at once; it is played again in full', async () => {
    const s = await shopAssistant();
    const started = await startRun(s.a);
    const claimed = (await claimRun(t.ctx.db, 60_000))!;
    const stop = new AbortController();
    stop.abort();
    await playRun(t.ctx, claimed, stop.signal);
    const [back] = (await runsOf(s.a)).filter((r) => r.id === started.json().data.id);
    expect(back).toMatchObject({ status: 'queued', claimedUntil: null, attempts: 1 });
    await playDue();
    expect(await getRun(s.a, back!.id)).toMatchObject({ status: 'done', passed: 4, failed: 1 });
  });

  it('the run of a process that died is taken again once its claim lapses, from its first test', async () => {
    const s = await shopAssistant();
    const id = newId('run');
    // What a killed process leaves: a playing run, its claim in the past, some results written.
    await t.ctx.db.insert(testRuns).values({
      id,
      workspaceId: w.ws,
      assistantId: s.a,
      status: 'running',
      trigger: 'manual',
      attempts: 1,
      claimedUntil: new Date(Date.now() - 1000),
      results: [],
    });
    expect((await startRun(s.a)).statusCode).toBe(202); // its claim lapsed: not playing any more
    await playDue();
    const run = await getRun(s.a, id);
    expect(run).toMatchObject({ status: 'done', passed: 4, failed: 1 });
    const [row] = (await runsOf(s.a)).filter((r) => r.id === id);
    expect(row?.attempts).toBe(2);
  });

  it('a run that could not finish in three attempts ends failed, saying why', async () => {
    const s = await shopAssistant();
    const id = newId('run');
    await t.ctx.db.insert(testRuns).values({
      id,
      workspaceId: w.ws,
      assistantId: s.a,
      status: 'running',
      trigger: 'manual',
      attempts: 3,
      claimedUntil: new Date(Date.now() - 1000),
    });
    await playDue();
    const [row] = (await runsOf(s.a)).filter((r) => r.id === id);
    expect(row).toMatchObject({ status: 'failed', error: 'The run could not be finished in 3 attempts.' });
  });
});
