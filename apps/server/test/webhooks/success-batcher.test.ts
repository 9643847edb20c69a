import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Executor } from '../../src/db/client.ts';
import { SuccessBatcher } from '../../src/features/webhooks/success-batcher.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { waitFor } from '../support/wait.ts';

// The delivery worker's successes are written together, one write at a time: what arrives while a
// write waits for the database goes in the next (src/features/webhooks/success-batcher.ts).
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** The app's database, counting the statements run through it. */
function counted(db: Executor) {
  const seen = { statements: 0 };
  const proxy = new Proxy(db, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (prop === 'execute') {
        return (...args: unknown[]) => {
          seen.statements++;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { db: proxy, seen };
}

const success = (id: string) => ({
  id,
  lockedUntil: new Date(),
  attempt: 1,
  statusCode: 200,
  durationMs: 3,
  at: new Date(),
});

describe('the successes batcher', () => {
  it('holds what comes while a write waits, and writes it in one statement once that write ends', async () => {
    const { db, seen } = counted(t.ctx.db);
    const batcher = new SuccessBatcher(db, 200, 5);
    let release!: () => void;
    let locked!: () => void;
    const held = new Promise<void>((r) => {
      locked = r;
    });
    // Another transaction holds the table, so the first write waits for it.
    const holder = t.ctx.db.transaction(async (tx) => {
      await tx.execute(sql`lock table webhook_deliveries in access exclusive mode`);
      locked();
      await new Promise<void>((r) => {
        release = r;
      });
    });
    await held;
    const first = batcher.record(success('whd_first'));
    await waitFor(() => seen.statements === 1, 5000, 'the first write under way');
    const later = Array.from({ length: 10 }, (_, i) => batcher.record(success(`whd_later_${i}`)));
    await new Promise((r) => setTimeout(r, 100));
    expect(seen.statements).toBe(1);
    release();
    await holder;
    // No such deliveries: each is told its row was not there to finish.
    expect(await Promise.all([first, ...later])).toEqual(Array(11).fill(false));
    expect(seen.statements).toBe(2);
  });

  it('splits a backlog into statements of at most its batch size', async () => {
    const { db, seen } = counted(t.ctx.db);
    const batcher = new SuccessBatcher(db, 4, 5);
    const all = Array.from({ length: 10 }, (_, i) => batcher.record(success(`whd_split_${i}`)));
    expect(await Promise.all(all)).toEqual(Array(10).fill(false));
    expect(seen.statements).toBe(3);
  });
});
