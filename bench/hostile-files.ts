/**
 * docs/performance.md "Hostile files during the API benchmark": the API benchmark's session route
 * (GET /api/workspaces/{id}, 50 connections) measured quietly and again while a 50 MB PDF and a
 * zip bomb are being ingested by the same server process, rounds alternating; the figure is the
 * ratio of the p99 latencies (target at most 1.2). Both files are uploaded before the rounds and
 * re-synced every 2 s during each loaded round (HOSTILE_RESYNC_MS), so ingestion (reading the file
 * back, parsing it in its worker, chunking, embedding, storing) recurs through the whole measurement.
 *
 *   npx tsx bench/hostile-files.ts                  # PGlite
 *   DATABASE_URL=postgres://... npx tsx bench/hostile-files.ts
 *   BENCH_ONLY=hostile npm run bench
 *
 * Each is measured twice: as fast as the server answers (the API benchmark's way), then at a fixed
 * rate, BENCH_RATE_SHARE (0.5) of the quiet rate. BENCH_DURATION (seconds per measurement, 8),
 * BENCH_ROUNDS (3), BENCH_CONNECTIONS (50), HOSTILE_PDF_MB (50), HOSTILE_RESYNC_MS (2000: each file
 * ingested again at most every 2 s, as soon as it settles with 0).
 *
 * HOSTILE_CONTROL=busy-loop measures the host instead: in place of the ingestions, one process at
 * the parse process's priority (nice 10) that only spins, touching no memory. What it costs is what
 * any work beside the server costs on this machine, however little it asks of the scheduler.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { largePdf, zipBomb } from '../apps/server/test/support/hostile-files.ts';
import { median, type Sample, sample, startTarget } from './api.ts';
import { paced, scratchDatabase, seedOwner, stopProcess } from './support.ts';
import { pct } from './widget-support.ts';

const serverDir = fileURLToPath(new URL('../apps/server/', import.meta.url));
const DURATION = Number(process.env.BENCH_DURATION ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const PDF_MB = Number(process.env.HOSTILE_PDF_MB ?? 50);
const RATE_SHARE = Number(process.env.BENCH_RATE_SHARE ?? 0.5);
const RESYNC_MS = Number(process.env.HOSTILE_RESYNC_MS ?? 2000);
const BUSY_LOOP = process.env.HOSTILE_CONTROL === 'busy-loop';
const MB = 1024 * 1024;

type Source = { id: string; status: string; error: string | null; chunkCount: number };

const dir = mkdtempSync(join(tmpdir(), 'parley-bench-hostile-'));
const scratch = process.env.DATABASE_URL ? await scratchDatabase(process.env.DATABASE_URL, 'hostile') : null;
const env: NodeJS.ProcessEnv = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  NODE_ENV: 'production',
  PORT: '0',
  HOST: '127.0.0.1',
  DATA_DIR: join(dir, 'app'),
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
  API_RATE_LIMIT_PER_MINUTE: '1000000000',
  UPLOAD_LIMIT_BYTES: String((PDF_MB + 10) * MB),
  ...(scratch ? { DATABASE_URL: scratch.url } : {}),
  ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
};
const children: ChildProcess[] = [];
try {
  mkdirSync(join(dir, 'app'), { recursive: true });
  const seed = await seedOwner(env, { plan: 'pro' });
  const app = await startTarget(
    ['src/main.ts'],
    serverDir,
    env,
    join(dir, 'app.log'),
    /Parley is ready: http:\/\/[^:]+:(\d+)/,
  );
  children.push(app.child);
  const base = `http://127.0.0.1:${app.port}`;
  const headers = { cookie: seed.cookie, origin: base };
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers:
        body === undefined || body instanceof FormData
          ? headers
          : { ...headers, 'content-type': 'application/json' },
      body: body instanceof FormData ? body : body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return JSON.parse(text).data;
  };
  const assistant = (await api('POST', '/api/assistants', { workspaceId: seed.workspaceId, name: 'Bench' }))
    .id as string;
  const sources = `/api/assistants/${assistant}/sources`;
  const upload = async (name: string, content: Buffer, type: string) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(content)], { type }), name);
    return (await api('POST', `${sources}/files`, form)) as Source;
  };
  const get = (id: string) => api('GET', `${sources}/${id}`) as Promise<Source>;
  const settled = (s: Source) => s.status === 'ready' || s.status === 'failed';
  const waitSettled = async (id: string) => {
    for (;;) {
      const s = await get(id);
      if (settled(s)) return s;
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  const pdf = largePdf(PDF_MB);
  const bomb = zipBomb(2048);
  const started = performance.now();
  const pdfSource = await upload('catalogue.pdf', pdf, 'application/pdf');
  const bombSource = await upload(
    'bomb.docx',
    bomb,
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  );
  const [pdfDone, bombDone] = [await waitSettled(pdfSource.id), await waitSettled(bombSource.id)];
  const firstIngestSeconds = (performance.now() - started) / 1000;

  const url = `${base}/api/workspaces/${seed.workspaceId}`;
  await sample(url, { cookie: seed.cookie }, CONNECTIONS, 2); // warm-up

  /**
   * Re-syncs each source once it has settled and RESYNC_MS have passed since its last sync, until
   * stopped; counts finished ingestions. A steady pace keeps the ingestion load the same whatever
   * one ingestion costs (re-synced as soon as settled, a faster ingestion would mean more of them).
   */
  const keepIngesting = () => (BUSY_LOOP ? keepSpinning() : keepSyncing());
  /** The control (HOSTILE_CONTROL=busy-loop): a busy loop at nice 10 for the loaded round. */
  const keepSpinning = () => {
    const spinner = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
    if (spinner.pid) setPriority(spinner.pid, 10);
    return async () => {
      spinner.kill('SIGKILL');
      return 0;
    };
  };
  const keepSyncing = () => {
    let running = true;
    let finished = 0;
    const ids = [pdfSource.id, bombSource.id];
    const lastSync = new Map<string, number>();
    const sync = async (id: string) => {
      lastSync.set(id, performance.now());
      await api('POST', `${sources}/${id}/sync`);
    };
    const loop = async () => {
      for (const id of ids) await sync(id);
      while (running) {
        for (const id of ids) {
          if (performance.now() - (lastSync.get(id) ?? 0) < RESYNC_MS) continue;
          const s = await get(id);
          if (settled(s)) {
            finished++;
            if (running) await sync(id);
          }
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const done = loop();
    return async () => {
      running = false;
      await done;
      for (const id of [pdfSource.id, bombSource.id]) await waitSettled(id);
      return finished;
    };
  };

  // At a fixed rate, open loop (support.ts `paced`): each request at its time, latency from it;
  // autocannon's overallRate would release each second's requests in a burst.
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const getOnce = () =>
    new Promise<number>((resolve, reject) => {
      const req = request(url, { agent, headers: { cookie: seed.cookie } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end();
    });
  const measureOnce = async (rate?: number): Promise<Sample> => {
    if (!rate) return sample(url, { cookie: seed.cookie }, CONNECTIONS, DURATION);
    const count = Math.round(rate * DURATION);
    const r = await paced(count, rate, getOnce);
    if (r.errors > 0) throw new Error(`${url}: ${r.errors} failed requests at ${rate}/s`);
    const round = (x: number) => Math.round(x * 10) / 10;
    return { rps: rate, p50: round(pct(r.latencies, 50)), p99: round(pct(r.latencies, 99)), requests: count };
  };

  /** Rounds of a quiet sample then one while ingesting, at `rate` requests/s or as fast as answered. */
  const measure = async (rate?: number) => {
    const quiet: Sample[] = [];
    const loaded: Sample[] = [];
    const ingestions: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      quiet.push(await measureOnce(rate));
      const stop = keepIngesting();
      await new Promise((r) => setTimeout(r, 200)); // the first claim is under way
      loaded.push(await measureOnce(rate));
      ingestions.push(await stop());
    }
    const tenth = (x: number) => Math.round(x * 10) / 10; // a median of two is their mean
    const of = (xs: Sample[]) => ({
      p50: tenth(median(xs.map((s) => s.p50))),
      p99: tenth(median(xs.map((s) => s.p99))),
      rps: median(xs.map((s) => s.rps)),
    });
    return {
      quiet: of(quiet),
      loaded: of(loaded),
      ratios: loaded.map((l, i) => l.p99 / quiet[i]!.p99),
      ingestions,
    };
  };
  const saturated = await measure();
  // The same at a fixed rate, a share of what the quiet runs answered: a server with room to spare,
  // as one is run, where the saturated runs leave none.
  const rate = Math.round(saturated.quiet.rps * RATE_SHARE);
  const fixed = await measure(rate);
  const rows = (name: string, m: typeof saturated) => [
    `| ${name}, quiet | ${Math.round(m.quiet.rps)} | ${m.quiet.p50} | ${m.quiet.p99} | |`,
    `| ${name}, while ingesting | ${Math.round(m.loaded.rps)} | ${m.loaded.p50} | ${m.loaded.p99} | ${m.ratios.map((r) => r.toFixed(2)).join(', ')}; median **${median(m.ratios).toFixed(2)}x** |`,
  ];
  const out = [
    `\n${BUSY_LOOP ? 'Control, a busy loop at nice 10 in place of the ingestions,' : 'Hostile files'} during the API benchmark on ${scratch ? 'PostgreSQL' : 'PGlite'}: GET /api/workspaces/{id}, ${CONNECTIONS} connections; ${ROUNDS} rounds of ${DURATION} s, quiet and loaded alternating; medians. node ${process.version}`,
    `Files: a ${(pdf.length / MB).toFixed(1)} MB PDF (${pdfDone.status}${pdfDone.error ? `: ${pdfDone.error}` : `, ${pdfDone.chunkCount} chunks`}) and a ${(bomb.length / MB).toFixed(1)} MB zip bomb inflating to 2 GiB (${bombDone.status}: ${bombDone.error}); first upload to both settled ${firstIngestSeconds.toFixed(1)} s; ingestions finished per loaded round: ${saturated.ingestions.join(', ')} (saturated), ${fixed.ingestions.join(', ')} (fixed rate).\n`,
    '| Run | req/s | p50 ms | p99 ms | p99 while ingesting / quiet, per round (target at most 1.2x) |',
    '|---|---|---|---|---|',
    ...rows('as fast as answered', saturated),
    ...rows(`at ${rate} req/s (${Math.round(RATE_SHARE * 100)}% of the quiet rate)`, fixed),
    '',
  ];
  process.stdout.write(`${out.join('\n')}\n`);
} finally {
  await Promise.all(children.map(stopProcess));
  await scratch?.drop();
  rmSync(dir, { recursive: true, force: true });
}
