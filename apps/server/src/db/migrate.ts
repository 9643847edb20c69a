import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { type Database, type Db, queryRows } from './client.ts';

// Beside this file in src/ and in the compiled dist/ (apps/server/build.mjs copies them).
const coreFolder = fileURLToPath(new URL('./migrations', import.meta.url));
const vectorFolder = fileURLToPath(new URL('./vector-migrations', import.meta.url));

/**
 * The key of the PostgreSQL advisory lock that migrations run under ('parley' in ASCII): every
 * Parley process that starts against the same database takes it, so one applies the pending
 * migrations and the others wait, then find nothing left to do (docs/deploy.md "Upgrades").
 */
export const MIGRATION_LOCK_KEY = '123563833845113';

/**
 * Two histories (docs/architecture.md "Technical notes"): drizzle runs a history in one transaction, so
 * `CREATE EXTENSION vector` in the core history would roll everything back where the
 * extension is missing. The vector history has its own table and runs only where it exists.
 * `waited`: another process held the migration lock when this one asked for it.
 */
export async function migrateDatabase(database: Database): Promise<{ vector: boolean; waited: boolean }> {
  if (database.kind === 'pglite' || !database.pool) {
    return { ...(await migrateWith(database.kind, database.db)), waited: false };
  }
  // One connection holds the lock and runs the migrations (a pool of one would otherwise wait
  // on itself); the lock is the session's, so it goes with the connection if the process dies.
  const client = await database.pool.connect();
  let broken: Error | undefined;
  try {
    const tried = await client.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [
      MIGRATION_LOCK_KEY,
    ]);
    const waited = !tried.rows[0]?.locked;
    if (waited) await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      const db = drizzlePg(client) as unknown as Db;
      return { ...(await migrateWith('postgres', db)), waited };
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } catch (err) {
    broken = err instanceof Error ? err : new Error(String(err));
    throw err;
  } finally {
    // A connection that failed mid-way is dropped rather than returned to the pool.
    client.release(broken);
  }
}

async function migrateWith(kind: Database['kind'], db: Db): Promise<{ vector: boolean }> {
  await runHistory(kind, db, coreFolder, '__drizzle_migrations');
  const vector = await vectorAvailableOn(db);
  if (vector) await runHistory(kind, db, vectorFolder, '__parley_vector_migrations');
  return { vector };
}

async function runHistory(kind: Database['kind'], db: Db, folder: string, table: string) {
  const config = { migrationsFolder: folder, migrationsTable: table };
  if (kind === 'pglite') {
    // biome-ignore lint/suspicious/noExplicitAny: drizzle's per-driver migrator types differ only nominally
    await migratePglite(db as any, config);
  } else {
    // biome-ignore lint/suspicious/noExplicitAny: same as above
    await migratePg(db as any, config);
  }
}

export async function vectorAvailable(database: Database): Promise<boolean> {
  return vectorAvailableOn(database.db);
}

async function vectorAvailableOn(db: Db): Promise<boolean> {
  const rows = await queryRows(db, sql`select 1 from pg_available_extensions where name = 'vector'`);
  return rows.length > 0;
}
