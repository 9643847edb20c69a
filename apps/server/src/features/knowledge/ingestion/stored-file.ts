import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { mayGoOn } from './parse-gate.ts';

/**
 * Reads an uploaded file's bytes from PostgreSQL inside the parse worker (parse-worker.ts), on a
 * connection of its own, so that reading tens of megabytes costs the server's event loop nothing
 * (docs/performance.md "Hostile files during the API benchmark"). Undefined when the file is gone
 * or was replaced while it was read. With PGlite the server reads it (sources.repo.ts
 * `readSourceFile`): PGlite lives in the server's thread.
 *
 * - One `COPY ... TO STDOUT (FORMAT binary)`: PostgreSQL sends the bytes as they are, where a
 *   query's bytea comes as twice as many hex digits, which PostgreSQL encodes and node-postgres
 *   turns into strings before decoding them.
 * - The COPY's rows are the file's 1 MB slices (`substring`), each written straight to its place
 *   in the result: PostgreSQL fetches a slice of an uncompressed value chunk by chunk
 *   (migration 0015_source_file_storage.sql) and never holds the whole file, which for 50 MB cost
 *   its backend about 0.4 s of CPU against 0.06 s in slices, at the server's priority.
 * - The connection is kept between files while the worker is busy (a new backend per file costs
 *   PostgreSQL a process start) and closed once idle for `IDLE_CLOSE_MS`.
 */
const SLICE = 1024 * 1024;
const IDLE_CLOSE_MS = 5_000;
/** Our ids (lib/ids.ts) are letters, digits and an underscore: nothing that can end a string literal. */
const ID = /^[A-Za-z0-9_]{1,64}$/;

type Kept = { url: string; client: pg.Client; idle?: NodeJS.Timeout };
let kept: Kept | undefined;

export async function readStoredFile(databaseUrl: string, sourceId: string): Promise<Buffer | undefined> {
  // COPY takes no parameters: the id goes into the statement, so it must look exactly like an id.
  if (!ID.test(sourceId)) return undefined;
  const reused = kept?.url === databaseUrl;
  try {
    return await readOn(await connection(databaseUrl), sourceId);
  } catch (err) {
    // A kept connection may have been closed by the server meanwhile (a restart, an idle
    // timeout): one more try on a new one.
    if (!reused) throw err;
    return readOn(await connection(databaseUrl), sourceId);
  }
}

async function readOn(conn: Kept, sourceId: string): Promise<Buffer | undefined> {
  const { client } = conn;
  let done = false;
  try {
    // One snapshot for the length and the slices: a file replaced meanwhile is not mixed.
    await client.query('begin isolation level repeatable read read only');
    const { rows } = await client.query<{ length: number }>(
      'select octet_length(content) as length from source_files where source_id = $1',
      [sourceId],
    );
    const length = rows[0]?.length;
    let value: Buffer | undefined;
    if (length !== undefined && length !== null) {
      value = Buffer.allocUnsafeSlow(length);
      const slices = Math.ceil(length / SLICE);
      const stream = client.query(
        copyTo(
          `copy (select g, substring(f.content from g * ${SLICE} + 1 for ${SLICE}) from source_files f, generate_series(0, ${slices - 1}) g where f.source_id = '${sourceId}') to stdout (format binary)`,
        ),
      );
      if ((await fillSlices(stream, value)) !== length) value = undefined;
    }
    await client.query('commit');
    done = true;
    return value;
  } finally {
    if (done) idleLater(conn);
    else drop(conn);
  }
}

async function connection(url: string): Promise<Kept> {
  if (kept?.url === url) {
    clearTimeout(kept.idle);
    return kept;
  }
  if (kept) drop(kept);
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: 10_000,
    // named in pg_stat_activity, for an operator (and test/knowledge/stored-file.test.ts)
    application_name: 'parley-parse-worker',
  });
  const conn: Kept = { url, client };
  // a connection lost while idle is dropped; one lost during a read fails that read
  client.on('error', () => drop(conn));
  await client.connect();
  kept = conn;
  return conn;
}

function idleLater(conn: Kept) {
  clearTimeout(conn.idle);
  conn.idle = setTimeout(() => drop(conn), IDLE_CLOSE_MS);
  conn.idle.unref();
}

function drop(conn: Kept) {
  clearTimeout(conn.idle);
  if (kept === conn) kept = undefined;
  void conn.client.end().catch(() => undefined);
}

/**
 * Writes the rows of a binary COPY of `(slice number int4, bytes bytea)` into `into`, each slice at
 * its number times `SLICE`, and answers how many bytes were written (PostgreSQL's COPY docs,
 * "Binary Format": an 11-byte signature, 32-bit flags, a 32-bit header extension length and the
 * extension; then per row a 16-bit field count, -1 ending the data, and per field a 32-bit length,
 * -1 for null, and the bytes). A slice's bytes are copied from the stream's chunks as they come;
 * only a row's few header bytes are ever held back.
 */
async function fillSlices(stream: AsyncIterable<Buffer>, into: Buffer): Promise<number> {
  const ROW_HEAD = 2 + 4 + 4 + 4; // field count, the number's length and value, the bytes' length
  let held: Buffer = Buffer.alloc(0);
  let state: 'header' | 'row' | 'bytes' | 'end' = 'header';
  let at = 0;
  let left = 0;
  let written = 0;
  for await (const chunk of stream) {
    await mayGoOn();
    const buf = held.length > 0 ? Buffer.concat([held, chunk]) : chunk;
    let i = 0;
    while (state !== 'end') {
      if (state === 'bytes') {
        const take = Math.min(left, buf.length - i);
        buf.copy(into, at, i, i + take);
        at += take;
        left -= take;
        i += take;
        written += take;
        if (left > 0) break;
        state = 'row';
      } else if (state === 'header') {
        if (buf.length - i < 19 || buf.length - i < 19 + buf.readUInt32BE(i + 15)) break;
        i += 19 + buf.readUInt32BE(i + 15);
        state = 'row';
      } else {
        if (buf.length - i >= 2 && buf.readInt16BE(i) === -1) {
          state = 'end';
          break;
        }
        if (buf.length - i < ROW_HEAD) break;
        const n = buf.readInt32BE(i + 10);
        at = buf.readInt32BE(i + 6) * SLICE;
        i += ROW_HEAD;
        if (n < 0 || n > SLICE || at + n > into.length)
          throw new Error('The stored file changed while it was read');
        left = n;
        state = 'bytes';
      }
    }
    held = Buffer.from(buf.subarray(i));
  }
  return written;
}
