import type { AddressInfo } from 'node:net';
import { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAssistant } from '../support/factories.ts';
import { createTestApp, ORIGIN, type TestApp } from '../support/harness.ts';
import { type LlmServer, startLlmServer } from '../support/llm-server.ts';
import { createWorld, type World } from '../support/world.ts';

// http/sse.ts: a reply's events leave in socket writes of their own making, each one system call.
// Node's response cork wrote every buffered piece (a chunk's size line, each event, its end) in a
// write of its own: nine writes for a five-word reply on Node 24, and the first event waited for
// the rest of its burst (docs/performance.md "Chat capacity").
let llm: LlmServer;
let t: TestApp;
let w: World;
let asst: string;
let port: number;

beforeAll(async () => {
  llm = await startLlmServer({ instant: true });
  t = await createTestApp({ AI_PROVIDER: 'openai', AI_BASE_URL: `${llm.url}/v1`, AI_MODEL: 'stand-in' });
  w = await createWorld(t);
  asst = await createAssistant(t, w.owner, w.ws);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await t.close();
  await llm.close();
});

type Writable = { _writeGeneric(this: Socket, ...args: unknown[]): unknown };

/** What the server writes to the socket of its own port while `run` runs: one entry a system call. */
async function serverWrites(run: () => Promise<void>): Promise<string[]> {
  const proto = Socket.prototype as unknown as Writable;
  const original = proto._writeGeneric;
  const writes: string[] = [];
  proto._writeGeneric = function (this: Socket, ...args: unknown[]) {
    if (this.localPort === port) {
      const [writev, data] = args as [boolean, unknown];
      const pieces = writev ? (data as Array<{ chunk: unknown }>).map((p) => p.chunk) : [data];
      writes.push(pieces.map((p) => String(p)).join(''));
    }
    return original.apply(this, args);
  };
  try {
    await run();
  } finally {
    proto._writeGeneric = original;
  }
  return writes;
}

describe('a reply stream in few socket writes', () => {
  it('the first event with the headers, the rest of its burst, `finish` with the closing chunk', async () => {
    let body = '';
    const writes = await serverWrites(async () => {
      const res = await fetch(`http://127.0.0.1:${port}/api/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: ORIGIN, cookie: w.owner.cookie },
        body: JSON.stringify({ assistantId: asst, content: 'Hello there' }),
      });
      expect(res.status).toBe(200);
      body = await res.text();
    });
    const events = body.split('\n\n').filter((e) => e.startsWith('data: '));
    expect(events.length).toBeGreaterThanOrEqual(4);
    // The first event alone with the headers; the rest of the burst together once that turn is
    // over (or with `finish`, when it comes in the same turn); `finish` with the closing chunk.
    expect(writes.length).toBeLessThanOrEqual(3);
    const first = writes[0] ?? '';
    expect(first).toMatch(/^HTTP\/1\.1 200/);
    expect(first.match(/data: /g)).toHaveLength(1);
    // No write is a bare piece of the chunked framing (a size line, a CRLF).
    for (const write of writes) expect(write).toContain('data: ');
    const last = writes.at(-1) ?? '';
    expect(last).toContain('"finish"');
    expect(last.endsWith('0\r\n\r\n')).toBe(true);
  });
});
