import { type ChildProcess, fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { fileError } from './file-errors.ts';
import type { HostAnswer, HostHold, HostRequest } from './parse-host.ts';
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
 * concurrently. If it dies, the files it held fail and the next file starts a new one. While its
 * event loop is busy, the server holds the parses at their safe points (`nextHold`, parse-gate.ts):
 * on a small machine even a process below the server's priority slows it.
 */
const IDLE_MS = 10_000;
/** Beyond the worker's own limit on the clock, how long the process may take to answer before it is killed. */
const GRACE_MS = 10_000;

// The entry beside this module: parse-host.js once compiled, reading the compiled contract as the
// server does (packages/contract/package.json "exports"); under tsx (npm start, tests) the
// TypeScript entry, with tsx's loader imported first as `npm start` does.
const here = import.meta.url;
const compiled = !/\.[cm]?ts$/.test(new URL(here).pathname);
const entry = fileURLToPath(compiled ? new URL('./parse-host.js', here) : new URL('./parse-host.ts', here));
const execArgv = compiled
  ? ['--conditions=parley-dist']
  : ['--import', pathToFileURL(createRequire(here).resolve('tsx')).href];

/** How often the server looks at how busy its event loop was, while files are parsed. */
const BUSY_EVERY_MS = 100;
/** The share of that time the loop was busy from which the parses are held. */
const BUSY_SHARE = 0.9;
/** Held at most this long in a row, then let go on for at least `RUN_MIN_MS`: a parse never waits for good. */
const HOLD_MAX_MS = 4_900;
const RUN_MIN_MS = 100;

type Pending = { resolve(p: Parsed): void; reject(e: Error): void; timer: NodeJS.Timeout };
type Host = {
  child: ChildProcess;
  pending: Map<number, Pending>;
  idle?: NodeJS.Timeout;
  busy?: NodeJS.Timeout;
  hold: HoldState;
};

/** Whether the parses are held, and since when (ms on `performance.now()`'s clock). */
export type HoldState = { held: boolean; since: number };

/**
 * The next hold (parse-gate.ts): held while the server's event loop is busy, but never more than
 * `HOLD_MAX_MS` in a row, and let go on for at least `RUN_MIN_MS` each time, so that under
 * requests that never stop a parse still gets a fiftieth of the time; a parse that needs more than
 * that within its limit on the clock (four times its CPU limit, at most 240 s) fails saying the
 * server was too busy, and the next sync tries again.
 */
export function nextHold(state: HoldState, busy: boolean, now: number): HoldState {
  const elapsed = now - state.since;
  if (state.held) return !busy || elapsed >= HOLD_MAX_MS ? { held: false, since: now } : state;
  return busy && elapsed >= RUN_MIN_MS ? { held: true, since: now } : state;
}
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
    watchBusy(h);
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
  const h: Host = { child, pending: new Map(), hold: { held: false, since: performance.now() } };
  host = h;
  child.on('message', (a: HostAnswer) => {
    const p = settle(h, a.id);
    if (!p) return;
    if (a.ok) p.resolve(a.title ? { text: a.text, title: a.title } : { text: a.text });
    else p.reject(fileError(a.type, a.type === 'unexpected' ? `The parse failed: ${a.message}` : a.message));
  });
  const gone = (why: string) => {
    clearInterval(h.busy);
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

/** While files are parsed, holds them whenever the event loop was busy (`nextHold`). */
function watchBusy(h: Host) {
  if (h.busy) return;
  let last = performance.eventLoopUtilization();
  h.busy = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(now, last).utilization >= BUSY_SHARE;
    last = now;
    setHold(h, nextHold(h.hold, busy, performance.now()));
  }, BUSY_EVERY_MS);
  h.busy.unref();
}

function setHold(h: Host, next: HoldState) {
  const changed = next.held !== h.hold.held;
  h.hold = next;
  if (changed && h.child.connected) h.child.send({ hold: next.held } satisfies HostHold, () => undefined);
}

function idle(h: Host) {
  clearInterval(h.busy);
  h.busy = undefined;
  if (h.hold.held) setHold(h, { held: false, since: performance.now() });
  // An idle parse process neither keeps the server alive nor stays long.
  h.child.unref();
  h.child.channel?.unref();
  clearTimeout(h.idle);
  h.idle = setTimeout(() => {
    if (h.pending.size === 0 && h.child.connected) h.child.disconnect();
  }, IDLE_MS);
  h.idle.unref();
}
