import { describe, expect, it } from 'vitest';
import { mapOnEventLoop } from '../../src/lib/on-event-loop.ts';

/** About a millisecond of CPU work per item. */
const busy = (n: number) => {
  const until = performance.now() + 1;
  let x = n;
  while (performance.now() < until) x = (x * 31 + 7) % 1_000_003;
  return n;
};

describe('mapOnEventLoop', () => {
  it('gives way to other work between items once it has held the loop, and keeps their order', async () => {
    const items = Array.from({ length: 50 }, (_, i) => i);
    let turns = 0;
    let done = false;
    const tick = () =>
      setImmediate(() => {
        turns++;
        if (!done) tick();
      });
    tick();
    const out = await mapOnEventLoop(items, busy);
    done = true;
    expect(out).toEqual(items);
    // 50 ms of work in slices of 2 ms: other callbacks ran in between, not only after
    expect(turns).toBeGreaterThan(5);
  });

  it('maps a short list at once, without waiting a turn', async () => {
    let turned = false;
    setImmediate(() => {
      turned = true;
    });
    expect(await mapOnEventLoop(['one query'], (s) => s.length)).toEqual([9]);
    expect(turned).toBe(false);
  });

  it('stops between slices once aborted', async () => {
    const controller = new AbortController();
    let mapped = 0;
    const run = mapOnEventLoop(
      Array.from({ length: 200 }, (_, i) => i),
      (i) => {
        mapped++;
        return busy(i);
      },
      controller.signal,
    );
    controller.abort();
    await expect(run).rejects.toThrow();
    expect(mapped).toBeLessThan(200);
  });
});
