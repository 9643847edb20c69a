import { readdirSync } from 'node:fs';
import { constants, setPriority } from 'node:os';
import { type FileErrorType, fileErrorType } from './file-errors.ts';
import { holdParses } from './parse-gate.ts';
import { type ParseLimits, parseFileIsolated } from './parse-isolated.ts';
import type { FileAtPath, StoredFile } from './parse-worker.ts';
import type { FileKind } from './parsers.ts';

/**
 * The parse process's entry (parse-process.ts starts it): takes files from the server over the
 * IPC channel, parses each in a worker thread with its limits (parse-isolated.ts) and answers with
 * the text or the error. Ends when the server disconnects or goes away, not on a stop signal.
 */
export type HostRequest = { id: number; file: StoredFile | FileAtPath; kind: FileKind; limits: ParseLimits };
/** The server's word on whether the parses under way may go on (parse-gate.ts). */
export type HostHold = { hold: boolean };
export type HostAnswer = { id: number } & (
  | { ok: true; text: string; title?: string }
  | { ok: false; type: FileErrorType; message: string }
);

lowerPriority();

process.on('message', (req: HostRequest | HostHold) => {
  if ('hold' in req) return holdParses(req.hold);
  parseFileIsolated(req.file, req.kind, req.limits).then(
    (parsed) => answer({ id: req.id, ok: true, ...parsed }),
    (err: Error) => answer({ id: req.id, ok: false, type: fileErrorType(err), message: err.message }),
  );
});
process.on('disconnect', () => process.exit(0));
// A stop signal to the server's process group (Ctrl-C, `kill` of npm's group) reaches this process
// too: the server decides when parsing ends, finishing the files under way within its stop bound,
// and this process ends with it (the disconnect above).
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => undefined);

function answer(a: HostAnswer) {
  if (process.connected) process.send?.(a);
}

/**
 * Every thread of this process below the server's priority (nice 10), so that on a busy machine
 * the server and its database get the CPU first and a parse takes longer, within its time limit
 * (which counts CPU time, parse-isolated.ts). Not the lowest priority nor the idle scheduling
 * class: there a parse on a machine kept busy by requests waits for minutes, where at nice 10 it
 * still gets about a tenth of a core (docs/decisions/0014-hostile-files.md). Linux sets a priority
 * per thread: the ones Node has started so far are set one by one (/proc/self/task), and those
 * started later (the parse worker, the thread pool's) take their starter's. Elsewhere the call sets
 * the process's.
 */
function lowerPriority() {
  const lower = constants.priority.PRIORITY_BELOW_NORMAL;
  try {
    for (const tid of readdirSync('/proc/self/task')) setPriority(Number(tid), lower);
  } catch {
    try {
      setPriority(lower);
    } catch {
      // not allowed here: parse at the normal priority
    }
  }
}
