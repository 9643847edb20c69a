import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversations, workspaceCredits } from '../../src/db/schema/index.ts';
import { Admission } from '../../src/lib/admission.ts';
import { drainIngestion } from '../knowledge/helpers.ts';
import { postChat } from '../support/chat-client.ts';
import { startEmbeddingsServer } from '../support/embeddings-server.ts';
import { addSource, createAssistant } from '../support/factories.ts';
import { createTestApp, ORIGIN, type TestApp } from '../support/harness.ts';
import { createWorld, type World } from '../support/world.ts';
import { initWidget, SITE, widgetAssistant } from '../widget/helpers.ts';

/**
 * Overload (docs/configuration.md "Overload"): a chat the process cannot start in time is refused
 * at once with 503 and Retry-After, before anything is stored or charged; the chats already
 * started go on. The rules themselves on an injected clock; the refusal through a real socket,
 * where a chat whose body has not all arrived yet is deterministically still starting.
 */
/** Only the adaptive limit (and `maxStarting`, its ceiling), on a clock the test moves. */
const adaptive = (clock: { now: number }, maxStarting: number, targetStartMs = 20) =>
  new Admission({ maxStartingMs: 0, maxStarting, maxLoopDelayMs: 0, targetStartMs }, () => clock.now);

/** An adaptive limit alone, and `n` chats admitted at once that start `ms` later (then `ms` pass). */
const startingChats = (targetStartMs: number) => {
  const clock = { now: 0 };
  const a = adaptive(clock, 0, targetStartMs);
  const start = (n: number, ms: number) => {
    const chats = Array.from({ length: n }, () => a.admit());
    clock.now += ms;
    for (const c of chats) if ('started' in c) c.started();
    clock.now += ms;
  };
  return { a, clock, start };
};

