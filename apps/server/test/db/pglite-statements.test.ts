import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase, queryRows } from '../../src/db/client.ts';
import { cachingClient } from '../../src/db/pglite-statements.ts';

/**
 * The embedded database's statement cache (src/db/pglite-statements.ts): data statements are
 * prepared once per PGlite and then only bound and executed, with the same results, errors, locks
 * and transactions as PGlite's own `query`. Runs on its own in-memory PGlite in both CI passes.
 */

let database: Database;
const db = () => database.db;
/** The client drizzle was given (what every query of the app goes through). */
const client = () => (database.db as unknown as { $client: ReturnType<typeof cachingClient> }).$client;

const kept = async (like: string) =>
  (
    await database.pglite!.query<{ n: number }>(
      'select count(*)::int as n from pg_prepared_statements where statement like $1',
      [`%${like}%`],
    )
  ).rows[0]!.n;

beforeAll(async () => {
  database = await openDatabase({ kind: 'pglite' });
  await database.pglite!.exec(`
    create table things (id text primary key, at timestamptz, doc jsonb, bytes bytea, tags text[],
      amount numeric, flag boolean, n int);
  `);
});
afterAll(() => database.close());

describe('PGlite statements prepared once', () => {
  it('prepares a data statement once and reuses it', async () => {
    for (let i = 0; i < 3; i++) {
      const rows = await queryRows<{ x_once: number }>(db(), sql`select ${i}::int + 40 as x_once`);
      expect(rows).toEqual([{ x_once: i + 40 }]);
    }
    expect(await kept('+ 40 as x_once')).toBe(1);
  });

  it('binds and returns values as PGlite itself does', async () => {
    const values = [
      'ab',
      '2026-11-29T01:02:03.456Z',
      JSON.stringify({ é: ['ü', 1, null], emoji: '🙂' }),
      Buffer.from([0, 1, 254, 255]),
      ['x', 'y "z"', 'ن'],
      '12345678901234567890.5',
      true,
      null,
    ];
    const insert = 'insert into things values ($1, $2, $3, $4, $5, $6, $7, $8) returning *';
    const [cached] = (await client().query(insert, values)).rows as object[];
    await database.pglite!.query('delete from things');
    const [plain] = (await database.pglite!.query(insert, values)).rows as object[];
    expect(cached).toEqual(plain);
    const select = 'select * from things where id = $1';
    expect((await client().query(select, [values[0]])).rows).toEqual([plain]);
    expect((await client().query(select, [values[0]], { rowMode: 'array' })).rows).toEqual([
      Object.values(plain!),
    ]);
    await database.pglite!.query('delete from things');
  });

  it('keeps an error and its code, and the next statement runs', async () => {
    const insert = (id: string) => database.db.execute(sql`insert into things (id, n) values (${id}, 1)`);
    await insert('dup');
    const err = (await insert('dup').catch((e) => e)) as { code?: string; cause?: { code?: string } };
    expect(err.cause?.code ?? err.code).toBe('23505');
    const rows = await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from things where id = ${'dup'}`,
    );
    expect(rows).toEqual([{ n: 1 }]);
    await database.pglite!.query('delete from things');
  });

  it('runs inside a transaction on its turn: a rollback undoes it, a savepoint too', async () => {
    await db()
      .transaction(async (tx) => {
        await tx.execute(sql`insert into things (id) values (${'t1'})`);
        await tx
          .transaction(async (inner) => {
            await inner.execute(sql`insert into things (id) values (${'t2'})`);
            throw new Error('inner');
          })
          .catch(() => undefined);
        const seen = await queryRows<{ id: string }>(tx, sql`select id from things order by id`);
        expect(seen.map((r) => r.id)).toEqual(['t1']);
        throw new Error('outer');
      })
      .catch(() => undefined);
    expect(await queryRows(db(), sql`select id from things`)).toEqual([]);
  });

  it('waits for an open transaction instead of running inside it', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let inserted!: () => void;
    const insertedYet = new Promise<void>((r) => {
      inserted = r;
    });
    const tx = db()
      .transaction(async (t) => {
        await t.execute(sql`insert into things (id) values (${'open'})`);
        inserted();
        await gate;
        throw new Error('roll back');
      })
      .catch(() => undefined);
    await insertedYet;
    // Run inside the open transaction, this would count its uncommitted row.
    const outside = queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from things where id = ${'open'}`,
    );
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    release();
    await tx;
    expect(await outside).toEqual([{ n: 0 }]);
  });

  it('lets the event loop in between long statements, keeping their order', async () => {
    // A request read, a timer (the admission's probe) or a stream's write waits for the lane's
    // current slice (about a millisecond), not for every statement queued before it (docs/performance.md
    // "PGlite: a turn of the loop between statements"). Each of these takes longer than a slice.
    const done: string[] = [];
    const statements = Array.from({ length: 8 }, (_, i) =>
      client()
        .query('select $1::int as turn, count(*) from generate_series(1, 300000)', [i])
        .then((r) => {
          done.push(`s${(r.rows[0] as { turn: number }).turn}`);
          if (i === 0) setImmediate(() => done.push('loop'));
        }),
    );
    await Promise.all(statements);
    expect(done.filter((d) => d !== 'loop')).toEqual(statements.map((_, i) => `s${i}`));
    expect(done.indexOf('loop')).toBeGreaterThan(0);
    expect(done.indexOf('loop')).toBeLessThan(4);
  });

  it('prepares a statement again after a schema change', async () => {
    await database.pglite!.exec('create table shifting (a int); insert into shifting values (1)');
    const read = () => client().query('select * from shifting');
    expect((await read()).rows).toEqual([{ a: 1 }]);
    expect((await read()).rows).toEqual([{ a: 1 }]);
    await database.pglite!.exec('alter table shifting add column b int default 2');
    expect((await read()).rows).toEqual([{ a: 1, b: 2 }]);
  });

  it('keeps no DDL or settings, only data statements', async () => {
    await database.db.execute(sql`create table not_kept (a int)`);
    await database.db.execute(sql`set statement_timeout = 0`);
    expect(await kept('not_kept (a int)')).toBe(0);
    expect(await kept('statement_timeout')).toBe(0);
  });

  it('races many first uses of one statement without preparing it twice', async () => {
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        queryRows<{ y_raced: number }>(db(), sql`select ${i}::int * 3 as y_raced`).then((r) => r[0]!.y_raced),
      ),
    );
    expect(results).toEqual(Array.from({ length: 200 }, (_, i) => i * 3));
    expect(await kept('* 3 as y_raced')).toBe(1);
  });

  it('keeps at most its capacity, closing the least recently used', async () => {
    const pglite = database.pglite!;
    const client = cachingClient(pglite, 2);
    const small = drizzle(client as unknown as PGlite);
    for (const n of [1, 2, 1, 3, 1]) await small.execute(sql.raw(`select ${n} as evict_${n}`));
    const names = (
      await pglite.query<{ statement: string }>(
        "select statement from pg_prepared_statements where statement like 'select % as evict_%' order by statement",
      )
    ).rows.map((r) => r.statement);
    expect(names).toEqual(['select 1 as evict_1', 'select 3 as evict_3']);
    expect(client.cache.size).toBe(2);
  });
});
