import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import { sourceFiles } from '../../src/db/schema/index.ts';
import { readStoredFile } from '../../src/features/knowledge/ingestion/stored-file.ts';
import { onPostgres } from '../support/database.ts';
import { addSource, createAssistant } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { createWorld, type World } from '../support/world.ts';

/**
 * ingestion/stored-file.ts: on PostgreSQL the parse worker reads an uploaded file back in 1 MB
 * slices of one binary COPY, on a connection it keeps between files. Every byte must come back in
 * its place whatever the size, a missing file is undefined, and a kept connection the server
 * closed meanwhile is replaced.
 */
const MB = 1024 * 1024;

let t: TestApp;
let w: World;
let asst: string;
beforeAll(async () => {
  t = await createTestApp();
  w = await createWorld(t);
  asst = await createAssistant(t, w.owner, w.ws);
});
afterAll(async () => {
  await t.close();
});

/** A source with `content` stored as its file, as the upload route stores it. */
async function stored(content: Buffer) {
  const source = await addSource(t, w.owner, asst, { type: 'text', name: 'file', text: 'x' });
  await t.ctx.db.insert(sourceFiles).values({
    sourceId: source.id,
    filename: 'f.bin',
    mimeType: 'application/pdf',
    size: content.length,
    content,
  });
  return source.id;
}

it('files are stored uncompressed, so that a slice is fetched without the rest (migration 0015)', async () => {
  const [row] = await queryRows<{ attstorage: string }>(
    t.ctx.db,
    sql`select attstorage from pg_attribute where attrelid = 'source_files'::regclass and attname = 'content'`,
  );
  expect(row?.attstorage).toBe('e');
});

describe.skipIf(!onPostgres())('reading a stored file back in the parse worker (PostgreSQL)', () => {
  const url = () => t.ctx.database.pool!.options.connectionString!;

  it('every size comes back byte for byte: empty, one byte, a slice exactly, a slice and a byte, several', async () => {
    for (const size of [0, 1, MB - 1, MB, MB + 1, 3.5 * MB, 5 * MB]) {
      const content = randomBytes(size);
      const id = await stored(content);
      const back = await readStoredFile(url(), id);
      expect(back?.length, `size ${size}`).toBe(size);
      expect(back!.equals(content), `size ${size}`).toBe(true);
    }
  });

  it('a file that is not there, or an id that is not one, is undefined', async () => {
    const source = await addSource(t, w.owner, asst, { type: 'text', name: 'no file', text: 'x' });
    expect(await readStoredFile(url(), source.id)).toBeUndefined();
    expect(await readStoredFile(url(), "src_x' or 'a'='a")).toBeUndefined();
  });

  it('one connection serves file after file; one the server closed is replaced on the next read', async () => {
    const content = randomBytes(2 * MB + 17);
    const id = await stored(content);
    const backends = () =>
      queryRows<{ pid: number }>(
        t.ctx.db,
        sql`select pid from pg_stat_activity where application_name = 'parley-parse-worker' and datname = current_database()`,
      );
    for (let i = 0; i < 3; i++) expect((await readStoredFile(url(), id))!.equals(content)).toBe(true);
    expect(await backends()).toHaveLength(1);
    await t.ctx.db.execute(
      sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'parley-parse-worker' and datname = current_database()`,
    );
    expect((await readStoredFile(url(), id))!.equals(content)).toBe(true);
    expect(await backends()).toHaveLength(1);
  });
});
