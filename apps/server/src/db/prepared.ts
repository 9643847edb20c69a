import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Executor } from './client.ts';

/**
 * A prepared statement per executor, built on first use: drizzle builds the SQL once instead of
 * on every call, and PostgreSQL parses and plans it once per connection. For the queries every
 * authenticated request runs (credential lookup, tenant guard); see docs/performance.md.
 */
export function preparedFor<P>(build: (db: Executor) => P): (db: Executor) => P {
  const cache = new WeakMap<Executor, P>();
  return (db) => {
    let prepared = cache.get(db);
    if (!prepared) {
      prepared = build(db);
      cache.set(db, prepared);
    }
    return prepared;
  };
}

const dialect = new PgDialect();

/**
 * preparedFor for a hand-written statement (one the query builder cannot express), its values
 * given as `sql.placeholder(name)`: rendered to text once, and on PostgreSQL parsed once per
 * connection under `name`, and planned once PostgreSQL settles on a generic plan. For the hot
 * statements of a chat turn and the outbox relay, whose parsing and planning cost PostgreSQL more
 * than running them (docs/performance.md). On PGlite every data statement is kept by its text
 * (pglite-statements.ts), named here or not.
 */
export function namedStatement<Row>(name: string, query: SQL) {
  const built = dialect.sqlToQuery(query);
  const prepared = preparedFor((db) => db._.session.prepareQuery(built, undefined, name, false));
  return async (db: Executor, values: Record<string, unknown>): Promise<Row[]> => {
    const result = (await prepared(db).execute(values)) as { rows: Row[] };
    return result.rows;
  };
}
