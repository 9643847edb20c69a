/**
 * Webhook delivery benchmark (docs/performance.md "Webhook delivery"): deliveries per second to a local HTTPS
 * receiver with 1, 10 and 100 webhooks, and the p99 lag from an event's commit to its first attempt.
 * Targets (one process, PostgreSQL): at least 1,000 deliveries/s; p99 lag under 250 ms.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/webhooks.ts
 *   npx tsx bench/webhooks.ts          # embedded PGlite
 *
 * BENCH_DELIVERIES (default 5000) sets the deliveries per throughput run. The receiver runs in
 * this process, on the same cores, as a worst case; its certificate comes from a throw-away CA
 * that this script hands to Node through NODE_EXTRA_CA_CERTS (re-running itself once).
 */
import { fork, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { ensureTestTls } from '../apps/server/test/support/tls.ts';

const tlsDir = fileURLToPath(new URL('../apps/server/.tmp/tls', import.meta.url));
const caFile = ensureTestTls(tlsDir).caFile;
if (process.env.NODE_EXTRA_CA_CERTS !== caFile) {
  const r = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, NODE_EXTRA_CA_CERTS: caFile, PARLEY_TEST_TLS_DIR: tlsDir },
  });
  process.exit(r.status ?? 1);
}

const { createContext } = await import('../apps/server/src/bootstrap.ts');
const { loadConfig } = await import('../apps/server/src/config.ts');
const { openDatabase } = await import('../apps/server/src/db/client.ts');
const { migrateDatabase } = await import('../apps/server/src/db/migrate.ts');
const schema = await import('../apps/server/src/db/schema/index.ts');
const { recordEvent } = await import('../apps/server/src/features/events/events.service.ts');
const { createWebhook } = await import('../apps/server/src/features/webhooks/webhooks.service.ts');
const { startJobs } = await import('../apps/server/src/jobs/catalog.ts');
const { newId } = await import('../apps/server/src/lib/ids.ts');
const { waitFor } = await import('../apps/server/test/support/wait.ts');

const baseUrl = process.env.DATABASE_URL;
const benchDb = `parley_bench_${process.pid}`;
let dbUrl: string | undefined;
if (baseUrl) {
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${benchDb}`);
  await admin.end();
  const u = new URL(baseUrl);
  u.pathname = `/${benchDb}`;
  dbUrl = u.toString();
}
const database = await openDatabase(
  dbUrl ? { kind: 'postgres', url: dbUrl, poolSize: 20 } : { kind: 'pglite' },
);
await migrateDatabase(database);
const config = loadConfig({
  DATA_DIR: mkdtempSync(join(tmpdir(), 'parley-bench-')),
  LOG_LEVEL: 'silent',
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  REDIS_URL: '',
});
const ctx = createContext(config, database);
// Failed attempts are reported, as the server's log would show them.
ctx.log.attach(console);
// The outbox relay and the delivery worker (jobs/catalog.ts), at the catalog's pauses or shorter.
const webhookJobs = ['event-dispatch', 'webhook-delivery'] as const;
const fastPolls = { 'event-dispatch': 20, 'webhook-delivery': 50 };
const child = fork(fileURLToPath(new URL('./webhook-receiver.ts', import.meta.url)), { stdio: 'inherit' });
const ask = <T>(type: string) =>
  new Promise<T>((resolve) => {
    const on = (msg: { type: string } & T) => {
      if (msg.type !== type) return;
      child.off('message', on);
      resolve(msg);
    };
    child.on('message', on);
    child.send({ type });
  });
const { port } = await new Promise<{ port: number }>((resolve) => child.once('message', resolve as never));
const url = (i: number) => `https://127.0.0.1:${port}/h${i}`;
const received = async () => (await ask<{ count: number }>('count')).count;

const userId = newId('usr');
await ctx.db
  .insert(schema.users)
  .values({ id: userId, email: `bench-${process.pid}@example.com`, name: 'Bench' });
async function workspaceWithHooks(n: number) {
  const ws = newId('ws');
  await ctx.db.insert(schema.workspaces).values({ id: ws, name: 'Bench', slug: ws, ownerId: userId });
  for (let i = 0; i < n; i++) await createWebhook(ctx, ws, 'A', { url: url(i), events: ['*'] });
  return ws;
}
async function emit(ws: string, count: number, perTx: number) {
  const committed: { id: string; at: number }[] = [];
  for (let i = 0; i < count; i += perTx) {
    const ids = await ctx.db.transaction(async (tx) => {
      const out: string[] = [];
      for (let j = i; j < Math.min(count, i + perTx); j++) {
        out.push(
          (
            await recordEvent(tx, {
              workspaceId: ws,
              type: 'message.created',
              data: { n: j, text: 'x'.repeat(200) },
            })
          ).id,
        );
      }
      return out;
    });
    const at = Date.now();
    for (const id of ids) committed.push({ id, at });
  }
  return committed;
}
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN;
};

