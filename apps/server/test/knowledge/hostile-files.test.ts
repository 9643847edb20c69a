import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { createContext, migrateDatabase, openConfiguredDatabase } from '../../src/bootstrap.ts';
import { loadConfig } from '../../src/config.ts';
import { knowledgeSources, sourceFiles } from '../../src/db/schema/index.ts';
import { ingestionStep } from '../../src/features/knowledge/ingestion/ingest.jobs.ts';
import { createAssistant } from '../support/factories.ts';
import { createTestApp, ORIGIN, type TestApp } from '../support/harness.ts';
import { largePdf, manyEntries, pageTreeBomb, truncated, zipBomb } from '../support/hostile-files.ts';
import { waitFor } from '../support/wait.ts';
import { createWorld, type World } from '../support/world.ts';
import { getSource, multipart } from './helpers.ts';

/**
 * docs/knowledge.md "Hostile and broken files": each file goes through the real upload route and
 * the real ingestion job; the source ends `failed` with an error naming the limit, the test
 * process (the server, inject runs in-process) grows by less than 300 MB, and other requests keep
 * answering while the file is handled. Every file is generated here.
 */

const MB = 1024 * 1024;
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

let t: TestApp;
let w: World;
let asst: string;
let stopJobs: () => Promise<void>;
beforeAll(async () => {
  // The page-tree PDF below would run for many minutes; 8 s (default 60) keeps the test short and
  // still leaves a loaded machine time to start a worker under tsx for the other files.
  t = await createTestApp({ FILE_PARSE_TIMEOUT_SECONDS: '8' });
  w = await createWorld(t);
  asst = await createAssistant(t, w.owner, w.ws);
  const jobs = t.startJobs(['ingestion'], { ingestion: 50 });
  stopJobs = async () => {
    await jobs.stop();
  };
});
afterAll(async () => {
  await stopJobs();
  await t.close();
});

/**
 * Uploads the file, then until its source is final: reads the test process's resident memory and
 * asks GET /healthz and the source list, each of which must answer. Returns the final source, the
 * memory growth and how many health checks answered while the source was `processing`.
 */
async function ingestHostile(name: string, content: Buffer, mime: string) {
  const before = process.memoryUsage().rss;
  let peak = before;
  const body = multipart(name, content, mime);
  const res = await t.request({
    method: 'POST',
    url: `/api/assistants/${asst}/sources/files`,
    headers: { ...w.owner.headers, ...body.headers },
    payload: body.payload,
  });
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().data.id as string;
  let answeredWhileProcessing = 0;
  let source = await getSource(t, w.owner, asst, id);
  await waitFor(
    async () => {
      peak = Math.max(peak, process.memoryUsage().rss);
      const health = await t.request({ method: 'GET', url: '/healthz' });
      expect(health.statusCode).toBe(200);
      const list = await t.request({
        method: 'GET',
        url: `/api/assistants/${asst}/sources`,
        headers: w.owner.headers,
      });
      expect(list.statusCode).toBe(200);
      const previous = source.status;
      source = await getSource(t, w.owner, asst, id);
      if (previous === 'processing' && source.status === 'processing') answeredWhileProcessing++;
      return source.status === 'ready' || source.status === 'failed';
    },
    60_000,
    `${name} to be handled`,
  );
  return { source, grewMb: (peak - before) / MB, answeredWhileProcessing };
}

describe('hostile files', () => {
  it('a zip bomb (one part inflating to 2 GiB) fails on its declared size, unpacked by no one', async () => {
    const bomb = zipBomb(2048);
    expect(bomb.length).toBeLessThan(3 * MB);
    const r = await ingestHostile('bomb.docx', bomb, DOCX);
    expect(r.source.status).toBe('failed');
    expect(r.source.error).toBe(
      'The file unpacks to more than 200 MB (the limit, FILE_MAX_UNPACKED_MB). Split it into smaller files or save it as PDF.',
    );
    expect(r.grewMb).toBeLessThan(300);
    expect(r.answeredWhileProcessing).toBeGreaterThan(0);
  });

  it('a zip bomb whose directory lies about its size stops at the first byte past it', async () => {
    const r = await ingestHostile('liar.docx', zipBomb(2048, false), DOCX);
    expect(r.source.status).toBe('failed');
    expect(r.source.error).toMatch(
      /^The DOCX is damaged or crafted: a part unpacks to a different size than the file declares\./,
    );
    expect(r.grewMb).toBeLessThan(300);
  });

  it('a DOCX of 100,000 parts fails on the entry count', async () => {
    const r = await ingestHostile('many.docx', manyEntries(100_000), DOCX);
    expect(r.source.status).toBe('failed');
    expect(r.source.error).toMatch(
      /^The file holds 100000 parts, more than 10000 \(the limit, FILE_MAX_ENTRIES\)\. Open it in Word/,
    );
    expect(r.grewMb).toBeLessThan(300);
    expect(r.answeredWhileProcessing).toBeGreaterThan(0);
  });

  it('a PDF that does not end parsing (a shared page tree of a million pages) is stopped at a limit: time, or memory where it grows first', async () => {
    const pdf = pageTreeBomb(1000);
    expect(pdf.length).toBeLessThan(20_000);
    const r = await ingestHostile('endless.pdf', pdf, 'application/pdf');
    expect(r.source.status).toBe('failed');
    // Which limit comes first depends on the machine: a warm worker on a fast one walks enough of
    // the tree in 8 s to pass 256 MB; on one kept busy by other tests the parse, below the server's
    // priority, may not get 8 s of CPU within its 32 s on the clock. Either way the parse is
    // stopped and says which limit.
    expect(r.source.error).toMatch(
      /^Reading the file (took longer than 8 s \(the limit, FILE_PARSE_TIMEOUT_SECONDS\)|needed more than 256 MB of memory \(the limit, FILE_PARSE_MEMORY_MB\))\. Split it|^Reading the file did not finish within 32 s: the server was too busy/,
    );
    expect(r.grewMb).toBeLessThan(300);
    // the event loop stayed free: requests answered during the seconds it ran
    expect(r.answeredWhileProcessing).toBeGreaterThan(10);
  }, 90_000);

  it('a truncated PDF fails with a clear error, not a crash', async () => {
    const r = await ingestHostile('cut.pdf', truncated(largePdf(1, 20), 0.6), 'application/pdf');
    expect(r.source.status).toBe('failed');
    expect(r.source.error).toBe(
      'The PDF is incomplete: it ends before its last line (%%EOF). Export or download it again and upload the new file.',
    );
  });

  it('after all of them the server still ingests a good file', async () => {
    const r = await ingestHostile('good.pdf', largePdf(2, 5), 'application/pdf');
    expect(r.source).toMatchObject({ status: 'ready', error: null });
    expect(r.source.chunkCount).toBeGreaterThan(0);
  });
});

