import { describe, expect, it } from 'vitest';
import { Lanes } from '../../src/lib/lanes.ts';

const tick = () => new Promise<void>((r) => setImmediate(r));
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** A background task that records when it ran and finishes when told to. */
function task(log: string[], name: string) {
  let finish!: () => void;
  const done = new Promise<void>((r) => {
    finish = r;
  });
  return {
    run: async () => {
      log.push(name);
      await done;
      return name;
    },
    finish: () => finish(),
  };
}

/** lib/lanes.ts: foreground work (a chat until its first event) before background work. */
describe('Lanes', () => {
  it('runs background work at once while no foreground work is in flight', async () => {
    const lanes = new Lanes();
    await expect(lanes.background(async () => 42)).resolves.toBe(42);
    expect(lanes.state).toEqual({ foreground: 0, background: 0, waiting: 0 });
  });

  it('holds background work while foreground work is in flight, then runs it in order', async () => {
    const lanes = new Lanes({ maxConcurrent: 4, maxWaitMs: 10_000 });
    const log: string[] = [];
    const end = lanes.foreground();
    const a = lanes.background(async () => log.push('a'));
    const b = lanes.background(async () => log.push('b'));
    await tick(); // a turn of the event loop: queued work that could start has started
    expect(log).toEqual([]);
    expect(lanes.state).toEqual({ foreground: 1, background: 0, waiting: 2 });
    end();
    await Promise.all([a, b]);
    expect(log).toEqual(['a', 'b']);
  });

  it('waits for every foreground task, not just the first to end', async () => {
    const lanes = new Lanes({ maxWaitMs: 10_000 });
    const log: string[] = [];
    const first = lanes.foreground();
    const second = lanes.foreground();
    const bg = lanes.background(async () => log.push('bg'));
    first();
    first(); // a second call is a no-op, it must not end `second`
    await tick();
    expect(log).toEqual([]);
    second();
    await bg;
    expect(log).toEqual(['bg']);
  });

  it('runs at most maxConcurrent background tasks at once', async () => {
    const lanes = new Lanes({ maxConcurrent: 2 });
    const log: string[] = [];
    const tasks = ['a', 'b', 'c'].map((n) => task(log, n));
    const results = tasks.map((t) => lanes.background(t.run));
    await tick();
    expect(log).toEqual(['a', 'b']);
    expect(lanes.state.waiting).toBe(1);
    tasks[1]!.finish();
    await tick();
    expect(log).toEqual(['a', 'b', 'c']);
    for (const t of tasks) t.finish();
    await expect(Promise.all(results)).resolves.toEqual(['a', 'b', 'c']);
  });

  it('by default runs one background task at a time (decision 0009)', async () => {
    const lanes = new Lanes();
    const log: string[] = [];
    const tasks = ['a', 'b'].map((n) => task(log, n));
    const results = tasks.map((t) => lanes.background(t.run));
    await tick();
    expect(log).toEqual(['a']);
    expect(lanes.state).toEqual({ foreground: 0, background: 1, waiting: 1 });
    tasks[0]!.finish();
    await tick();
    expect(log).toEqual(['a', 'b']);
    tasks[1]!.finish();
    await expect(Promise.all(results)).resolves.toEqual(['a', 'b']);
  });

  it('never starves: a task waiting longer than maxWaitMs runs beside foreground work', async () => {
    const lanes = new Lanes({ maxWaitMs: 40 });
    const end = lanes.foreground();
    const started = performance.now();
    let ranAt = 0;
    await lanes.background(async () => {
      ranAt = performance.now() - started;
    });
    expect(ranAt).toBeGreaterThanOrEqual(35);
    expect(lanes.state.foreground).toBe(1);
    end();
  });

  it('a failing task frees its slot and the next one runs', async () => {
    const lanes = new Lanes({ maxConcurrent: 1 });
    const failed = lanes.background(async () => {
      throw new Error('boom');
    });
    const next = lanes.background(async () => 'next');
    await expect(failed).rejects.toThrow('boom');
    await expect(next).resolves.toBe('next');
    expect(lanes.state).toEqual({ foreground: 0, background: 0, waiting: 0 });
  });

  it('under a steady stream of foreground work every background task still finishes', async () => {
    const lanes = new Lanes({ maxConcurrent: 2, maxWaitMs: 30 });
    let stop = false;
    // Overlapping foreground work, so there is never a moment without any in flight.
    const churn = (async () => {
      let previous = lanes.foreground();
      while (!stop) {
        const next = lanes.foreground();
        previous();
        previous = next;
        await sleep(2); // the time between chats is what the starvation limit is about
      }
      previous();
    })();
    const done = await Promise.all(Array.from({ length: 10 }, (_, i) => lanes.background(async () => i)));
    stop = true;
    await churn;
    expect(done).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('overdue work catches up overdueConcurrent at a time, and only once it is overdue', async () => {
    const lanes = new Lanes({ maxConcurrent: 1, maxWaitMs: 40, overdueConcurrent: 3 });
    const log: string[] = [];
    const tasks = ['a', 'b', 'c', 'd'].map((n) => task(log, n));
    const end = lanes.foreground();
    const results = tasks.map((t) => lanes.background(t.run));
    await sleep(10);
    expect(log).toEqual([]);
    await sleep(50);
    // Past maxWaitMs beside foreground work: three at once, not one.
    expect(log).toEqual(['a', 'b', 'c']);
    expect(lanes.state).toEqual({ foreground: 1, background: 3, waiting: 1 });
    tasks[0]!.finish();
    await tick();
    expect(log).toEqual(['a', 'b', 'c', 'd']);
    for (const t of tasks.slice(1)) t.finish();
    await expect(Promise.all(results)).resolves.toEqual(['a', 'b', 'c', 'd']);
    // With nothing overdue, maxConcurrent again.
    end();
    const fresh = ['e', 'f'].map((n) => task(log, n));
    const more = fresh.map((t) => lanes.background(t.run));
    await tick();
    expect(log.slice(4)).toEqual(['e']);
    for (const t of fresh) t.finish();
    await expect(Promise.all(more)).resolves.toEqual(['e', 'f']);
  });
});
