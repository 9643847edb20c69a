import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import type { TestApp } from './harness.ts';

/**
 * Hostile text (docs/decisions/0001-http-conventions.md "Hostile input never reaches the database as a 500"): a lone UTF-16
 * surrogate after a marker that is searched for in every table afterwards. Stored through a
 * driver it would read `<marker>\uFFFD`; in a JSON column PostgreSQL refuses it.
 */
export const MARKER = 'hostile-9f3c';
export const LONE = `${MARKER}\ud800`;

/** The 400 naming `field` that a lone surrogate anywhere in a request gets. */
export function expectLoneSurrogate(
  res: LightMyRequestResponse,
  field: string,
  code = 'bad_request:api',
  message = /lone UTF-16 surrogate/,
) {
  expect(res.statusCode, res.body).toBe(400);
  const body = res.json();
  expect(body.code).toBe(code);
  expect(Object.keys(body.details ?? {})).toEqual([field]);
  expect(body.details[field]).toMatch(message);
}

/** Rows of any table of the database whose text holds `marker` (row as text, every column). */
export async function storedAnywhere(t: TestApp, marker = MARKER): Promise<string[]> {
  const tables = await queryRows<{ name: string }>(
    t.ctx.db,
    sql`select table_name as name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE'`,
  );
  const found: string[] = [];
  for (const { name } of tables) {
    const rows = await queryRows<{ n: number }>(
      t.ctx.db,
      sql`select count(*)::int as n from ${sql.identifier(name)} as r where r::text like ${`%${marker}%`}`,
    );
    if ((rows[0]?.n ?? 0) > 0) found.push(name);
  }
  return found;
}
