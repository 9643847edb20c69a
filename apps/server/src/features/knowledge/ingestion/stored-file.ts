import pg from 'pg';

/**
 * Reads an uploaded file's bytes from PostgreSQL inside the parse worker (parse-worker.ts), on a
 * connection of its own: decoding tens of megabytes of bytea there costs the server's event loop
 * nothing (docs/performance.md "Hostile files during the API benchmark"). Undefined when the file
 * is gone. With PGlite the server reads it (sources.repo.ts `readSourceFile`): PGlite lives in the
 * server's thread.
 */
const SLICE = 4 * 1024 * 1024;

export async function readStoredFile(databaseUrl: string, sourceId: string): Promise<Buffer | undefined> {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 10_000 });
  client.on('error', () => undefined); // a dropped connection fails the next query instead
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      'select octet_length(content)::int as n from source_files where source_id = $1',
      [sourceId],
    );
    if (!rows[0]) return undefined;
    const out = Buffer.allocUnsafeSlow(rows[0].n);
    for (let at = 0; at < out.length; at += SLICE) {
      const slice = await client.query<{ b: Buffer }>(
        'select substring(content from $1 for $2) as b from source_files where source_id = $3',
        [at + 1, SLICE, sourceId],
      );
      const bytes = slice.rows[0]?.b;
      if (!bytes || bytes.length !== Math.min(SLICE, out.length - at)) return undefined; // gone or replaced
      bytes.copy(out, at);
    }
    return out;
  } finally {
    await client.end().catch(() => undefined);
  }
}
