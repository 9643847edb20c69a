import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ArchiveLimits } from './archive.ts';
import { CorruptFileError, FileLimitError, UnsupportedFileError } from './file-errors.ts';
import type { ParseInput, ParseOutput, StoredFile } from './parse-worker.ts';
import type { FileKind, Parsed } from './parsers.ts';

/**
 * Parses an uploaded file in a worker thread of its own (docs/knowledge.md "Hostile and broken
 * files"), so that neither a slow PDF nor a hostile archive touches the server's event loop or
 * memory:
 * - `resourceLimits` caps the worker's JavaScript heap at `memoryMb`; pdf.js and JSZip also hold
 *   bytes in ArrayBuffers, which that cap does not count, so the process's resident memory is
 *   watched too and the worker is stopped once it has grown by more than `memoryMb`;
 * - after `timeoutMs` the worker is terminated;
 * - a zip archive's directory is checked first (archive.ts).
 * A fresh worker per file, no pool: ingestion parses one file at a time per process, a dead worker
 * leaves nothing behind, and the start (tens of milliseconds compiled) is small beside a parse.
 */
export type ParseLimits = ArchiveLimits & { memoryMb: number; timeoutMs: number };

const MB = 1024 * 1024;
/** How often the resident memory is read while a worker runs (a cheap call). */
const WATCH_EVERY_MS = 20;

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
 * `file`: the bytes, or where the worker reads them itself (a file stored in PostgreSQL).
 * `transfer`: the caller hands the bytes over (detached afterwards) when they fill an ArrayBuffer
 * of their own, which then moves to the worker without a copy.
 */
export function parseFileIsolated(
  file: Buffer | StoredFile,
  kind: FileKind,
  limits: ParseLimits,
  { transfer = false } = {},
): Promise<Parsed> {
  let bytes: Uint8Array | undefined;
  if (Buffer.isBuffer(file)) {
    const whole = file.byteOffset === 0 && file.byteLength === file.buffer.byteLength;
    bytes =
      transfer && whole && file.buffer instanceof ArrayBuffer
        ? new Uint8Array(file.buffer)
        : Uint8Array.from(file);
  }
  const input: ParseInput = {
    file: bytes ? { bytes } : { stored: file as StoredFile },
    kind,
    limits: {
      maxUnpackedBytes: limits.maxUnpackedBytes,
      maxEntries: limits.maxEntries,
      maxRatio: limits.maxRatio,
    },
  };
  return new Promise<Parsed>((resolve, reject) => {
    const worker = new Worker(entry.url, {
      eval: entry.eval,
      workerData: input,
      transferList: bytes ? [bytes.buffer as ArrayBuffer] : [],
      resourceLimits: {
        maxOldGenerationSizeMb: limits.memoryMb,
        maxYoungGenerationSizeMb: Math.min(32, Math.max(4, Math.floor(limits.memoryMb / 8))),
        stackSizeMb: 4,
      },
      // pdf.js warns on the console about fonts and the like: not the server's log
      stdout: true,
      stderr: true,
    });
    worker.stdout.resume();
    worker.stderr.resume();
    let settled = false;
    const finish = (err: Error | null, parsed?: Parsed) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(watch);
      void worker.terminate();
      if (err) reject(err);
      else resolve(parsed!);
    };
    const timer = setTimeout(() => finish(tooSlow(limits)), limits.timeoutMs);
    const startRss = process.memoryUsage.rss();
    const watch = setInterval(() => {
      if (process.memoryUsage.rss() - startRss > limits.memoryMb * MB) finish(tooBig(limits));
    }, WATCH_EVERY_MS);
    worker.once('message', (out: ParseOutput) => {
      if (out.ok) return finish(null, out.title ? { text: out.text, title: out.title } : { text: out.text });
      finish(
        out.type === 'limit'
          ? new FileLimitError(out.message)
          : out.type === 'corrupt'
            ? new CorruptFileError(out.message)
            : out.type === 'unsupported'
              ? new UnsupportedFileError(out.message)
              : new Error(`The parse worker failed: ${out.message}`),
      );
    });
    worker.once('error', (err: Error & { code?: string }) =>
      finish(err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? tooBig(limits) : err),
    );
    worker.once('exit', (code) =>
      finish(new Error(`The parse worker stopped (exit code ${code}) without an answer`)),
    );
  });
}

const tooSlow = (limits: ParseLimits) =>
  new FileLimitError(
    `Reading the file took longer than ${Math.round(limits.timeoutMs / 100) / 10} s (the limit, FILE_PARSE_TIMEOUT_SECONDS). Split it into smaller files, or upload its text as a text or Markdown file.`,
  );

const tooBig = (limits: ParseLimits) =>
  new FileLimitError(
    `Reading the file needed more than ${limits.memoryMb} MB of memory (the limit, FILE_PARSE_MEMORY_MB). Split it into smaller files, or upload its text as a text or Markdown file.`,
  );
