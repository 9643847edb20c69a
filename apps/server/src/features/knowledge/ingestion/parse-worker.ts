import { readlinkSync } from 'node:fs';
import { constants, setPriority } from 'node:os';
import { getHeapStatistics } from 'node:v8';
import { parentPort } from 'node:worker_threads';
import type { ArchiveLimits } from './archive.ts';
import { CorruptFileError, FileLimitError, UnsupportedFileError } from './file-errors.ts';
import { type FileKind, parseFile } from './parsers.ts';
import { readStoredFile } from './stored-file.ts';

/**
 * The parse worker's entry (parse-isolated.ts starts it and hands it files one at a time): parses
 * the bytes it was handed, or reads them from PostgreSQL itself (stored-file.ts), and answers each
 * file with one message, the text or the error, and how much of its heap is in use. It writes
 * nothing.
 */
export type StoredFile = { databaseUrl: string; sourceId: string };
export type ParseInput = {
  file: { bytes: Uint8Array } | { stored: StoredFile };
  kind: FileKind;
  limits: ArchiveLimits;
};
export type ParseOutput = (
  | { ok: true; text: string; title?: string }
  | { ok: false; type: 'limit' | 'corrupt' | 'unsupported' | 'unexpected'; message: string }
) & { heapUsedMb: number };

// Below the server's priority: on a busy machine the event loop gets the CPU first and a parse
// takes longer, within its time limit. Linux renices one thread by its id (/proc/thread-self);
// elsewhere the worker keeps the process's priority.
try {
  const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
  if (Number.isInteger(tid) && tid > 0) setPriority(tid, constants.priority.PRIORITY_BELOW_NORMAL);
} catch {
  // not Linux, or not allowed: parse at normal priority
}

async function parse(input: ParseInput): Promise<ParseOutput> {
  try {
    const buffer =
      'bytes' in input.file
        ? Buffer.from(input.file.bytes.buffer, input.file.bytes.byteOffset, input.file.bytes.byteLength)
        : await readStoredFile(input.file.stored.databaseUrl, input.file.stored.sourceId);
    if (!buffer) throw new CorruptFileError('The uploaded file is missing');
    const parsed = await parseFile(buffer, input.kind, input.limits);
    return {
      ok: true,
      text: parsed.text,
      ...(parsed.title ? { title: parsed.title } : {}),
      heapUsedMb: heapMb(),
    };
  } catch (err) {
    const type =
      err instanceof FileLimitError
        ? 'limit'
        : err instanceof CorruptFileError
          ? 'corrupt'
          : err instanceof UnsupportedFileError
            ? 'unsupported'
            : 'unexpected';
    const message = type === 'unexpected' ? String((err as Error)?.stack ?? err) : (err as Error).message;
    return { ok: false, type, message, heapUsedMb: heapMb() };
  }
}

const heapMb = () => getHeapStatistics().used_heap_size / (1024 * 1024);

// One file at a time: the server sends the next only after this one's answer.
parentPort?.on('message', (input: ParseInput) => {
  void parse(input).then((out) => parentPort?.postMessage(out));
});
