import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  type PGlite,
  parse,
  protocol,
  type QueryOptions,
  type Results,
  type Transaction,
} from '@electric-sql/pglite';

type BackendMessage = Awaited<ReturnType<PGlite['execProtocolStream']>>[number];

/**
 * PGlite with its statements prepared once (docs/performance.md "PGlite: statements prepared once").
 * PGlite's `query` parses and plans every statement anew: for the widget's one-statement lookup
 * (eight tables) that is 1.3 ms of a 1.7 ms call; a statement prepared once under a name and then
 * only bound and executed takes 0.16 ms. So the client drizzle is given keeps, per PGlite, the
 * last `capacity` data statements (select, insert, update, delete, with) by their text, as
 * asyncpg and pgx do for PostgreSQL: parsed and described once, then each call is one
 * Bind-Execute-Sync message. PostgreSQL's own plan cache decides when a generic plan is good
 * enough (after five custom ones), and re-plans after a schema change.
 *
 * Everything else (DDL, SET, savepoints, a blob or typed parameters) goes through PGlite's own
 * `query`. The locks are PGlite's: outside a transaction a statement waits for any open
 * transaction to end (as `query` does); inside one it runs on the transaction's turn.
 */
export function cachingClient(pglite: PGlite, capacity = 256) {
  const cache = new StatementCache(pglite, capacity);
  const turns = new LoopTurns();
  return {
    query: async <T>(text: string, params?: unknown[], options?: QueryOptions) => {
      if (!cache.cacheable(text, options)) return pglite.query<T>(text, params, options);
      // As PGlite's `query` and `transaction` do: so statements and transactions take their
      // turns in the order they were asked for.
      await pglite._checkReady();
      return pglite._runExclusiveTransaction(async () => {
        await turns.take();
        return cache.run<T>(text, params ?? [], options, false);
      });
    },
    transaction: <T>(fn: (tx: Transaction) => Promise<T>) =>
      pglite.transaction((tx) => fn(inTransaction(cache, tx))),
    cache,
  };
}

/** How long queued statements may run back to back before the event loop gets a turn (ms). */
const SLICE_MS = 1;

/**
 * PGlite runs a statement synchronously and hands its lock to the next in a microtask, so a queue
 * of statements ran as one long turn of the event loop: requests, timers (the admission's probe)
 * and streams' writes waited for all of it (a transaction already lets the loop turn: PGlite's own
 * `transaction` awaits more than its statements). The lane now lets the loop turn once it has run for
 * SLICE_MS without one, inside the lock so the order is kept; a turn before every statement cost
 * the API benchmark about a sixth of its requests, one only every 4 ms let the overload tail back
 * in (docs/performance.md "PGlite: a turn of the loop between statements").
 */
class LoopTurns {
  /** When the lane's current run of statements began, and whether the loop has turned since. */
  #runStart = 0;
  #turnPending = false;

  async take(): Promise<void> {
    if (this.#turnPending) {
      if (performance.now() - this.#runStart < SLICE_MS) return;
      await nextTurn();
    }
    this.#runStart = performance.now();
    this.#turnPending = true;
    setImmediate(() => {
      this.#turnPending = false;
    });
  }
}

/** A transaction whose data statements use the cache. */
function inTransaction(cache: StatementCache, tx: Transaction): Transaction {
  return {
    ...tx,
    query: <T>(text: string, params?: unknown[], options?: QueryOptions) => {
      if (!cache.cacheable(text, options)) return tx.query<T>(text, params, options);
      if (tx.closed) throw new Error('Transaction is closed');
      return cache.run<T>(text, params ?? [], options, true);
    },
    get closed() {
      return tx.closed;
    },
  };
}

type Prepared = { name: string; paramTypes: number[]; rowDescription: BackendMessage[] };

/** Statements longer than this (a bulk insert's values) are not kept: rarely repeated, large plans. */
const MAX_CACHED_TEXT = 8_000;
const DATA_STATEMENT = /^\s*(select|insert|update|delete|with)\b/i;
/** "prepared statement does not exist" and "cached plan must not change result type". */
const STALE = new Set(['26000', '0A000']);

const { serialize } = protocol;

/** Names are unique in the process: two caches on one PGlite (a test's) never share one. */
let statementsNamed = 0;

class StatementCache {
  /** By text, least recently used first (a Map keeps insertion order). */
  readonly #statements = new Map<string, Prepared>();

