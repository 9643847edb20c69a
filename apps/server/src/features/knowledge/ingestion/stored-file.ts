import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';

/**
 * Reads an uploaded file's bytes from PostgreSQL inside the parse worker (parse-worker.ts), on a
 * connection of its own, so that reading tens of megabytes costs the server's event loop nothing
 * (docs/performance.md "Hostile files during the API benchmark"). Undefined when the file is gone.
 * With PGlite the server reads it (sources.repo.ts `readSourceFile`): PGlite lives in the server's
 * thread.
 *
 * One `COPY ... TO STDOUT (FORMAT binary)`, streamed into one buffer: PostgreSQL sends the bytes as
 * they are, where a query's bytea comes as twice as many hex digits, which PostgreSQL encodes and
 * node-postgres turns into strings before decoding them (measured on a 50 MB file: about a third
 * of the CPU, and no garbage for the worker's collector).
 */
/** Our ids (lib/ids.ts) are letters, digits and an underscore: nothing that can end a string literal. */
const ID = /^[A-Za-z0-9_]{1,64}$/;

export async function readStoredFile(databaseUrl: string, sourceId: string): Promise<Buffer | undefined> {
  // COPY takes no parameters: the id goes into the statement, so it must look exactly like an id.
  if (!ID.test(sourceId)) return undefined;
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 10_000 });
  client.on('error', () => undefined); // a dropped connection fails the stream instead
  await client.connect();
  try {
    const stream = client.query(
      copyTo(
        `copy (select content from source_files where source_id = '${sourceId}') to stdout (format binary)`,
      ),
    );
    return await firstValue(stream);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * The one value of the one column of the first row of a binary COPY (PostgreSQL's COPY docs,
 * "Binary Format"): an 11-byte signature, 32-bit flags, a 32-bit header extension length and the
 * extension; then per row a 16-bit field count (-1 ends the data) and per field a 32-bit length
 * (-1 for null) and the bytes.
 */
async function firstValue(stream: AsyncIterable<Buffer>): Promise<Buffer | undefined> {
  let head: Buffer = Buffer.alloc(0);
  let value: Buffer | undefined;
  let none = false;
  let at = 0;
  for await (const chunk of stream) {
    let bytes = chunk;
    if (!value && !none) {
      head = Buffer.concat([head, bytes]);
      if (head.length < 19) continue;
      const row = 19 + head.readUInt32BE(15);
      if (head.length < row + 2) continue;
      if (head.readInt16BE(row) < 1) {
        none = true; // no row
        continue;
      }
      if (head.length < row + 6) continue;
      const length = head.readInt32BE(row + 2);
      if (length < 0) {
        none = true; // null
        continue;
      }
      value = Buffer.allocUnsafeSlow(length);
      bytes = head.subarray(row + 6);
    }
    if (!value) continue; // the rest of a stream with nothing to keep
    const take = Math.min(bytes.length, value.length - at);
    bytes.copy(value, at, 0, take);
    at += take;
  }
  return value && at === value.length ? value : undefined;
}
