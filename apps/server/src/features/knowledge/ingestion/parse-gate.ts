/**
 * The parse process's gate (docs/decisions/0014-hostile-files.md): while the server's event loop is
 * busy with requests, the server holds the parses (parse-process.ts), and a parse waits at its next
 * safe point (between the slices of a stored file it reads, between a PDF's pages) until it may
 * go on. One shared 32-bit word, 1 while held, read by the parse worker (`mayGoOn`) and written by
 * the parse process's main thread (`holdParses`), with Atomics: a held parse takes no CPU at all,
 * where a lower priority still costs the server its share of the machine.
 */
const HELD = 1;
/** However long the server holds the parses, a parse looks again this often. */
const RECHECK_MS = 1_000;

let word: Int32Array | undefined;

// Atomics.waitAsync (ES2024, in Node since 16): not in this project's TypeScript library yet.
type WaitAsync = (
  word: Int32Array,
  index: number,
  value: number,
  timeoutMs: number,
) => { async: false; value: string } | { async: true; value: Promise<string> };
const waitAsync = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync;

/** The gate's memory, shared with each worker (its `workerData`); made once per process. */
export function gateMemory(): SharedArrayBuffer {
  if (!word) word = new Int32Array(new SharedArrayBuffer(4));
  return word.buffer as SharedArrayBuffer;
}

/** In the worker: the memory its process made (`gateMemory`). */
export function useGate(memory: SharedArrayBuffer | undefined) {
  if (memory) word = new Int32Array(memory);
}

/** In the parse process: holds the parses under way, or lets them go on. */
export function holdParses(hold: boolean) {
  const w = new Int32Array(gateMemory());
  Atomics.store(w, 0, hold ? HELD : 0);
  if (!hold) Atomics.notify(w, 0);
}

/** At a parse's safe point: answers at once unless held, then once the hold ends. */
export async function mayGoOn(): Promise<void> {
  while (word && Atomics.load(word, 0) === HELD) {
    const wait = waitAsync(word, 0, HELD, RECHECK_MS);
    if (wait.async) await wait.value;
  }
}
