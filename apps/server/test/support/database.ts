import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { inject } from 'vitest';
import { type Database, openDatabase } from '../../src/db/client.ts';
import { withDatabase } from './global-setup.ts';
import { waitFor } from './wait.ts';

export type TestDatabase = { database: Database; url?: string; drop(): Promise<void> };

/** A fresh database for one test file: a copy of the migrated template. */
export async function freshDatabase(): Promise<TestDatabase> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const name = `parley_t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    // CREATE DATABASE ... TEMPLATE needs the template idle: another file may be copying it.
    await waitFor(
      async () => {
        await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject('pgTemplate')}`);
        return true;
      },
      10_000,
      'the template database to be free to copy',
    );
    const dbUrl = withDatabase(url, name);
    const database = await openDatabase({ kind: 'postgres', url: dbUrl, poolSize: 20 });
    return {
      database,
      url: dbUrl,
      drop: async () => {
        await database.close().catch(() => undefined);
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.end();
      },
    };
  }
  const dump = readFileSync(inject('pgliteTemplate'));
  const database = await openDatabase({ kind: 'pglite', loadDataDir: new Blob([dump]) });
  return { database, drop: () => database.close() };
}

export const onPostgres = () => !!process.env.DATABASE_URL;
