import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';

/** Helpers every benchmark shares. */

/**
 * A scratch database beside the one `url` names (the benchmarks never touch a real database),
 * created now and dropped by `drop()` at the end.
 */
export async function scratchDatabase(url: string, tag: string) {
  const { default: pg } = await import('pg');
  const name = `parley_bench_${tag}_${randomBytes(4).toString('hex')}`;
  const admin = async (q: string) => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(q).finally(() => c.end());
  };
  await admin(`CREATE DATABASE ${name}`);
  const u = new URL(url);
  u.pathname = `/${name}`;
  return { url: u.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/** SIGTERM (the server's graceful shutdown), SIGKILL after 15 s; resolves once it has exited. */
export async function stopProcess(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

export type SeedOptions = {
  plan: 'pro' | 'enterprise';
  monthlyCredits?: number;
  /** Scopes of a workspace API key to create; none when absent. */
  keyScopes?: string[];
};

/**
 * Straight into the database (migrated first), before the server starts: one user with a session
 * (`cookie`), owning one workspace with `opts.plan`, and a workspace API key when `keyScopes` are
 * given (`authorization`, a `Bearer ...` header value).
 */
export async function seedOwner(env: NodeJS.ProcessEnv, opts: SeedOptions) {
  const { join } = await import('node:path');
  const { openDatabase } = await import('../apps/server/src/db/client.ts');
  const { migrateDatabase } = await import('../apps/server/src/db/migrate.ts');
  const schema = await import('../apps/server/src/db/schema/index.ts');
  const { randomToken, sha256Hex } = await import('../apps/server/src/lib/crypto.ts');
  const { newId } = await import('../apps/server/src/lib/ids.ts');
  const database = env.DATABASE_URL
    ? await openDatabase({ kind: 'postgres', url: env.DATABASE_URL, poolSize: 2 })
    : await openDatabase({ kind: 'pglite', dataDir: join(env.DATA_DIR!, 'pglite') });
  try {
    await migrateDatabase(database);
    const { db } = database;
    const userId = newId('usr');
    const workspaceId = newId('ws');
    const token = randomToken('', 32);
    await db.insert(schema.users).values({ id: userId, email: `bench-${userId}@example.com`, name: 'Bench' });
    const expiresAt = new Date(Date.now() + 86_400_000);
    await db
      .insert(schema.sessions)
      .values({ id: newId('ses'), userId, tokenHash: sha256Hex(token), expiresAt });
    await db.insert(schema.workspaces).values({
      ...{ id: workspaceId, name: 'Bench', slug: workspaceId.replace('_', '-'), ownerId: userId },
      ...{ plan: opts.plan, billingStatus: 'active', monthlyCredits: opts.monthlyCredits ?? null },
    });
    await db.insert(schema.memberships).values({ workspaceId, userId, role: 'owner' });
    let authorization: string | null = null;
    if (opts.keyScopes) {
      const key = randomToken('wsk_live_', 32);
      await db.insert(schema.apiKeys).values({
        ...{ id: newId('key'), workspaceId, name: 'bench', scopes: opts.keyScopes },
        ...{ keyHash: sha256Hex(key), last4: key.slice(-4) },
      });
      authorization = `Bearer ${key}`;
    }
    return { workspaceId, cookie: `parley.session-token=${token}`, authorization };
  } finally {
    await database.close();
  }
}

/**
 * Sends `count` requests at `perSecond`, open loop: each at its scheduled time whatever the
 * earlier ones are doing, its latency counted from that time (a slow answer delays nobody's clock,
 * and a stall shows in every request it held up). `send(i)` resolves with the status, 0 on error;
 * `ok` tells a good status. Latencies in ms.
 */
export async function paced(
  count: number,
  perSecond: number,
  send: (i: number) => Promise<number>,
  ok: (status: number) => boolean = (s) => s >= 200 && s < 300,
) {
  const latencies: number[] = [];
  /** Each send's latency by its index, so a report can tell when the slow ones were sent. */
  const byIndex: number[] = new Array(count).fill(0);
  let errors = 0;
  const start = performance.now() + 50;
  const inFlight: Promise<void>[] = [];
  const launch = (i: number, at: number) =>
    send(i)
      .catch(() => 0)
      .then((status) => {
        if (!ok(status)) errors++;
        const latency = performance.now() - at;
        latencies.push(latency);
        byIndex[i] = latency;
      });
  // One clock for all: every millisecond, whatever has come due is sent (not a timer per request,
  // which at thousands a second would slow the sender itself).
  const timeOf = (i: number) => start + (i * 1000) / perSecond;
  let next = 0;
  while (next < count) {
    const now = performance.now();
    for (; next < count && timeOf(next) <= now; next++) inFlight.push(launch(next, timeOf(next)));
    await new Promise((r) => setTimeout(r, 1));
  }
  await Promise.all(inFlight);
  return { latencies, byIndex, errors };
}
