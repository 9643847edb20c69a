import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { type Database, queryRows } from './client.ts';

const coreFolder = fileURLToPath(new URL('./migrations', import.meta.url));
const vectorFolder = fileURLToPath(new URL('./vector-migrations', import.meta.url));

/**
 * Two histories (docs/architecture.md "Technical notes"): drizzle runs a history in one transaction, so
 * `CREATE EXTENSION vector` in the core history would roll everything back where the
 * extension is missing. The vector history has its own table and runs only where it exists.
 */
export async function migrateDatabase(database: Database): Promise<{ vector: boolean }> {
  await runHistory(database, coreFolder, '__drizzle_migrations');
  const vector = await vectorAvailable(database);
  if (vector) await runHistory(database, vectorFolder, '__parley_vector_migrations');
  return { vector };
}

async function runHistory(database: Database, folder: string, table: string) {
  const config = { migrationsFolder: folder, migrationsTable: table };
  if (database.kind === 'pglite') {
    // biome-ignore lint/suspicious/noExplicitAny: drizzle's per-driver migrator types differ only nominally
    await migratePglite(database.db as any, config);
  } else {
    // biome-ignore lint/suspicious/noExplicitAny: same as above
    await migratePg(database.db as any, config);
  }
}

export async function vectorAvailable(database: Database): Promise<boolean> {
  const rows = await queryRows(database.db, sql`select 1 from pg_available_extensions where name = 'vector'`);
  return rows.length > 0;
}
