/**
 * Polls `check` until it returns true, failing after `timeoutMs` with a message naming `what`.
 * The one way tests wait for something to happen: no fixed sleeps. A check that throws (an
 * `expect` inside) counts as not yet true; its last error is in the failure message.
 */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 10_000,
  what = 'condition',
): Promise<void> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      if (await check()) return;
    } catch (err) {
      last = err;
    }
    if (Date.now() >= end) break;
    await new Promise((r) => setTimeout(r, 25));
  }
  const detail = last instanceof Error ? `: ${last.message}` : '';
  throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}${detail}`);
}

/**
 * Waits until `count()` reaches `target`, for as long as it keeps moving: fails only when it has
 * not grown for `stallMs` (then the thing counted has stopped, not just slowed down on a busy
 * machine). The test's own timeout bounds the whole wait.
 */
export async function waitForCount(
  count: () => number | Promise<number>,
  target: number,
  stallMs: number,
  what = 'count',
): Promise<void> {
  let last = await count();
  let movedAt = Date.now();
  while (last < target) {
    if (Date.now() - movedAt > stallMs) {
      throw new Error(`Stalled at ${last} of ${target} ${what}: no progress for ${stallMs} ms`);
    }
    await new Promise((r) => setTimeout(r, 100));
    const now = await count();
    if (now > last) movedAt = Date.now();
    last = now;
  }
}
