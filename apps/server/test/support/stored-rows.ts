import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import type { TestApp } from './harness.ts';

/**
 * What a refused request may still change, and why (docs/architecture.md "Rules": a refused
 * request stores nothing). `columns` leaves those columns out of the table's checksum; without it the whole
 * table is left out. Keep this list short: every entry is a place a bug could hide.
 */
export const MAY_CHANGE_WHEN_REFUSED: Record<string, { columns?: string[]; reason: string }> = {
  api_keys: {
    columns: ['last_used_at'],
    reason:
      'a key that authenticates is stamped once a minute, after the response and whatever the route ' +
      'then answers (403 missing_scope, 404 of another workspace): features/auth/credentials.service.ts',
  },
  memberships: {
    columns: ['inbox_seen_at'],
    reason:
      "an inbox stream stores its member's presence when it closes, after its last response: a stream " +
      'the security suite opened and closed lands during the next request (features/inbox/inbox-stream.ts)',
  },
  personal_tokens: {
    columns: ['last_used_at'],
    reason: 'the same stamp for personal access tokens (features/auth/credentials.service.ts)',
  },
};

/** One row per table of the app's schema: its row count and a checksum of its rows. */
export type Snapshot = Record<string, { rows: number; sum: string }>;

const tablesOf = new WeakMap<TestApp, string[]>();

async function tables(t: TestApp): Promise<string[]> {
  const known = tablesOf.get(t);
  if (known) return known;
  const rows = await queryRows<{ name: string }>(
    t.ctx.db,
    sql`select table_name as name from information_schema.tables
        where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`,
  );
  const names = rows
    .map((r) => r.name)
    .filter((n) => !MAY_CHANGE_WHEN_REFUSED[n] || MAY_CHANGE_WHEN_REFUSED[n].columns);
  tablesOf.set(t, names);
  return names;
}

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;
const literal = (value: string) => `'${value.replaceAll("'", "''")}'`;

/**
 * Counts and checksums every table in ONE statement (a UNION ALL over the tables, the same on
 * PGlite and PostgreSQL). The checksum is order-free: md5 of each row's JSON, sorted, hashed again.
 */
export async function snapshotRows(t: TestApp): Promise<Snapshot> {
  const parts = (await tables(t)).map((name) => {
    const drop = (MAY_CHANGE_WHEN_REFUSED[name]?.columns ?? []).map((c) => ` - ${literal(c)}`).join('');
    const row = `md5((to_jsonb(x)${drop})::text)`;
    return `select ${literal(name)} as name, count(*)::int as rows, md5(coalesce(string_agg(${row}, '' order by ${row}), '')) as sum from ${ident(name)} x`;
  });
  const rows = await queryRows<{ name: string; rows: number; sum: string }>(
    t.ctx.db,
    sql.raw(parts.join(' union all ')),
  );
  return Object.fromEntries(rows.map((r) => [r.name, { rows: Number(r.rows), sum: r.sum }]));
}

/** The tables whose rows differ between two snapshots, with their counts before → after. */
export function changedTables(before: Snapshot, after: Snapshot): string[] {
  return Object.keys({ ...before, ...after })
    .filter((name) => before[name]?.sum !== after[name]?.sum || before[name]?.rows !== after[name]?.rows)
    .map((name) => `${name} (${before[name]?.rows ?? '-'} → ${after[name]?.rows ?? '-'} rows)`);
}

/** Runs `act` and fails naming every table whose rows it changed. Returns what `act` returned. */
export async function expectNothingStored<T>(
  t: TestApp,
  act: () => Promise<T>,
  what = 'the request',
): Promise<T> {
  const before = await snapshotRows(t);
  const result = await act();
  const after = await snapshotRows(t);
  expect(changedTables(before, after), `${what} changed stored rows`).toEqual([]);
  return result;
}

/**
 * Waits until the background work of earlier steps (jobs, replies, callbacks) has stopped writing:
 * two snapshots 100 ms apart that agree. For tests that run jobs before a refused request.
 */
export async function untilQuiet(t: TestApp, timeoutMs = 10_000) {
  const end = Date.now() + timeoutMs;
  let last = await snapshotRows(t);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const next = await snapshotRows(t);
    if (changedTables(last, next).length === 0) return;
    if (Date.now() > end)
      throw new Error(`still writing after ${timeoutMs} ms: ${changedTables(last, next)}`);
    last = next;
  }
}
