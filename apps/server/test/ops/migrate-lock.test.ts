import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATION_LOCK_KEY } from '../../src/db/migrate.ts';
import { onPostgres } from '../support/database.ts';
import { withDatabase } from '../support/global-setup.ts';
import { waitFor } from '../support/wait.ts';
import { type Server, serverEnv, startServer } from './process.ts';

/**
 * Two replicas starting at once against a fresh PostgreSQL database (docs/deploy.md "Upgrades"): one
 * applies the migrations under the advisory lock, the other waits for it, then both serve.
 *
 * PostgreSQL only: PGlite is an embedded database that one process opens, so two processes never
 * share one and there is nothing to lock (the CI's PostgreSQL pass runs this file).
 */
const serverDir = fileURLToPath(new URL('../..', import.meta.url));
const journal = (folder: string) =>
  (
    JSON.parse(
      readFileSync(new URL(`../../src/db/${folder}/meta/_journal.json`, import.meta.url), 'utf8'),
    ) as {
      entries: unknown[];
    }
  ).entries.length;

const servers: Server[] = [];
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const s of servers) s.kill();
  await Promise.all(servers.map((s) => s.exited));
  for (const s of servers) rmSync(s.dataDir, { recursive: true, force: true });
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe.skipIf(!onPostgres())('migrations when two replicas start at once (PostgreSQL)', () => {
  it('both wait on the lock, the migrations are applied once, and both serve', async () => {
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    const name = `parley_lock_${randomBytes(6).toString('hex')}`;
    await admin.query(`CREATE DATABASE ${name}`);
    cleanups.push(async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    });
    const url = withDatabase(process.env.DATABASE_URL!, name);

    // The test holds the lock first, so both processes are seen waiting (not one finishing before
    // the other asks): the moment of a real simultaneous start, made certain.
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    cleanups.push(() => holder.end());
    await holder.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);

    for (let i = 0; i < 2; i++) {
      servers.push(
        startServer(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
          cwd: serverDir,
          env: serverEnv({ DATABASE_URL: url }),
        }),
      );
    }
    const waiting = async () =>
      Number(
        (
          await admin.query(
            `select count(*) as n from pg_locks l join pg_database d on d.oid = l.database
             where l.locktype = 'advisory' and not l.granted and d.datname = $1`,
            [name],
          )
        ).rows[0].n,
      );
    await waitFor(
      async () => (await waiting()) === 2,
      60_000,
      'both processes to wait on the migration lock',
    );
    // Nothing was migrated while the lock was held.
    const tables = await holder.query(
      `select count(*) as n from information_schema.tables where table_schema = 'public'`,
    );
    expect(Number(tables.rows[0].n)).toBe(0);

    await holder.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    const urls = await Promise.all(servers.map((s) => s.ready));
    for (const u of urls) {
      const res = await fetch(`${u.replace('localhost', '127.0.0.1')}/readyz`);
      expect(await res.json()).toEqual({ status: 'ready' });
    }
    // Each migration recorded once: the second process found them applied.
    const applied = await holder.query('select count(*) as n from drizzle.__drizzle_migrations');
    expect(Number(applied.rows[0].n)).toBe(journal('migrations'));
    for (const s of servers) expect(s.output()).not.toMatch(/"level":(50|60)/);
  }, 120_000);
});