/**
 * A full disk under DATA_DIR: the server's own PGlite database lives there (bootstrap.ts), on a
 * small tmpfs mounted for the test and filled to its last 256 KB. Mounting needs root; elsewhere
 * the test is skipped (it says so).
 */
const mnt = mkdtempSync(join(tmpdir(), 'parley-full-disk-'));
const mounted = (() => {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=160m', 'tmpfs', mnt], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe.skipIf(!mounted)('a full disk under DATA_DIR (tmpfs of 160 MB; needs root to mount)', () => {
  let full: TestApp;
  let owner: World['owner'];
  let assistant: string;
  const filler = join(mnt, 'filler');
  beforeAll(async () => {
    const config = loadConfig({
      PUBLIC_BASE_URL: ORIGIN,
      DATA_DIR: mnt,
      LOG_LEVEL: 'silent',
      AUTH_RATE_LIMIT_PER_MINUTE: '100000',
      REDIS_URL: '',
      UPLOAD_LIMIT_BYTES: String(16 * MB),
    });
    const database = await openConfiguredDatabase(config);
    await migrateDatabase(database);
    const ctx = createContext(config, database);
    const app = await buildApp(ctx, { logger: false });
    await app.ready();
    full = {
      app,
      ctx,
      dataDir: mnt,
      db: { database, drop: async () => database.close() },
      request: (opts) => app.inject({ ...opts, headers: { origin: ORIGIN, ...(opts.headers ?? {}) } }),
      startJobs: () => {
        throw new Error('no jobs here');
      },
      close: async () => {
        await app.close();
        await ctx.limits.close();
        await ctx.fanout.close();
        await database.close();
      },
    };
    const world = await createWorld(full);
    owner = world.owner;
    assistant = await createAssistant(full, owner, world.ws);
  });
  afterAll(async () => {
    await full?.close();
    execFileSync('umount', [mnt]);
    rmSync(mnt, { recursive: true, force: true });
  });

  const upload = (name: string, content: Buffer) => {
    const body = multipart(name, content, 'application/pdf');
    return full.request({
      method: 'POST',
      url: `/api/assistants/${assistant}/sources/files`,
      headers: { ...owner.headers, ...body.headers },
      payload: body.payload,
    });
  };

  it('answers 500 saying the storage is full and keeps no source and no part of the file', async () => {
    const fs = statfsSync(mnt);
    writeFileSync(filler, Buffer.alloc(Math.max(0, fs.bavail * fs.bsize - 256 * 1024)));
    const res = await upload('manual.pdf', randomBytes(8 * MB));
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({
      error:
        "The server's storage is full, so nothing was saved. Ask whoever runs Parley to free disk space (where DATA_DIR or the database keeps its files), then try again.",
      code: 'internal_server_error:api',
    });
    const [sources] = await full.ctx.db
      .select({ n: count() })
      .from(knowledgeSources)
      .where(eq(knowledgeSources.assistantId, assistant));
    const [files] = await full.ctx.db.select({ n: count() }).from(sourceFiles);
    expect([sources!.n, files!.n]).toEqual([0, 0]);
    const list = await full.request({
      method: 'GET',
      url: `/api/assistants/${assistant}/sources`,
      headers: owner.headers,
    });
    expect(list.json().data).toEqual([]);
  });

  it('takes the same upload once space is freed', async () => {
    rmSync(filler, { force: true });
    const res = await upload('manual.pdf', randomBytes(8 * MB));
    expect(res.statusCode, res.body).toBe(201);
  });

  it('fails an ingestion with the same words when the disk fills before the file is read, and leaves no copy', async () => {
    // With PGlite the server copies the stored file under DATA_DIR/tmp for its parse process.
    const res = await upload('catalogue.pdf', largePdf(4, 3));
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().data.id as string;
    const fs = statfsSync(mnt);
    writeFileSync(filler, Buffer.alloc(Math.max(0, fs.bavail * fs.bsize - 256 * 1024)));
    try {
      while ((await ingestionStep(full.ctx, 5)) > 0);
    } finally {
      rmSync(filler, { force: true });
    }
    const source = await getSource(full, owner, assistant, id);
    expect(source.status).toBe('failed');
    expect(source.error).toMatch(/^The server's storage is full, so nothing was saved/);
    expect(readdirSync(join(mnt, 'tmp'))).toEqual([]);
  });
});
