/**
 * Knowledge benchmark (docs/performance.md "Knowledge"): ingestion throughput through the real pipeline
 * (chunk, built-in embedder, store) and retrieval latency for a 10,000-chunk namespace among 100,000,
 * with recall@10 of the index against exact search. Runs on PGlite, or on PostgreSQL when
 * DATABASE_URL is set (a scratch database is created and dropped).
 *
 *   npx tsx bench/knowledge.ts                 # PGlite
 *   DATABASE_URL=postgres://... npx tsx bench/knowledge.ts
 *
 * KB_TOTAL (default 100000) and KB_NAMESPACE (default 10000) size the data; KB_QUERIES (200).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createContext } from '../apps/server/src/bootstrap.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { migrateDatabase } from '../apps/server/src/db/migrate.ts';
import {
  assistants,
  knowledgeSources,
  memberships,
  users,
  workspaces,
} from '../apps/server/src/db/schema/index.ts';
import { ingestionStep } from '../apps/server/src/features/knowledge/ingestion/ingest.jobs.ts';
import { retrieve } from '../apps/server/src/features/knowledge/retrieval/retrieval.ts';
import {
  backfillStep,
  requestBackfill,
} from '../apps/server/src/features/knowledge/retrieval/vector-backfill.ts';
import { useVectorIndex } from '../apps/server/src/features/knowledge/retrieval/vector-index.ts';

const TOTAL = Number(process.env.KB_TOTAL ?? 100_000);
const NAMESPACE = Number(process.env.KB_NAMESPACE ?? 10_000);
const QUERIES = Number(process.env.KB_QUERIES ?? 200);
const ASSISTANTS = Math.max(1, Math.round(TOTAL / NAMESPACE));

const WORDS =
  'refund shipping invoice warranty return parcel courier account password billing discount coupon order tracking size colour stock delivery payment card subscription upgrade plan cancel trial export login email phone address store hours holiday weekend manager support ticket priority battery charger cable screen laptop phone tablet printer ink paper desk chair lamp kettle mug plate bowl fork knife spoon towel blanket pillow'.split(
    ' ',
  );

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** A document of `n` paragraphs that the chunker turns into about `n` chunks. */
function synthDoc(n: number, seed: number): string {
  const r = rng(seed);
  const para = () =>
    `${Array.from({ length: 40 + Math.floor(r() * 30) }, () => WORDS[Math.floor(r() * WORDS.length)]).join(' ')} item${Math.floor(r() * 1e6)}.`;
  return Array.from({ length: n }, (_, i) => `## Section ${i}\n\n${para()}`).join('\n\n');
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};

