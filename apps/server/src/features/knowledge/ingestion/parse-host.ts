import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { constants, setPriority } from 'node:os';
import { type FileErrorType, fileErrorType } from './file-errors.ts';
import { type ParseLimits, parseFileIsolated } from './parse-isolated.ts';
import type { FileAtPath, StoredFile } from './parse-worker.ts';
import type { FileKind } from './parsers.ts';

/**
 * The parse process's entry (parse-process.ts starts it): takes files from the server over the
 * IPC channel, parses each in a worker thread with its limits (parse-isolated.ts) and answers with
 * the text or the error. Ends when the server disconnects or goes away, not on a stop signal.
 */
export type HostRequest = { id: number; file: StoredFile | FileAtPath; kind: FileKind; limits: ParseLimits };
export type HostAnswer = { id: number } & (
  | { ok: true; text: string; title?: string }
  | { ok: false; type: FileErrorType; message: string }
);

lowestPriority();

process.on('message', (req: HostRequest) => {
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
 * Every thread of this process at the lowest priority, so that on a busy machine the server and
 * its database get the CPU first and a parse takes longer, within its time limit. Linux sets a
 * priority per thread: the ones Node has started so far are set one by one (/proc/self/task), and
 * those started later (the parse worker, the thread pool's) take their starter's. Elsewhere the
 * call sets the process's.
 *
 * On Linux the process then asks for the idle scheduling class (`chrt --idle`, from util-linux,
 * where it is installed): at the lowest priority a thread still keeps its core for a moment when
 * a server thread wakes up, in the idle class it gives the core up at once (docs/performance.md
 * "Hostile files during the API benchmark").
 */
function lowestPriority() {
  const lowest = constants.priority.PRIORITY_LOW;
  try {
    for (const tid of readdirSync('/proc/self/task')) setPriority(Number(tid), lowest);
  } catch {
    try {
      setPriority(lowest);
    } catch {
      // not allowed here: parse at the normal priority
    }
    return;
  }
  // without chrt the spawn fails (ENOENT) and the priority above stays
  spawnSync('chrt', ['--idle', '--all-tasks', '--pid', '0', String(process.pid)], { stdio: 'ignore' });
}
