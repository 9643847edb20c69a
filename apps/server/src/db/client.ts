import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import type { SQL } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { cachingClient } from './pglite-statements.ts';
import * as schema from './schema/index.ts';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Anything that runs queries: the database or an open transaction. */
export type Executor = Db | Tx;

export type Database = {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** The raw driver, for the few places that need it (migrations, job queue, health). */
  pglite?: PGlite;
  pool?: pg.Pool;
  ping(): Promise<void>;
  close(): Promise<void>;
};

export type DatabaseOptions =
  | { kind: 'postgres'; url: string; poolSize?: number }
  | { kind: 'pglite'; dataDir?: string; loadDataDir?: Blob | File };

/**
 * How long a request waits for a connection (a new one, or a free one of a full pool) before it
 * gets 503 `service_unavailable:api`: a database that cannot be reached fails fast instead of
 * holding requests open (docs/configuration.md "When PostgreSQL or Redis goes away").
 */
export const CONNECT_TIMEOUT_MS = 10_000;

const UNREACHABLE = Symbol.for('parley.databaseUnreachable');

/**
 * A pg pool whose connection failures are marked as "the database cannot be reached", so that
 * `isDatabaseUnavailable` tells them from other errors with the same socket codes (an outbound
 * call's ECONNREFUSED is not the database). A pool we ended ourselves is not marked: that is a
 * bug or a shutdown, not an outage.
 */
class GuardedPool extends pg.Pool {
  override connect(): Promise<pg.PoolClient>;
  override connect(
    callback: (
      err: Error | undefined,
      client: pg.PoolClient | undefined,
      done: (release?: unknown) => void,
    ) => void,
  ): void;
  override connect(
    callback?: (
      err: Error | undefined,
      client: pg.PoolClient | undefined,
      done: (release?: unknown) => void,
    ) => void,
  ): Promise<pg.PoolClient> | undefined {
    if (callback) {
      super.connect((err, client, done) => callback(err && this.mark(err), client, done));
      return undefined;
    }
    return super.connect().catch((err: unknown) => {
      throw this.mark(err);
    });
  }

  private mark<E>(err: E): E {
    if (!this.ending && err && typeof err === 'object') {
      Object.defineProperty(err, UNREACHABLE, { value: true, enumerable: false });
    }
    return err;
  }
}

export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  if (opts.kind === 'postgres') {
    const pool = new GuardedPool({
      connectionString: opts.url,
      max: opts.poolSize ?? 20,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      // A connection stays open 5 minutes unused (pg's default is 10 s): a new one is a new
      // PostgreSQL backend, whose first statements also fill its caches, and under bursty load
      // (mail arriving beside the API's reads) the pool opened and closed some every few seconds
      // (docs/performance.md "Email intake").
      idleTimeoutMillis: 300_000,
      // A connection whose peer vanished without a word (a network cut) is found by TCP keepalive.
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    // A restart or failover ends every connection. An idle one is dropped by the pool (its 'error');
    // one checked out, between two queries of a transaction, emits 'error' on the client itself:
    // without a listener that would crash the process. Its next query fails instead, and the pool
    // drops it on release (a client with a connection error is not reused).
    pool.on('error', () => undefined);
    pool.on('connect', (client) => {
      client.on('error', () => undefined);
    });
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    return {
      db,
      kind: 'postgres',
      pool,
      ping: async () => {
        await pool.query('select 1');
      },
      close: () => pool.end(),
    };
  }
  const pglite = await PGlite.create({
    dataDir: opts.dataDir,
    loadDataDir: opts.loadDataDir,
    extensions: { vector },
    // bytea through Buffer's native hex codec: PGlite's own converts byte by byte in JavaScript,
    // which held the event loop for 24 s storing a 50 MB upload (docs/performance.md "Hostile
    // files during the API benchmark").
    serializers: { [BYTEA_OID]: byteaToHex },
    parsers: { [BYTEA_OID]: byteaFromHex },
  });
  // biome-ignore lint/suspicious/noExplicitAny: drizzle uses only the client's query and transaction
  const db = drizzlePglite(cachingClient(pglite) as any, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    pglite,
    ping: async () => {
      await pglite.query('select 1');
    },
    close: () => pglite.close(),
  };
}

const BYTEA_OID = 17;
const byteaToHex = (v: unknown): string => {
  if (!(v instanceof Uint8Array)) throw new Error('Invalid input for bytea type');
  return `\\x${Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex')}`;
};
const byteaFromHex = (v: string): Buffer => Buffer.from(v.slice(2), 'hex');

/** Postgres error code of a driver error, if any (23505 unique violation, ...). */
export function pgErrorCode(err: unknown): string | undefined {
  let e: unknown = err;
  for (let i = 0; i < 3 && e && typeof e === 'object'; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** SQLSTATEs of a database that is gone or refusing connections: class 08, shutdown, starting up, full. */
const UNAVAILABLE_STATE = /^(08...|57P0[123]|53300)$/;
/** How node-postgres reports a connection lost under a query (wrapped by drizzle in DrizzleQueryError). */
const LOST = /Connection terminated|not queryable|ECONNRESET|EPIPE|ETIMEDOUT|ECONNREFUSED/;
const SOCKET_CODES = new Set([
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EHOSTUNREACH',
]);

/**
 * Whether `err` says the database cannot be reached right now (PostgreSQL restarting, a failover,
 * the network to it cut, every connection in use for too long), as opposed to a bug or bad input:
 * such a request answers 503 with Retry-After and a job pauses (docs/configuration.md "When
 * PostgreSQL or Redis goes away"). Looks through `cause` chains and AggregateErrors.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  const seen = new Set<unknown>();
  let query = false;
  const links: object[] = [];
  const walk = (e: unknown) => {
    if (!e || typeof e !== 'object' || seen.has(e) || seen.size > 20) return;
    seen.add(e);
    links.push(e);
    if ((e as { name?: unknown }).name === 'DrizzleQueryError') query = true;
    walk((e as { cause?: unknown }).cause);
    const inner = (e as { errors?: unknown }).errors;
    if (Array.isArray(inner)) for (const x of inner) walk(x);
  };
  walk(err);
  for (const e of links) {
    if ((e as Record<symbol, unknown>)[UNREACHABLE]) return true;
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && UNAVAILABLE_STATE.test(code)) return true;
    // A query's connection lost under it: only under a drizzle query, so another module's socket
    // error (an outbound call) is never taken for the database.
    if (query && typeof code === 'string' && SOCKET_CODES.has(code)) return true;
    const message = (e as { message?: unknown }).message;
    if (query && typeof message === 'string' && LOST.test(message) && !message.startsWith('Failed query')) {
      return true;
    }
  }
  return false;
}

export const isUniqueViolation = (err: unknown) => pgErrorCode(err) === '23505';

/** Raw SQL rows; both drivers return `{rows}` from execute. */
export async function queryRows<T>(db: Executor, query: SQL): Promise<T[]> {
  const res = (await db.execute(query)) as unknown as { rows: T[] };
  return res.rows;
}

export const isForeignKeyViolation = (err: unknown) => pgErrorCode(err) === '23503';
