/**
 * The one reader of the API's server-sent events (`POST /api/chat`, the widget's chat and its
 * live events; docs/chat.md): used by the dashboard, the widget script and the server's tests.
 * It depends on nothing but the platform (fetch streams, TextDecoder), so it runs in a browser
 * and in Node, and the widget's bundle carries only these few lines.
 *
 * An event is the block before a blank line; its `data:` lines (one optional space after the
 * colon) are joined by new lines and parsed as JSON. Comments (`: keep-alive`), `event:` and `id:`
 * lines, and data that is not JSON are skipped: they are not events of ours. A fetch body rather
 * than `EventSource`, because `EventSource` can only GET and cannot send an `Authorization` header.
 */

/** Splits complete events off `buffer`; returns their parsed data and the unfinished rest. */
function takeEvents<T>(buffer: string, out: T[]): string {
  let rest = buffer;
  let end = rest.indexOf('\n\n');
  while (end >= 0) {
    const data = rest
      .slice(0, end)
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).replace(/^ /, ''))
      .join('\n');
    rest = rest.slice(end + 2);
    end = rest.indexOf('\n\n');
    if (!data) continue;
    try {
      out.push(JSON.parse(data) as T);
    } catch {
      // Not JSON: not one of ours.
    }
  }
  return rest;
}

const lf = (text: string) => text.replace(/\r\n?/g, '\n');

/**
 * The events of a whole `text/event-stream` body already read (tests, scripts). As in
 * `EventSource`, an event the stream ended before finishing (no blank line after it) is dropped.
 */
export function parseEvents<T>(body: string): T[] {
  const out: T[] = [];
  takeEvents(lf(body), out);
  return out;
}

/**
 * The events of a streamed body, each as soon as its blank line arrives. A failed read (the
 * connection dropped, or the caller's AbortSignal fired) rejects with the stream's own error;
 * leaving the loop early cancels the body.
 */
export async function* readEvents<T>(body: ReadableStream<Uint8Array> | null): AsyncGenerator<T> {
  if (!body) return;
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const chunk = await reader.read();
      // A CR at the end of a chunk may be the first half of CRLF: normalise once the next arrives.
      buffer += decoder.decode(chunk.value, { stream: !chunk.done });
      const whole = chunk.done || !buffer.endsWith('\r') ? lf(buffer) : `${lf(buffer.slice(0, -1))}\r`;
      const events: T[] = [];
      buffer = takeEvents(whole, events);
      yield* events;
      if (chunk.done) return;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}
