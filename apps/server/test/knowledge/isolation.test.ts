import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backfillStep, requestBackfill } from '../../src/features/knowledge/retrieval/vector-backfill.ts';
import { useVectorIndex } from '../../src/features/knowledge/retrieval/vector-index.ts';
import { onPostgres } from '../support/database.ts';
import { addSource, createAssistant, signupUser } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { insertWorkspace } from '../support/world.ts';
import { drainIngestion, search } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** A tiny seeded PRNG so the property test is reproducible. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
const VOCAB =
  'refund shipping invoice warranty return parcel courier account password billing discount coupon order tracking size colour stock delivery payment card'.split(
    ' ',
  );

describe('namespace isolation (property)', () => {
  it('never returns another assistant’s chunks, across many workspaces and assistants', async () => {
    const rand = rng(42);
    const pick = () => VOCAB[Math.floor(rand() * VOCAB.length)]!;
    const assistants: Array<{ id: string; user: Awaited<ReturnType<typeof signupUser>>; marker: string }> =
      [];
    for (let wsN = 0; wsN < 4; wsN++) {
      const owner = await signupUser(t);
      const ws = await insertWorkspace(t, owner);
      for (let a = 0; a < 3; a++) {
        const id = await createAssistant(t, owner, ws);
        const marker = `marker${wsN}x${a}`;
        // shared vocabulary everywhere, plus one marker word unique to this assistant
        const text = Array.from({ length: 6 }, () => `${pick()} ${pick()} ${pick()} ${marker}.`).join('\n\n');
        await addSource(t, owner, id, { type: 'text', name: `s${a}`, text });
        assistants.push({ id, user: owner, marker });
      }
    }
    await drainIngestion(t);
    const mine = new Map<string, Set<string>>();
    for (const a of assistants) {
      const hits = await search(t, a.user, a.id, `${pick()} ${pick()} ${a.marker}`, 20);
      mine.set(a.id, new Set(hits.map((h) => h.chunkId)));
      for (const h of hits) expect(h.content).toContain(a.marker);
      // other assistants' unique words are never visible here
      for (const other of assistants.filter((o) => o.id !== a.id).slice(0, 3)) {
        const leaked = await search(t, a.user, a.id, other.marker, 20);
        for (const h of leaked) expect(h.content).toContain(a.marker);
      }
    }
    // chunk ids are disjoint between assistants
    const all = [...mine.values()].flatMap((s) => [...s]);
    expect(new Set(all).size).toBe(all.length);
    // 12 assistants and 48 searches: 2 minutes, for a loaded machine.
  }, 120_000);
});

describe('vector paths agree', () => {
  it.skipIf(onPostgres())('HNSW and exact search return the same neighbours on the same data', async () => {
    const owner = await signupUser(t);
    const ws = await insertWorkspace(t, owner);
    const id = await createAssistant(t, owner, ws);
    const rand = rng(7);
    const text = Array.from(
      { length: 120 },
      (_, i) =>
        `Topic ${i}: ${VOCAB[i % VOCAB.length]} ${VOCAB[Math.floor(rand() * VOCAB.length)]} number${i}.`,
    ).join('\n\n');
    await addSource(t, owner, id, { type: 'text', name: 'many', text });
    await drainIngestion(t);
    // a namespace this small carries no HNSW vectors until asked for (vector-backfill.ts)
    await requestBackfill(t.ctx, [id]);
    while (await backfillStep(t.ctx));
    const exact = useVectorIndex(t.ctx, 'exact');
    const hnsw = useVectorIndex(t.ctx, 'hnsw');
    let overlap = 0;
    let total = 0;
    for (const q of ['refund shipping', 'warranty return parcel', 'billing card payment', 'number17 stock']) {
      const [v] = await t.ctx.embedder.embed([q]);
      if (!v) throw new Error('no vector');
      const a = (await exact.nearest([id], v, 10)).map((h) => h.id);
      const b = (await hnsw.nearest([id], v, 10)).map((h) => h.id);
      overlap += a.filter((x) => b.includes(x)).length;
      total += a.length;
    }
    expect(total).toBeGreaterThan(0);
    expect(overlap / total).toBeGreaterThanOrEqual(0.95);
  });
});
