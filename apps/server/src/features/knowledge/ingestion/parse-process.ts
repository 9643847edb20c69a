import { type ChildProcess, fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { fileError } from './file-errors.ts';
import type { HostAnswer, HostRequest } from './parse-host.ts';
import { type ParseLimits, wallLimitMs } from './parse-isolated.ts';
import type { FileAtPath, StoredFile } from './parse-worker.ts';
import type { FileKind, Parsed } from './parsers.ts';

/**
 * Parses an uploaded file in the server's parse process (docs/knowledge.md "Hostile and broken
 * files"; docs/decisions/0014-hostile-files.md): a child process below the server's priority that runs
 * each file in a worker thread with its memory and time limits (parse-host.ts, parse-isolated.ts).
 * A worker thread alone keeps the parse off the event loop, but not off the process: its garbage
 * collection runs on the process's shared helper threads at the server's priority, and the memory
 * a large file takes and gives back is mapped and unmapped in the server's address space. In a
 * process of its own all of it is below the server's priority and out of its memory
 * (docs/performance.md "Hostile files during the API benchmark").
 *
 * One process, started with the first file and stopped once idle for `IDLE_MS`; files parse in it
 * concurrently. If it dies, the files it held fail and the next file starts a new one.
 */
const IDLE_MS = 10_000;
/** Beyond the worker's own limit on the clock, how long the process may take to answer before it is killed. */
const GRACE_MS = 10_000;

// The entry beside this module: parse-host.js once compiled; under tsx (npm start, tests) the
// TypeScript entry, with tsx's loader imported first as `npm start` does.
const here = import.meta.url;
const compiled = !/\.[cm]?ts$/.test(new URL(here).pathname);
const entry = fileURLToPath(compiled ? new URL('./parse-host.js', here) : new URL('./parse-host.ts', here));
const execArgv = compiled ? [] : ['--import', pathToFileURL(createRequire(here).resolve('tsx')).href];

type Pending = { resolve(p: Parsed): void; reject(e: Error): void; timer: NodeJS.Timeout };
type Host = { child: ChildProcess; pending: Map<number, Pending>; idle?: NodeJS.Timeout };
let host: Host | undefined;
let nextId = 1;
let started = 0;

/** How many parse processes this server has started, and the running one's pid (tests). */
export const parseProcesses = () => ({ started, pid: host?.child.pid });

export function parseInProcess(
  file: StoredFile | FileAtPath,
  kind: FileKind,
  limits: ParseLimits,
): Promise<Parsed> {
  const h = takeHost();
  const id = nextId++;
  const bound = wallLimitMs(limits) + GRACE_MS;
  return new Promise<Parsed>((resolve, reject) => {
    const timer = setTimeout(() => {
      // The worker's own limits end a slow parse; a process that does not answer even after them is
      // stuck: it goes, with every file it held.
      settle(h, id)?.reject(
        new Error(`The parse process did not answer within ${Math.round(bound / 1000)} s`),
      );
      h.child.kill('SIGKILL');
    }, bound);
    h.pending.set(id, { resolve, reject, timer });
    const request: HostRequest = { id, file, kind, limits };
    h.child.send(request, (err) => {
      if (err) settle(h, id)?.reject(err);
    });
  });
}

function takeHost(): Host {
  if (host?.child.connected) {
    clearTimeout(host.idle);
    host.child.ref();
    host.child.channel?.ref();
    return host;
  }
  started++;
  const child = fork(entry, [], {
    execArgv,
    // pdf.js and the like write to the console: not the server's output; a crash's report is
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const h: Host = { child, pending: new Map() };
  host = h;
  child.on('message', (a: HostAnswer) => {
    const p = settle(h, a.id);
    if (!p) return;
    if (a.ok) p.resolve(a.title ? { text: a.text, title: a.title } : { text: a.text });
    else p.reject(fileError(a.type, a.type === 'unexpected' ? `The parse failed: ${a.message}` : a.message));
  });
  const gone = (why: string) => {
    if (host === h) host = undefined;
    for (const id of [...h.pending.keys()])
      settle(h, id)?.reject(new Error(`The parse process stopped (${why})`));
  };
  child.on('error', (err) => gone(err.message));
  child.on('exit', (code, signal) => gone(signal ?? `exit code ${code}`));
  return h;
}

/** Takes a file's promise out of the pending ones; once none are left, the process may idle. */
function settle(h: Host, id: number): Pending | undefined {
  const p = h.pending.get(id);
  if (!p) return undefined;
  clearTimeout(p.timer);
  h.pending.delete(id);
  if (h.pending.size === 0 && host === h) idle(h);
  return p;
}

function idle(h: Host) {
  // An idle parse process neither keeps the server alive nor stays long.
  h.child.unref();
  h.child.channel?.unref();
  clearTimeout(h.idle);
  h.idle = setTimeout(() => {
    if (h.pending.size === 0 && h.child.connected) h.child.disconnect();
  }, IDLE_MS);
  h.idle.unref();
}