export async function runKnowledgeBench() {
  const url = process.env.DATABASE_URL;
  let dropDb: (() => Promise<void>) | undefined;
  let database: Awaited<ReturnType<typeof openDatabase>>;
  if (url) {
    const name = `parley_bench_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const u = new URL(url);
    u.pathname = `/${name}`;
    database = await openDatabase({ kind: 'postgres', url: u.toString(), poolSize: 10 });
    dropDb = async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    };
  } else {
    database = await openDatabase({ kind: 'pglite' });
  }
  const { vector } = await migrateDatabase(database);
  const config = loadConfig({ DATA_DIR: mkdtempSync(join(tmpdir(), 'parley-bench-')), LOG_LEVEL: 'silent' });
  const ctx = createContext(config, database);
  const db = ctx.db;

  await db.insert(users).values({ id: 'usr_bench', email: 'bench@example.com', name: 'Bench' });
  await db.insert(workspaces).values({ id: 'ws_bench', name: 'Bench', slug: 'bench', ownerId: 'usr_bench' });
  await db.insert(memberships).values({ workspaceId: 'ws_bench', userId: 'usr_bench', role: 'owner' });
  const ids = Array.from({ length: ASSISTANTS }, (_, i) => `asst_bench${i}`);
  await db.insert(assistants).values(ids.map((id) => ({ id, workspaceId: 'ws_bench', name: id })));

  // Ingestion: every assistant gets one text source of NAMESPACE paragraphs; the first one is timed alone.
  const addSource = (assistantId: string, i: number) =>
    db.insert(knowledgeSources).values({
      id: `src_bench${i}`,
      workspaceId: 'ws_bench',
      assistantId,
      type: 'text',
      name: `doc ${i}`,
      config: { text: synthDoc(NAMESPACE, i + 1) },
    });
  await addSource(ids[0]!, 0);
  let t0 = performance.now();
  while ((await ingestionStep(ctx, 1)) > 0);
  const firstSeconds = (performance.now() - t0) / 1000;
  const chunksPerSecond = NAMESPACE / firstSeconds;
  console.log(
    `ingestion: ${NAMESPACE} chunks in ${firstSeconds.toFixed(1)} s = ${chunksPerSecond.toFixed(0)} chunks/s`,
  );
  t0 = performance.now();
  for (let i = 1; i < ids.length; i++) await addSource(ids[i]!, i);
  while ((await ingestionStep(ctx, 1)) > 0);
  console.log(`filled ${TOTAL} chunks in ${((performance.now() - t0) / 1000 + firstSeconds).toFixed(0)} s`);

  const r = rng(99);
  const queries = Array.from({ length: QUERIES }, () =>
    Array.from({ length: 3 + Math.floor(r() * 4) }, () => WORDS[Math.floor(r() * WORDS.length)]).join(' '),
  );
  const target = ids[Math.floor(ids.length / 2)]!;
  const exact = useVectorIndex(ctx, 'exact');
  // hnsw last: its backfill rewrites the target's rows, and PGlite has no autovacuum
  const kinds: Array<'adaptive' | 'hnsw' | 'exact'> = vector ? ['adaptive', 'exact', 'hnsw'] : ['exact'];
  let backfillPerSecond: number | undefined;
  const results: Record<string, unknown> = {
    database: database.kind,
    total: TOTAL,
    namespace: NAMESPACE,
    chunksPerSecond,
  };
  for (const kind of kinds) {
    if (kind === 'hnsw') {
      // Namespaces this size are searched exactly and carry no HNSW vectors (vector-backfill.ts);
      // fill the target's so the index path can be measured, and time that backfill.
      t0 = performance.now();
      await requestBackfill(ctx, [target]);
      while (await backfillStep(ctx));
      backfillPerSecond = NAMESPACE / ((performance.now() - t0) / 1000);
      console.log(`vector backfill: ${NAMESPACE} chunks at ${backfillPerSecond.toFixed(0)} chunks/s`);
    }
    const index = useVectorIndex(ctx, kind);
    await retrieve(ctx, [target], queries[0]!, 10); // warm caches
    const hybrid: number[] = [];
    const vectorOnly: number[] = [];
    let recallHits = 0;
    let recallTotal = 0;
    for (const q of queries) {
      let s = performance.now();
      await retrieve(ctx, [target], q, 10);
      hybrid.push(performance.now() - s);
      const [v] = await ctx.embedder.embed([q]);
      if (!v) throw new Error('no vector');
      s = performance.now();
      const got = await index.nearest([target], v, 10);
      vectorOnly.push(performance.now() - s);
      const truth = await exact.nearest([target], v, 10);
      const gotIds = new Set(got.map((g) => g.id));
      recallHits += truth.filter((t) => gotIds.has(t.id)).length;
      recallTotal += truth.length;
    }
    const recall = recallTotal ? recallHits / recallTotal : 1;
    console.log(
      `${kind}: hybrid p50 ${pct(hybrid, 50).toFixed(1)} ms, p95 ${pct(hybrid, 95).toFixed(1)} ms; vector p50 ${pct(vectorOnly, 50).toFixed(1)} ms, p95 ${pct(vectorOnly, 95).toFixed(1)} ms; recall@10 ${recall.toFixed(3)}`,
    );
    results[kind] = {
      hybridP50: pct(hybrid, 50),
      hybridP95: pct(hybrid, 95),
      vectorP50: pct(vectorOnly, 50),
      vectorP95: pct(vectorOnly, 95),
      recallAt10: recall,
    };
    useVectorIndex(ctx, 'exact');
  }
  results.backfillPerSecond = backfillPerSecond;
  await ctx.limits.close();
  await database.close();
  await dropDb?.();
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await runKnowledgeBench(), null, 2));
}
