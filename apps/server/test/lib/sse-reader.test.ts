import { parseEvents, readEvents } from '@parley/contract/sse-reader';
import { describe, expect, it } from 'vitest';

/** A body that arrives in the given pieces, as a fetch body does over a slow network. */
function body(pieces: string[]): ReadableStream<Uint8Array> {
  const bytes = pieces.map((p) => new TextEncoder().encode(p));
  return new ReadableStream({
    pull(controller) {
      const next = bytes.shift();
      if (next) controller.enqueue(next);
      else controller.close();
    },
  });
}

async function collect<T>(stream: ReadableStream<Uint8Array>): Promise<T[]> {
  const out: T[] = [];
  for await (const e of readEvents<T>(stream)) out.push(e);
  return out;
}

describe('the SSE reader shared by the dashboard, the widget and the tests', () => {
  it('reads events split anywhere across chunks, CRLF included, and skips comments and non-JSON', async () => {
    const text =
      ': keep-alive\r\n\r\ndata: {"type":"text-delta","textDelta":"Hé"}\r\n\r\nevent: x\r\ndata: not json\r\n\r\n' +
      'data: {"type":"finish",\r\ndata: "messageId":null}\r\n\r\n';
    const expected = [
      { type: 'text-delta', textDelta: 'Hé' },
      { type: 'finish', messageId: null },
    ];
    // Every split point, so a CR and its LF, or the two bytes of "é", land in different chunks.
    const bytes = new TextEncoder().encode(text);
    for (let cut = 1; cut < bytes.length; cut++) {
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(bytes.slice(0, cut));
          controller.enqueue(bytes.slice(cut));
          controller.close();
        },
      });
      expect(await collect(stream), `split after byte ${cut}`).toEqual(expected);
    }
    expect(parseEvents(text)).toEqual(expected);
  });

  it('drops an event the stream ended before finishing, as EventSource does', async () => {
    expect(await collect(body(['data: {"a":1}\n\n', 'data: {"b":2}\n']))).toEqual([{ a: 1 }]);
    expect(parseEvents('data: {"a":1}\n\ndata: {"b":2}')).toEqual([{ a: 1 }]);
  });

  it('reads nothing from a missing body, and rejects with the error of a failed read', async () => {
    expect(await collect(null as unknown as ReadableStream<Uint8Array>)).toEqual([]);
    const failing = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('data: {"a":1}\n\n'));
        controller.error(new Error('connection reset'));
      },
    });
    await expect(collect(failing)).rejects.toThrow('connection reset');
  });
});
