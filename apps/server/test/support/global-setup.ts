import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/db/client.ts';
import { migrateDatabase } from '../../src/db/migrate.ts';
import { resetCoverage, uncovered } from './security-coverage.ts';

/**
 * One migrated template per run (docs/architecture.md "Technical notes"): a dumped PGlite data dir, or a
 * PostgreSQL template database when DATABASE_URL is set. Each test file copies it.
 */
export default async function setup(project: TestProject) {
  resetCoverage();
  const url = process.env.DATABASE_URL;
  if (url) {
    const template = `parley_tpl_${process.pid}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${template}`);
    await admin.query(`CREATE DATABASE ${template}`);
    const database = await openDatabase({ kind: 'postgres', url: withDatabase(url, template), poolSize: 2 });
    await migrateDatabase(database);
    await database.close();
    project.provide('pgTemplate', template);
    return async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
      await admin.end();
      checkSecurityCoverage();
    };
  }
  const database = await openDatabase({ kind: 'pglite' });
  await migrateDatabase(database);
  const dump = await database.pglite!.dumpDataDir('none');
  await database.close();
  const dir = join(process.cwd(), '.tmp');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `pglite-template-${process.pid}.tar`);
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteTemplate', file);
  project.provide('pgTemplate', '');
  return () => {
    rmSync(file, { force: true });
    checkSecurityCoverage();
  };
}

/**
 * After a whole run (no file filter on the command line), every credentialed operation must have
 * been reached by a security suite (support/security-coverage.ts); a partial run checks nothing
 * unless PARLEY_CHECK_SECURITY_COVERAGE=1.
 */
function checkSecurityCoverage() {
  // A file filter is a word that is not an option nor an option's value (`--exclude GLOB` leaves
  // the run whole: CI's PostgreSQL pass leaves out the browser tests, none of which covers an API
  // operation the other suites do not).
  const argv = process.argv.slice(2);
  const args = argv.filter((a, i) => !a.startsWith('-') && a !== 'run' && argv[i - 1] !== '--exclude');
  const whole = args.length === 0 || process.env.PARLEY_CHECK_SECURITY_COVERAGE === '1';
  const missing = whole ? uncovered() : undefined;
  resetCoverage(); // this run's folder (vitest.config.ts)
  if (missing && missing.length > 0) {
    // Vitest reports a teardown error without failing the run: set the exit code as well.
    process.exitCode = 1;
    throw new Error(`Operations with no entry in the shared security suite:\n${missing.join('\n')}`);
  }
}

export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgTemplate: string;
    pgliteTemplate: string;
  }
}
