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
