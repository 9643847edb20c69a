import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import {
  backfillStep,
  hasVectorColumn,
  requestBackfill,
} from '../../src/features/knowledge/retrieval/vector-backfill.ts';
import { useVectorIndex } from '../../src/features/knowledge/retrieval/vector-index.ts';
import { addSource, createAssistant, signupUser } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { waitFor } from '../support/wait.ts';
import { insertWorkspace } from '../support/world.ts';
import { drainIngestion, search } from './helpers.ts';

/**
 * Deferred vectors (docs/decisions/0004-knowledge.md): chunks of namespaces searched exactly
 * carry no HNSW vector; a search past the exact threshold asks for a backfill, after which the
 * index answers, and every path returns the same neighbours as the exact scan.
 */
let t: TestApp;
let vectors = false;
beforeAll(async () => {
  t = await createTestApp();
  vectors = await hasVectorColumn(t.ctx);
});
afterAll(() => t.close());

const VOCAB =
  'refund shipping invoice warranty return parcel courier account password billing discount coupon order tracking size colour stock delivery payment card'.split(
    ' ',
  );
const QUESTIONS = ['refund shipping', 'warranty return parcel', 'billing card payment', 'number17 stock'];

/** An assistant with `n` chunks (one per section). */
async function assistantWith(n: number, seed: number) {
  const owner = await signupUser(t);
  const ws = await insertWorkspace(t, owner);
  const id = await createAssistant(t, owner, ws);
  const text = Array.from(
    { length: n },
    (_, i) =>
      `## Topic ${i}\n\n${VOCAB[(i * seed) % VOCAB.length]} ${VOCAB[(i + seed) % VOCAB.length]} number${i}.`,
  ).join('\n\n');
  await addSource(t, owner, id, { type: 'text', name: `doc${seed}`, text });
  await drainIngestion(t);
  return { owner, id };
}

async function vectorCounts(namespace: string) {
  const [row] = await queryRows<{ total: number; filled: number }>(
    t.ctx.db,
    sql`select count(*)::int as total, count(embedding_v)::int as filled from knowledge_chunks where namespace = ${namespace}`,
  );
  return { total: Number(row?.total), filled: Number(row?.filled) };
}

async function listed(namespace: string) {
  const rows = await queryRows<{ ready: boolean }>(
    t.ctx.db,
    sql`select ready from knowledge_vector_namespaces where namespace = ${namespace}`,
  );
  return rows[0]?.ready ?? null;
}

async function drainBackfill() {
  for (let i = 0; i < 1000; i++) if (!(await backfillStep(t.ctx, 25))) return;
  throw new Error('backfill did not drain');
}

/** Share of the exact top-10 that `kind` also returns, over the sample questions. */
async function agreement(namespaces: string[], index: ReturnType<typeof useVectorIndex>) {
  const exact = useVectorIndex(t.ctx, 'exact');
  let overlap = 0;
  let total = 0;
  for (const q of QUESTIONS) {
    const [v] = await t.ctx.embedder.embed([q]);
    if (!v) throw new Error('no vector');
    const truth = (await exact.nearest(namespaces, v, 10)).map((h) => h.id);
    const got = (await index.nearest(namespaces, v, 10)).map((h) => h.id);
    overlap += truth.filter((x) => got.includes(x)).length;
    total += truth.length;
  }
  expect(total).toBeGreaterThan(0);
  return overlap / total;
}

describe('deferred vectors', () => {
  it('small namespaces are ingested without HNSW vectors and searched exactly', async (c) => {
    if (!vectors) c.skip();
    const a = await assistantWith(30, 3);
    expect(await vectorCounts(a.id)).toEqual({ total: 30, filled: 0 });
    expect(await listed(a.id)).toBeNull();
    const adaptive = useVectorIndex(t.ctx, 'adaptive');
    expect(await agreement([a.id], adaptive)).toBe(1);
    // still nothing asked: the namespace stays under the threshold
    expect(await listed(a.id)).toBeNull();
    const hits = await search(t, a.owner, a.id, 'number7 topic', 3);
    expect(hits[0]?.content).toContain('number7');
  });

  it('a search past the threshold backfills, then the index answers like the exact scan', async (c) => {
    if (!vectors) c.skip();
    const a = await assistantWith(40, 5);
    const b = await assistantWith(40, 7);
    const adaptive = useVectorIndex(t.ctx, 'adaptive', { exactMaxChunks: 50 });
    // 80 chunks > 50: neither is ready, so both are scanned exactly and a backfill is asked for
    expect(await agreement([a.id, b.id], adaptive)).toBe(1);
    expect(await listed(a.id)).toBe(false);
    expect(await listed(b.id)).toBe(false);

    // half way: a mixed search (index for a, exact scan for b) still matches the exact one
    await drainBackfill();
    expect(await vectorCounts(a.id)).toEqual({ total: 40, filled: 40 });
    expect(await listed(a.id)).toBe(true);
    expect(await listed(b.id)).toBe(true);
    await t.ctx.db.execute(
      sql`update knowledge_vector_namespaces set ready = false where namespace = ${b.id}`,
    );
    expect(await agreement([a.id, b.id], adaptive)).toBeGreaterThanOrEqual(0.95);
    await drainBackfill();

    expect(await agreement([a.id, b.id], adaptive)).toBeGreaterThanOrEqual(0.95);
    expect(await agreement([a.id, b.id], useVectorIndex(t.ctx, 'hnsw'))).toBeGreaterThanOrEqual(0.95);

    // new chunks of a listed namespace get their vector on insert
    await addSource(t, a.owner, a.id, { type: 'text', name: 'more', text: 'Gift cards never expire.' });
    await drainIngestion(t);
    expect(await vectorCounts(a.id)).toEqual({ total: 41, filled: 41 });
    useVectorIndex(t.ctx, 'adaptive');
  });

  it('the running worker fills a requested namespace by itself', async (c) => {
    if (!vectors) c.skip();
    const a = await assistantWith(12, 11);
    const worker = t.startJobs(['ingestion'], { ingestion: 50 });
    try {
      await requestBackfill(t.ctx, [a.id]);
      await waitFor(async () => (await listed(a.id)) === true, 15_000, 'the namespace listed as filled');
      expect(await vectorCounts(a.id)).toEqual({ total: 12, filled: 12 });
    } finally {
      await worker.stop();
    }
  });

  it('without pgvector there is nothing to backfill and search stays exact', async (c) => {
    if (vectors) c.skip();
    const a = await assistantWith(10, 13);
    await requestBackfill(t.ctx, [a.id]);
    expect(await backfillStep(t.ctx)).toBe(false);
    const hits = await search(t, a.owner, a.id, 'number3 topic', 3);
    expect(hits[0]?.content).toContain('number3');
  });
});