  constructor(
    private readonly pglite: PGlite,
    private readonly capacity: number,
  ) {}

  get size() {
    return this.#statements.size;
  }

  cacheable(text: string, options?: QueryOptions) {
    return (
      text.length <= MAX_CACHED_TEXT && !options?.blob && !options?.paramTypes && DATA_STATEMENT.test(text)
    );
  }

  /** Runs `text`; the caller holds the transaction lock (or is inside a transaction). */
  run<T>(text: string, params: unknown[], options: QueryOptions | undefined, inTx: boolean) {
    return this.pglite._runExclusiveQuery(async () => {
      try {
        return await this.#execute<T>(text, params, options, inTx);
      } catch (err) {
        if (!(err instanceof protocol.messages.DatabaseError) || !STALE.has(err.code ?? ''))
          throw named(err, text, params, options);
        // A schema change under a kept statement: prepare it again. Outside a transaction nothing
        // ran, so it is retried once; inside one the transaction is already aborted.
        this.#statements.delete(text);
        if (inTx) throw named(err, text, params, options);
        return await this.#execute<T>(text, params, options, inTx).catch((e) => {
          throw named(e, text, params, options);
        });
      }
    });
  }

  async #execute<T>(text: string, params: unknown[], options: QueryOptions | undefined, inTx: boolean) {
    let statement = this.#statements.get(text);
    if (statement) {
      this.#statements.delete(text); // the most recently used goes last
      this.#statements.set(text, statement);
    } else statement = await this.#prepare(text);
    const values = params.map((value, i) => this.#serialize(value, statement.paramTypes[i], options));
    const messages = await this.#send(
      serialize.bind({ statement: statement.name, values }),
      serialize.execute({}),
      serialize.sync(),
    );
    if (!inTx) await this.pglite.syncToFs();
    const [result] = parse.parseResults(
      [...statement.rowDescription, ...messages],
      this.pglite.parsers,
      options,
    );
    return result as Results<T>;
  }

  async #prepare(text: string): Promise<Prepared> {
    const name = `parley_s${++statementsNamed}`;
    const described = await this.#send(
      serialize.parse({ name, text, types: [] }),
      serialize.describe({ type: 'S', name }),
      serialize.sync(),
    );
    const prepared = {
      name,
      paramTypes: parse.parseDescribeStatementResults(described),
      rowDescription: described.filter((m) => m.name === 'rowDescription'),
    };
    this.#statements.set(text, prepared);
    if (this.#statements.size > this.capacity) {
      const [oldestText, oldest] = this.#statements.entries().next().value as [string, Prepared];
      this.#statements.delete(oldestText);
      await this.#send(serialize.close({ type: 'S', name: oldest.name }), serialize.sync());
    }
    return prepared;
  }

  #serialize(value: unknown, type: number | undefined, options: QueryOptions | undefined) {
    if (value === null || value === undefined) return null;
    const serializer =
      type === undefined ? undefined : (options?.serializers?.[type] ?? this.pglite.serializers[type]);
    return serializer ? serializer(value) : String(value);
  }

  #send(...parts: Uint8Array[]) {
    return this.pglite.execProtocolStream(Buffer.concat(parts), { syncToFs: false });
  }
}

/** What PGlite's own `query` adds to an error: the statement and its values. */
function named(err: unknown, query: string, params: unknown[], queryOptions: QueryOptions | undefined) {
  if (err instanceof protocol.messages.DatabaseError) Object.assign(err, { query, params, queryOptions });
  return err;
}