const total = Number(process.env.BENCH_DELIVERIES ?? 5000);
const rows: string[] = [];
console.log(
  `database: ${database.kind}; ${total} deliveries per run; concurrency ${config.webhooks.concurrency}`,
);
// Warm-up (TLS sessions, JIT), not reported.
{
  const ws = await workspaceWithHooks(10);
  await emit(ws, 50, 50);
  const before = await received();
  const workers = startJobs(ctx, { only: webhookJobs, everyMs: fastPolls });
  await waitFor(async () => (await received()) - before >= 500, 60_000, 'warm-up');
  await workers.stop(1000);
  await ctx.db.update(schema.webhooks).set({ active: false });
}
for (const hooks of [1, 10, 100]) {
  // Throughput: the events are committed first, then the workers drain the outbox.
  const ws = await workspaceWithHooks(hooks);
  const events = Math.ceil(total / hooks);
  await emit(ws, events, 100);
  const before = await received();
  const started = performance.now();
  const workers = startJobs(ctx, { only: webhookJobs, everyMs: fastPolls });
  let now = before;
  await waitFor(
    async () => {
      now = await received();
      return now - before >= events * hooks;
    },
    300_000,
    'deliveries',
  );
  const seconds = (performance.now() - started) / 1000;
  await workers.stop(1000);
  const rate = Math.round((events * hooks) / seconds);
  rows.push(`| ${hooks} | ${events * hooks} | ${seconds.toFixed(2)} s | ${rate} |`);
  console.log(`${hooks} webhook(s): ${events * hooks} deliveries in ${seconds.toFixed(2)} s = ${rate}/s`);
  await ctx.db.update(schema.webhooks).set({ active: false });
}

// Lag: events committed one per transaction at a steady pace while the workers run.
const lagHooks = 10;
const ws = await workspaceWithHooks(lagHooks);
const workers = startJobs(ctx, { only: webhookJobs });
const committed: { id: string; at: number }[] = [];
const until = Date.now() + 5000;
while (Date.now() < until) {
  committed.push(...(await emit(ws, 1, 1)));
  await new Promise((r) => setTimeout(r, 10));
}
const arrivals = new Map<string, number>();
await waitFor(
  async () => {
    for (const [k, v] of (await ask<{ arrivals: [string, number][] }>('arrivals')).arrivals)
      arrivals.set(k, v);
    return committed.every((c) => arrivals.has(`${c.id}/h${lagHooks - 1}`));
  },
  60_000,
  'lag deliveries',
);
await workers.stop(1000);
const lags: number[] = [];
for (const c of committed)
  for (let i = 0; i < lagHooks; i++) lags.push(arrivals.get(`${c.id}/h${i}`)! - c.at);
const p50 = pct(lags, 50);
const p99 = pct(lags, 99);

console.log('\n| webhooks | deliveries | time | deliveries/s |\n|---:|---:|---:|---:|');
for (const r of rows) console.log(r);
console.log(
  `\ncommit → first attempt (${committed.length} events × ${lagHooks} webhooks, ~${Math.round(committed.length / 5)} events/s): p50 ${p50} ms, p99 ${p99} ms (target < 250 ms)`,
);

child.send({ type: 'stop' });
await ctx.limits.close();
await database.close();
if (baseUrl) {
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${benchDb} WITH (FORCE)`);
  await admin.end();
}
process.exit(0);
