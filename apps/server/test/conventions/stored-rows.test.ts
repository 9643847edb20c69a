import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import { apiKeys, workspaces } from '../../src/db/schema/index.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { expectNothingStored, MAY_CHANGE_WHEN_REFUSED, snapshotRows } from '../support/stored-rows.ts';
import { createWorld, insertApiKey, type World } from '../support/world.ts';

/**
 * The check behind "a refused request stores nothing" (support/stored-rows.ts, used by the shared
 * security suite and the hostile-input tests): it sees a new row, a changed row and a deleted one
 * in any table, and lets through only what MAY_CHANGE_WHEN_REFUSED names.
 */
let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await createTestApp();
  w = await createWorld(t);
});
afterAll(() => t.close());

const fails = (act: () => Promise<unknown>) => expect(expectNothingStored(t, act)).rejects.toThrow();

describe('expectNothingStored', () => {
  it('covers every table of the schema in one snapshot', async () => {
    const [row] = await queryRows<{ n: number }>(
      t.ctx.db,
      sql`select count(*)::int as n from information_schema.tables
          where table_schema = current_schema() and table_type = 'BASE TABLE'`,
    );
    const whole = Object.values(MAY_CHANGE_WHEN_REFUSED).filter((e) => !e.columns).length;
    expect(Object.keys(await snapshotRows(t))).toHaveLength(Number(row?.n) - whole);
  });

  it('fails on a new row, a changed value with the same count, and a deleted row', async () => {
    await fails(() => insertApiKey(t, w.ws, ['events:read']));
    await fails(() => t.ctx.db.update(workspaces).set({ name: 'Renamed' }).where(eq(workspaces.id, w.ws)));
    await fails(() => t.ctx.db.delete(apiKeys).where(eq(apiKeys.workspaceId, w.ws)));
  });

  it('passes on reads, and on the columns the list names', async () => {
    await expectNothingStored(t, () =>
      t.request({ method: 'GET', url: '/api/account', headers: w.owner.headers }),
    );
    await insertApiKey(t, w.ws, ['events:read']);
    await expectNothingStored(t, () => t.ctx.db.update(apiKeys).set({ lastUsedAt: new Date() }));
    await fails(() => t.ctx.db.update(apiKeys).set({ name: 'other' }));
  });

  it('names only tables and columns that exist', async () => {
    const columns = await queryRows<{ t: string; c: string }>(
      t.ctx.db,
      sql`select table_name as t, column_name as c from information_schema.columns where table_schema = current_schema()`,
    );
    for (const [table, entry] of Object.entries(MAY_CHANGE_WHEN_REFUSED)) {
      expect(entry.reason.length, table).toBeGreaterThan(20);
      const own = columns.filter((x) => x.t === table).map((x) => x.c);
      expect(own.length, table).toBeGreaterThan(0);
      for (const c of entry.columns ?? []) expect(own, `${table}.${c}`).toContain(c);
    }
  });
});
