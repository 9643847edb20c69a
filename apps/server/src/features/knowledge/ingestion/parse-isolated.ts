import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ArchiveLimits } from './archive.ts';
import { FileLimitError, fileError } from './file-errors.ts';
import { gateMemory } from './parse-gate.ts';
import type { FileAtPath, ParseInput, ParseOutput, StoredFile } from './parse-worker.ts';
import type { FileKind, Parsed } from './parsers.ts';

/**
 * Parses an uploaded file in a worker thread of its own (docs/knowledge.md "Hostile and broken
 * files"), so that neither a slow PDF nor a hostile archive touches its process's event loop or
 * memory. The server runs this in its parse process (parse-process.ts), not in its own:
 * - `resourceLimits` caps the worker's JavaScript heap at `memoryMb`; pdf.js and JSZip also hold
 *   bytes in ArrayBuffers, which that cap does not count, so the process's resident memory is
 *   watched too and the worker is stopped once it has grown by more than `memoryMb`;
 * - once the worker has spent `timeoutMs` of CPU time on the file it is terminated: CPU time, not
 *   time on the clock, because the parse process runs below the server's priority and on a busy machine
 *   a parse waits for the CPU without being at fault (Linux, where a thread's CPU time can be read
 *   from /proc; elsewhere the clock counts). Time on the clock is bounded too, by `wallLimitMs`;
 * - a zip archive's directory is checked first (archive.ts).
 * One worker at a time, kept between files: starting one (loading and compiling pdf.js and the
 * other parsers) costs about 0.35 s of CPU compiled, several times a typical parse. A worker that
 * was stopped for time or memory, failed unexpectedly or kept more than half its heap is
 * terminated and the next file gets a fresh one; an idle worker stops after `IDLE_MS`
 * (docs/decisions/0014-hostile-files.md).
 */
export type ParseLimits = ArchiveLimits & { memoryMb: number; timeoutMs: number };

const MB = 1024 * 1024;
/** How often the resident memory is read while a worker runs (a cheap call). */
const WATCH_EVERY_MS = 20;
/** How long a worker waits for the next file before it stops. */
const IDLE_MS = 10_000;
/** A worker is replaced after this many files, whatever it kept. */
const FILES_PER_WORKER = 100;
/** At most this long on the clock for one file, however busy the machine: below the ingestion lease (5 min). */
const WALL_MAX_MS = 240_000;

/**
 * How long one file may take on the clock: where CPU time is counted, four times the CPU limit up to
 * `WALL_MAX_MS` (never below the CPU limit); elsewhere the limit itself.
 */
export const wallLimitMs = (limits: ParseLimits) =>
  cpuTimeReadable
    ? Math.max(limits.timeoutMs, Math.min(4 * limits.timeoutMs, WALL_MAX_MS))
    : limits.timeoutMs;
const cpuTimeReadable = existsSync('/proc/self/task');

/** CPU time (ms) a thread of this process has used, from /proc/self/task/<tid>/stat (proc(5)). */
function threadCpuMs(tid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}
/** USER_HZ, 100 on Linux whatever the kernel's own tick. */
const CLOCK_TICKS = 100;

// The worker's entry beside this module: parse-worker.js once compiled, parse-worker.ts under tsx
// (npm start, tests). A worker does not inherit tsx's hooks (nor take `--import tsx` on Node 20),
// so for TypeScript a one-line bootstrap registers tsx's ESM API in the worker, then imports it.
const here = import.meta.url;
const compiled = !/\.[cm]?ts$/.test(new URL(here).pathname);
const entry: { url: URL | string; eval: boolean } = compiled
  ? { url: new URL('./parse-worker.js', here), eval: false }
  : { url: tsBootstrap(new URL('./parse-worker.ts', here).href), eval: true };

function tsBootstrap(target: string): string {
  // tsx's ESM API by its published exports map, so the worker finds it whatever its cwd
  const require = createRequire(here);
  const pkgFile = require.resolve('tsx/package.json');
  const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as {
    exports: Record<string, { import: { default: string } }>;
  };
  const api = pathToFileURL(join(dirname(pkgFile), pkg.exports['./esm/api']!.import.default)).href;
  return `import(${JSON.stringify(api)}).then(({ register }) => { register(); return import(${JSON.stringify(target)}); });`;
}

/**
 * `file`: where the worker reads the bytes itself (a file stored in PostgreSQL, or one written to a
 * path for the parse: what the parse process passes), or the bytes, copied to the worker.
 */
