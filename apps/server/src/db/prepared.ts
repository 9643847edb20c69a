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