describe('admission rules (lib/admission.ts)', () => {
  it('sheds when the oldest starting chat is too old, when too many are starting, or when the loop lags', () => {
    let now = 0;
    const a = new Admission({ maxStartingMs: 100, maxStarting: 3, maxLoopDelayMs: 50 }, () => now);
    const first = a.admit();
    if (!('started' in first)) throw new Error('the first chat was shed');
    now = 50;
    const second = a.admit();
    expect('started' in second).toBe(true);
    now = 101;
    expect(a.admit()).toEqual({ shed: 'behind' });
    first.started();
    // The oldest now arrived at 50: 51 ms ago.
    expect('started' in a.admit()).toBe(true);
    expect('started' in a.admit()).toBe(true);
    expect(a.inFlight).toBe(3);
    expect(a.admit()).toEqual({ shed: 'full' });
  });

  /**
   * An admission with the loop-delay rules on, and its probe's samples as they come: each taken
   * its period (20 ms) plus its delay after the last.
   */
  const probed = () => {
    const clock = { now: 0 };
    const a = new Admission({ maxStartingMs: 0, maxStarting: 0, maxLoopDelayMs: 50 }, () => clock.now);
    const probe = (ms: number) => {
      clock.now += 20 + ms;
      a.recordDelay(ms);
    };
    return { a, probe, clock };
  };

  it('sheds on a sustained loop delay only, not on one long pause', () => {
    const { a, probe, clock } = probed();
    probe(400);
    expect('started' in a.admit()).toBe(true);
    clock.now += 1000;
    for (let i = 0; i < 5; i++) probe(80);
    expect(a.admit()).toEqual({ shed: 'cpu' });
    probe(3);
    expect('started' in a.admit()).toBe(true);
  });

  it('sheds while the loop was late for more than half of the last second, in long stalls', () => {
    const { a, probe } = probed();
    expect('started' in a.admit()).toBe(true); // chats are coming
    // Stalls of 300 ms between samples on time: five late in a row never happens.
    probe(300);
    probe(2);
    expect('started' in a.admit()).toBe(true);
    probe(300);
    probe(2);
    expect(a.admit()).toEqual({ shed: 'cpu' });
    // A second on time later, the stalls are out of the window.
    for (let i = 0; i < 50; i++) probe(1);
    expect('started' in a.admit()).toBe(true);
  });

  it('sheds the chats read at the end of a stall once the loop was late before, not after one pause', () => {
    // The probe runs (its timer never fires here: the test never yields), so it is overdue by
    // whatever the clock moves past its first due time, as the loop is during a stall.
    const late = probed();
    const prompt = probed();
    late.a.start();
    prompt.a.start();
    try {
      expect('started' in late.a.admit()).toBe(true); // chats are coming
      late.a.recordDelay(300); // a quarter of the last second late: not five in a row, not half
      late.clock.now += 60; // 40 ms overdue: late, not beyond the 50 ms bound
      expect('started' in late.a.admit()).toBe(true);
      late.clock.now += 40; // 80 ms overdue: the requests that queued behind this stall are shed
      expect(late.a.admit()).toEqual({ shed: 'cpu' });
      // One long pause on a loop that was on time before sheds nothing.
      expect('started' in prompt.a.admit()).toBe(true);
      prompt.clock.now += 400;
      expect('started' in prompt.a.admit()).toBe(true);
    } finally {
      late.a.stop();
      prompt.a.stop();
    }
  });

  it('lets chats in after a stall before the first chat (a process starting), not after one later', () => {
    const { a, probe } = probed();
    // A cold process loading what its first requests need: 700 ms of the last second late.
    probe(700);
    const first = a.admit();
    if (!('started' in first)) throw new Error('the first chat was shed after the start-up stall');
    expect('started' in a.admit()).toBe(true);
    first.started();
    // Once chats come, a stall is the process behind: under overload chats may start quickly
    // while their streams wait for the loop (PGlite), so it counts whether or not one is starting.
    probe(700);
    expect(a.admit()).toEqual({ shed: 'cpu' });
  });

  it('adapts the limit on chats starting at once to their starting time (targetStartMs)', () => {
    const { a, clock, start: startMany } = startingChats(20);
    expect(a.startingLimit).toBe(8);
    // Eight may start together; the ninth is refused while they are starting.
    const eight = Array.from({ length: 8 }, () => a.admit());
    expect(eight.every((c) => 'started' in c)).toBe(true);
    expect(a.admit()).toEqual({ shed: 'full' });
    clock.now += 5;
    for (const c of eight) if ('started' in c) c.started();
    // Fast starts raise it by 1/limit each: about one a limit's worth of chats.
    for (let i = 0; i < 40; i++) startMany(1, 5);
    const raised = a.startingLimit;
    expect(raised).toBeGreaterThanOrEqual(11);
    // Slow starts of chats starting together bring it down, by a quarter at most once a starting
    // time, to 2 and no lower. (A chat alone that is slow is its own work, not a queue: see below.)
    startMany(2, 300);
    const afterOneStall = a.startingLimit;
    expect(afterOneStall).toBeLessThan(raised);
    expect(afterOneStall).toBeGreaterThanOrEqual(Math.floor(raised * 0.75) - 1);
    for (let i = 0; i < 40; i++) startMany(2, 300);
    expect(a.startingLimit).toBe(2);
    const two = [a.admit(), a.admit()];
    expect(two.every((c) => 'started' in c)).toBe(true);
    expect(a.admit()).toEqual({ shed: 'full' });
    for (const c of two) if ('started' in c) c.started();
    // The smoothed average comes back under the target: the limit grows again.
    for (let i = 0; i < 100; i++) startMany(1, 2);
    expect(a.startingLimit).toBeGreaterThan(2);
  });

  it('holds chats to three times their own quiet starting time where that is longer than the target', () => {
    const { a, start } = startingChats(5);
    // A knowledge base whose search takes 12 ms: each chat, alone, starts in 12 ms. Held to the
    // 5 ms target, the limit would fall to 2 and a quiet process would refuse a chat arriving while
    // two others start; held to three times 12 ms, it rises.
    for (let i = 0; i < 100; i++) start(1, 12);
    expect(a.startingLimit).toBeGreaterThan(8);
    const raised = a.startingLimit;
    // Chats waiting on each other (six at once, each 60 ms): above 36 ms, the limit comes down.
    for (let i = 0; i < 20; i++) start(6, 60);
    expect(a.startingLimit).toBeLessThan(raised);
    expect(a.startingLimit).toBe(2);
  });

  it('a chat counts once: its started() again (the response closing after it started) is a no-op', () => {
    const clock = { now: 0 };
    const a = adaptive(clock, 0);
    const c = a.admit();
    if (!('started' in c)) throw new Error('shed');
    clock.now = 5000;
    c.started();
    c.started();
    expect(a.inFlight).toBe(0);
    // One slow start: one cut, by a quarter.
    expect(a.startingLimit).toBe(6);
  });

  it('the adaptive limit never rises above CHAT_MAX_STARTING', () => {
    const clock = { now: 0 };
    const a = adaptive(clock, 3);
    for (let i = 0; i < 200; i++) {
      const c = a.admit();
      clock.now += 1;
      if ('started' in c) c.started();
    }
    expect(a.startingLimit).toBe(3);
    const three = [a.admit(), a.admit(), a.admit()];
    expect(three.every((c) => 'started' in c)).toBe(true);
    expect(a.admit()).toEqual({ shed: 'full' });
  });

  it('sheds nothing with every rule at 0', () => {
    const a = new Admission({ maxStartingMs: 0, maxStarting: 0, maxLoopDelayMs: 0 }, () => 0);
    for (let i = 0; i < 1000; i++) a.recordDelay(10_000);
    for (let i = 0; i < 100; i++) expect('started' in a.admit()).toBe(true);
  });
});