export function parseFileIsolated(
  file: Buffer | StoredFile | FileAtPath,
  kind: FileKind,
  limits: ParseLimits,
): Promise<Parsed> {
  const bytes = Buffer.isBuffer(file) ? Uint8Array.from(file) : undefined;
  const input: ParseInput = {
    file: bytes ? { bytes } : 'path' in file ? { path: file.path } : { stored: file as StoredFile },
    kind,
    limits: {
      maxUnpackedBytes: limits.maxUnpackedBytes,
      maxEntries: limits.maxEntries,
      maxRatio: limits.maxRatio,
    },
  };
  return new Promise<Parsed>((resolve, reject) => {
    const warm = takeWorker(limits.memoryMb);
    const { worker } = warm;
    let settled = false;
    const finish = (err: Error | null, parsed?: Parsed, healthy = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(watch);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      if (healthy) release(warm);
      else void worker.terminate();
      if (err) reject(err);
      else resolve(parsed!);
    };
    const onMessage = (out: ParseOutput | { tid: number }) => {
      if ('tid' in out) return;
      // A worker that answered in time takes the next file, even when the answer is a refusal (an
      // archive over a limit is refused on its directory or while counting, before it grows); one
      // that failed unexpectedly or kept much of its heap is replaced, as is one stopped for time
      // or memory (terminated in `finish`).
      const healthy =
        (out.ok || out.type !== 'unexpected') &&
        out.heapUsedMb < limits.memoryMb / 2 &&
        ++warm.files < FILES_PER_WORKER;
      if (out.ok)
        return finish(null, out.title ? { text: out.text, title: out.title } : { text: out.text }, healthy);
      const message = out.type === 'unexpected' ? `The parse worker failed: ${out.message}` : out.message;
      finish(fileError(out.type, message), undefined, healthy);
    };
    const onError = (err: Error & { code?: string }) =>
      finish(err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? tooBig(limits) : err);
    const onExit = (code: number) =>
      finish(new Error(`The parse worker stopped (exit code ${code}) without an answer`));
    const wall = wallLimitMs(limits);
    const timer = setTimeout(() => finish(wall > limits.timeoutMs ? tooLong(wall) : tooSlow(limits)), wall);
    const startRss = process.memoryUsage.rss();
    let startCpu: number | undefined;
    const watch = setInterval(() => {
      if (process.memoryUsage.rss() - startRss > limits.memoryMb * MB) return finish(tooBig(limits));
      // the worker's thread id comes with its first message, so a fresh worker's start is not counted
      const cpu = warm.tid === undefined ? undefined : threadCpuMs(warm.tid);
      if (cpu === undefined) return;
      startCpu ??= cpu;
      if (cpu - startCpu > limits.timeoutMs) finish(tooSlow(limits));
    }, WATCH_EVERY_MS);
    worker.on('message', onMessage);
    worker.once('error', onError);
    worker.once('exit', onExit);
    worker.postMessage(input, bytes ? [bytes.buffer as ArrayBuffer] : []);
  });
}

/** A worker between files: at most one per process, stopped once idle for `IDLE_MS`. */
type WarmWorker = { worker: Worker; memoryMb: number; files: number; tid?: number; idle?: NodeJS.Timeout };
let waiting: WarmWorker | undefined;
let started = 0;

/** How many parse workers this process has started (test/knowledge/parse-worker.test.ts). */
export const parseWorkersStarted = () => started;

function takeWorker(memoryMb: number): WarmWorker {
  const warm = waiting;
  waiting = undefined;
  if (warm && warm.memoryMb === memoryMb) {
    clearTimeout(warm.idle);
    warm.worker.ref();
    return warm;
  }
  if (warm) void warm.worker.terminate();
  started++;
  const worker = new Worker(entry.url, {
    eval: entry.eval,
    workerData: { gate: gateMemory() },
    resourceLimits: {
      maxOldGenerationSizeMb: memoryMb,
      maxYoungGenerationSizeMb: Math.min(32, Math.max(4, Math.floor(memoryMb / 8))),
      stackSizeMb: 4,
    },
    // pdf.js warns on the console about fonts and the like: not the server's log
    stdout: true,
    stderr: true,
  });
  worker.stdout.resume();
  worker.stderr.resume();
  const fresh: WarmWorker = { worker, memoryMb, files: 0 };
  worker.on('message', (m: { tid?: number }) => {
    if (typeof m.tid === 'number') fresh.tid = m.tid;
  });
  // A worker that fails or ends between files is dropped, never an unhandled error of the server's.
  worker.on('error', () => undefined);
  worker.on('exit', () => {
    if (waiting === fresh) waiting = undefined;
  });
  return fresh;
}

function release(warm: WarmWorker) {
  if (waiting) {
    void warm.worker.terminate();
    return;
  }
  waiting = warm;
  // An idle worker neither keeps the process alive nor holds its memory for long.
  warm.worker.unref();
  warm.idle = setTimeout(() => {
    if (waiting === warm) waiting = undefined;
    void warm.worker.terminate();
  }, IDLE_MS);
  warm.idle.unref();
}

const tooSlow = (limits: ParseLimits) =>
  new FileLimitError(
    `Reading the file took longer than ${Math.round(limits.timeoutMs / 100) / 10} s (the limit, FILE_PARSE_TIMEOUT_SECONDS). Split it into smaller files, or upload its text as a text or Markdown file.`,
  );

const tooLong = (wallMs: number) =>
  new FileLimitError(
    `Reading the file did not finish within ${Math.round(wallMs / 1000)} s: the server was too busy to give it the time it needs. Sync the source again later.`,
  );

const tooBig = (limits: ParseLimits) =>
  new FileLimitError(
    `Reading the file needed more than ${limits.memoryMb} MB of memory (the limit, FILE_PARSE_MEMORY_MB). Split it into smaller files, or upload its text as a text or Markdown file.`,
  );
