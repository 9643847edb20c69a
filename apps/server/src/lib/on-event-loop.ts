import { setImmediate as nextTurn } from 'node:timers/promises';

/** How long work on the event loop holds it before it gives way. */
const SLICE_MS = 2;

/**
 * Maps items one by one on the event loop, giving way to other work (requests, streams) once it
 * has held the loop for `SLICE_MS`. For CPU work of ours that grows with a document: the offline
 * embedder spends about half a millisecond a chunk, so a document of a few thousand chunks would
 * otherwise hold every request for a second or more while it is ingested (docs/knowledge.md
 * "Embeddings"). A short list (a query's one text) is mapped at once, without waiting a turn.
 */
export async function mapOnEventLoop<T, R>(
  items: readonly T[],
  map: (item: T) => R,
  signal?: AbortSignal,
): Promise<R[]> {
  const out: R[] = [];
  let since = performance.now();
  for (const item of items) {
    if (performance.now() - since >= SLICE_MS) {
      await nextTurn();
      signal?.throwIfAborted();
      since = performance.now();
    }
    out.push(map(item));
  }
  return out;
}
