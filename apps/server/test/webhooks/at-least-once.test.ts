import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import { recordEvent } from '../../src/features/events/events.service.ts';
import { onPostgres } from '../support/database.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { Receiver } from '../support/receiver.ts';
import { waitFor, waitForCount } from '../support/wait.ts';
import { createHookA } from '../support/webhooks.ts';
import { createWorld } from '../support/world.ts';

/**
 * docs/webhooks.md "Delivery, retries and replay": on PostgreSQL, two server processes deliver 2,000 events
 * while one of them is killed with SIGKILL twice; every event reaches the receiver at least once, with its
 * own envelope id. PGlite is one process's embedded database, so there is nothing to share: skipped.
 */
const EVENTS = 2000;
const serverDir = fileURLToPath(new URL('../..', import.meta.url));
let t: TestApp | undefined;
let rx: Receiver | undefined;
const children = new Set<ChildProcess>();

afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  await rx?.close();
  await t?.close();
});

function startServer(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.on('exit', () => children.delete(child));
  let err = '';
  child.stderr?.on('data', (c: Buffer) => {
    err += c.toString();
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${err}`)), 90_000);
    child.stdout?.on('data', (c: Buffer) => {
      if (c.toString().includes('Parley is ready')) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.on('exit', (code) => reject(new Error(`server exited ${code}: ${err}`)));
  });
}

describe('at-least-once delivery across processes', () => {
  it.skipIf(!onPostgres())(
    'PostgreSQL only (skipped on PGlite: set DATABASE_URL): 2,000 events, two processes, SIGKILL twice, none lost',
    { timeout: 360_000 }, // a backstop: the waits below fail when deliveries stop (support/wait.ts)
    async () => {
      t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
      const w = await createWorld(t);
      rx = await new Receiver().start();
      const url = rx.on('/alo', () => ({ status: 200, delayMs: 200 })); // slow: kills land mid-flight
      await createHookA(t, w.ws, w.owner.headers, { url, events: ['*'] });
      const env = {
        DATABASE_URL: t.db.url!,
        DATABASE_POOL_SIZE: '10',
        ENCRYPTION_KEY: t.ctx.config.encryptionKey.toString('hex'),
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'error',
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
        WEBHOOK_TIMEOUT_MS: '5000', // claims of a killed process expire 10 s later
        // An attempt that times out on a busy machine is tried again a second later, not a minute.
        WEBHOOK_RETRY_DELAYS_A: '1,1,1,1,1,1,1,1',
        WEBHOOK_CONCURRENCY: '50',
        SHUTDOWN_GRACE_MS: '1000',
      };
      const dataDir = () => mkdtempSync(join(tmpdir(), 'parley-alo-'));
      const t0 = Date.now();
      const phase: string[] = [];
      const mark = (what: string) => phase.push(`${what} ${Date.now() - t0} ms`);
      let a = await startServer({ ...env, DATA_DIR: dataDir() });
      const b = await startServer({ ...env, DATA_DIR: dataDir() });

      mark('two servers up');
      const emitted: string[] = [];
      // The second half waits for the restart, so the second kill lands while deliveries still
      // flow however long a start takes on a busy machine (the survivor would otherwise have
      // delivered everything by then).
      let restarted!: () => void;
      const secondHalf = new Promise<void>((r) => {
        restarted = r;
      });
      const emitAll = (async () => {
        for (let i = 0; i < EVENTS; i += 100) {
          if (i === EVENTS / 2) await secondHalf;
          const ids = await t!.ctx.db.transaction(async (tx) => {
            const out: string[] = [];
            for (let j = i; j < i + 100; j++) {
              out.push(
                (await recordEvent(tx, { workspaceId: w.ws, type: 'member.joined', data: { n: j } })).id,
              );
            }
            return out;
          });
          emitted.push(...ids);
          // Paced on purpose (not a wait for anything): events keep coming while the servers are killed.
          await new Promise((r) => setTimeout(r, 50));
        }
      })();

      const seen = () => new Set(rx!.hits('/alo').map((h) => JSON.parse(h.body).id as string)).size;
      await waitForCount(seen, 300, 60_000, 'deliveries');
      a.kill('SIGKILL');
      mark('first kill');
      a = await startServer({ ...env, DATA_DIR: dataDir() });
      mark('restarted');
      const atRestart = seen();
      restarted();
      await waitForCount(seen, atRestart + 300, 60_000, 'deliveries');
      a.kill('SIGKILL');
      mark('second kill');
      await emitAll;
      mark('all emitted');
      await waitForCount(seen, EVENTS, 45_000, 'deliveries');
      mark('all delivered');

      const bodies = rx.hits('/alo').map((h) => JSON.parse(h.body) as { id: string; data: { n: number } });
      // One envelope id per event: a duplicate carries the same id and the same data.
      const byId = new Map<string, Set<number>>();
      for (const body of bodies) byId.set(body.id, (byId.get(body.id) ?? new Set()).add(body.data.n));
      expect([...byId].filter(([, ns]) => ns.size !== 1)).toEqual([]);
      expect(new Set(byId.keys())).toEqual(new Set(emitted));
      expect(new Set(byId.values()).size).toBe(EVENTS);
      const [row] = await queryRows<{ n: number }>(
        t.ctx.db,
        sql`select count(*)::int as n from webhook_deliveries where status = 'success'`,
      );
      await waitFor(
        async () => {
          const [r] = await queryRows<{ n: number }>(
            t!.ctx.db,
            sql`select count(*)::int as n from webhook_deliveries where status = 'success'`,
          );
          return r!.n === EVENTS;
        },
        15_000,
        'all delivery records success',
      );
      expect(row!.n).toBeLessThanOrEqual(EVENTS);
      console.info(
        `at-least-once: ${EVENTS} events, ${bodies.length} deliveries received (${bodies.length - EVENTS} duplicates); ${phase.join(', ')}`,
      );
      b.kill('SIGTERM');
    },
  );
});
