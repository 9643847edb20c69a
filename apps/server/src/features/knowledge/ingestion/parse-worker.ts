import { readlinkSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import type { ArchiveLimits } from './archive.ts';
import { CorruptFileError, type FileErrorType, fileErrorType } from './file-errors.ts';
import { useGate } from './parse-gate.ts';
import { type FileKind, parseFile } from './parsers.ts';
import { readStoredFile } from './stored-file.ts';

/**
 * The parse worker's entry (parse-isolated.ts starts it and hands it files one at a time): parses
 * the bytes it was handed, or reads them itself, from PostgreSQL (stored-file.ts) or from a
 * temporary file, and answers each file with one message, the text or the error, and how much of
 * its heap is in use. It writes nothing. It runs at the parse process's priority, below the server's
 * (parse-host.ts).
 */
export type StoredFile = { databaseUrl: string; sourceId: string };
/** A file written for the parse (PGlite's files, sources.repo.ts `writeSourceFile`). */
export type FileAtPath = { path: string };
export type ParseInput = {
  file: { bytes: Uint8Array } | { stored: StoredFile } | FileAtPath;
  kind: FileKind;
  limits: ArchiveLimits;
};
export type ParseOutput = (
  | { ok: true; text: string; title?: string }
  | { ok: false; type: FileErrorType; message: string }
) & { heapUsedMb: number };

async function parse(input: ParseInput): Promise<ParseOutput> {
  try {
    const { file } = input;
    const buffer =
      'bytes' in file
        ? Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength)
        : 'path' in file
          ? await readFile(file.path).catch(() => undefined)
          : await readStoredFile(file.stored.databaseUrl, file.stored.sourceId);
    if (!buffer) throw new CorruptFileError('The uploaded file is missing');
    const parsed = await parseFile(buffer, input.kind, input.limits);
    return {
      ok: true,
      text: parsed.text,
      ...(parsed.title ? { title: parsed.title } : {}),
      heapUsedMb: heapMb(),
    };
  } catch (err) {
    const type = fileErrorType(err);
    const message = type === 'unexpected' ? String((err as Error)?.stack ?? err) : (err as Error).message;
    return { ok: false, type, message, heapUsedMb: heapMb() };
  }
}

const heapMb = () => getHeapStatistics().used_heap_size / (1024 * 1024);

// This thread's id first, where Linux has one (/proc/thread-self): the parse process counts the CPU
// time each file takes by it (parse-isolated.ts).
try {
  const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
  if (Number.isInteger(tid) && tid > 0) parentPort?.postMessage({ tid });
} catch {
  // not Linux: the parse process counts time on the clock
}

// Held while the server is busy (parse-gate.ts), at the safe points of the reads and parsers.
useGate((workerData as { gate?: SharedArrayBuffer } | null)?.gate);

// One file at a time: the server sends the next only after this one's answer.
parentPort?.on('message', (input: ParseInput) => {
  void parse(input).then((out) => parentPort?.postMessage(out));
});