describe('POST /api/chat under overload', () => {
  let t: TestApp;
  let w: World;
  let assistantId: string;
  let base: string;
  let model: Awaited<ReturnType<typeof startEmbeddingsServer>>;
  beforeAll(async () => {
    model = await startEmbeddingsServer({ order: 'order', parcel: 'order' }, 16);
    t = await createTestApp({
      CHAT_MAX_STARTING: '1',
      EMBEDDINGS_PROVIDER: 'openai',
      EMBEDDINGS_BASE_URL: model.url,
      EMBEDDINGS_MODEL: 'stand-in',
      EMBEDDINGS_DIMENSIONS: '16',
    });
    w = await createWorld(t);
    assistantId = await createAssistant(t, w.owner, w.ws);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await t.close();
    await model.close();
  });

  const body = (content: string) => JSON.stringify({ assistantId, content });
  const stored = async () =>
    (await t.ctx.db.select({ n: count() }).from(conversations).where(eq(conversations.workspaceId, w.ws)))[0]!
      .n;
  const used = async () =>
    (await t.ctx.db.select().from(workspaceCredits).where(eq(workspaceCredits.workspaceId, w.ws)))[0]?.used ??
    0;

  it('refuses a chat while another is still starting: 503, Retry-After, nothing stored or charged', async () => {
    // A chat whose body is still arriving is admitted (its arrival counts) and still starting.
    const full = body('Where is my order?');
    const slow = request(`${base}/api/chat`, {
      method: 'POST',
      headers: {
        ...w.owner.headers,
        origin: ORIGIN,
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(full),
      },
    });
    const slowAnswer = new Promise<{ status: number; text: string }>((resolve, reject) => {
      slow.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          text += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      slow.on('error', reject);
    });
    slow.write(full.slice(0, 10));
    slow.flushHeaders();
    for (let i = 0; i < 100 && t.ctx.admission.inFlight === 0; i++)
      await new Promise((r) => setTimeout(r, 10));
    expect(t.ctx.admission.inFlight).toBe(1);
    const conversationsBefore = await stored();
    const creditsBefore = await used();

    const shed = await postChat(`${base}/api/chat`, {
      headers: { ...w.owner.headers, origin: ORIGIN },
      body: body('Hello?'),
    });
    expect(shed.status).toBe(503);
    expect(JSON.parse(shed.body)).toEqual({
      error: 'Too many conversations are starting right now; send it again in a moment',
      code: 'service_unavailable:api',
      details: { retryAfter: 1 },
    });
    expect(await stored()).toBe(conversationsBefore);
    expect(await used()).toBe(creditsBefore);

    // The started chat goes on and is answered whole.
    slow.end(full.slice(10));
    const answered = await slowAnswer;
    expect(answered.status).toBe(200);
    expect(answered.text).toContain('"type":"finish"');
    expect(await stored()).toBe(conversationsBefore + 1);

    // Nothing starting: the next chat is admitted.
    const next = await postChat(`${base}/api/chat`, {
      headers: { ...w.owner.headers, origin: ORIGIN },
      body: body('Hello again'),
    });
    expect(next.status).toBe(200);
    expect(next.finish).toBeGreaterThan(0);
    expect(t.ctx.admission.inFlight).toBe(0);
  });

  it('says when to come back in Retry-After and counts the refusal for /metrics', async () => {
    const slow = request(`${base}/api/chat`, {
      method: 'POST',
      headers: {
        ...w.owner.headers,
        origin: ORIGIN,
        'content-type': 'application/json',
        'content-length': '1000',
      },
    });
    slow.on('error', () => undefined);
    slow.write('{');
    slow.flushHeaders();
    for (let i = 0; i < 100 && t.ctx.admission.inFlight === 0; i++)
      await new Promise((r) => setTimeout(r, 10));
    const res = await fetch(`${base}/api/chat`, {
      method: 'POST',
      headers: { ...w.owner.headers, origin: ORIGIN, 'content-type': 'application/json' },
      body: body('Hi'),
    });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('1');
    const metrics = await t.ctx.metrics.registry.getSingleMetricAsString('parley_chats_shed_total');
    expect(metrics).toMatch(/parley_chats_shed_total\{reason="full"\} [1-9]/);
    slow.destroy();
    for (let i = 0; i < 100 && t.ctx.admission.inFlight > 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(t.ctx.admission.inFlight).toBe(0);
  });

  it('a shed widget chat carries the CORS headers for its allowlisted page only', async () => {
    const widget = await widgetAssistant(t, w.owner, w.ws);
    const session = await initWidget(t, widget);
    const slow = request(`${base}/api/chat`, {
      method: 'POST',
      headers: {
        ...w.owner.headers,
        origin: ORIGIN,
        'content-type': 'application/json',
        'content-length': '1000',
      },
    });
    slow.on('error', () => undefined);
    slow.write('{');
    slow.flushHeaders();
    for (let i = 0; i < 100 && t.ctx.admission.inFlight === 0; i++)
      await new Promise((r) => setTimeout(r, 10));
    const chat = (origin: string) =>
      fetch(`${base}/api/widget/${widget}/chat`, {
        method: 'POST',
        headers: { origin, authorization: `Widget ${session.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ sessionId: session.sessionId, content: 'Hello?' }),
      });
    // The page may read the refusal and its wait (widget-access.ts lookupGrantedOrigin).
    const mine = await chat(SITE);
    expect(mine.status).toBe(503);
    expect(mine.headers.get('access-control-allow-origin')).toBe(SITE);
    expect((await mine.json()).details).toEqual({ retryAfter: 1 });
    const other = await chat('https://elsewhere.example.org');
    expect(other.status).toBe(503);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    slow.destroy();
    for (let i = 0; i < 100 && t.ctx.admission.inFlight > 0; i++) await new Promise((r) => setTimeout(r, 10));
  });

  it('counts a chat as starting until its context is read: a slow embeddings model keeps it starting', async () => {
    // An assistant with knowledge: its context read embeds the question (the stand-in model).
    const knowing = await createAssistant(t, w.owner, w.ws);
    await addSource(t, w.owner, knowing, {
      type: 'qa',
      name: 'FAQ',
      pairs: [{ question: 'Where is my order?', answer: 'Orders ship in two days.' }],
    });
    await drainIngestion(t);
    const release = model.hold();
    const slow = postChat(`${base}/api/chat`, {
      headers: { ...w.owner.headers, origin: ORIGIN },
      body: JSON.stringify({ assistantId: knowing, content: 'Where is my parcel?' }),
    });
    for (let i = 0; i < 200 && model.pending() === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(model.pending()).toBe(1);
    // Its context is still being read: it is starting, and the next chat is shed.
    expect(t.ctx.admission.inFlight).toBe(1);
    const shed = await postChat(`${base}/api/chat`, {
      headers: { ...w.owner.headers, origin: ORIGIN },
      body: body('Hello?'),
    });
    expect(shed.status).toBe(503);
    release();
    expect((await slow).status).toBe(200);
    expect(t.ctx.admission.inFlight).toBe(0);
  });
});
