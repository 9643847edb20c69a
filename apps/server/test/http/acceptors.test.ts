import { createServer, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { addAcceptors, REUSE_PORT } from '../../src/http/acceptors.ts';

/**
 * http/acceptors.ts: more listening sockets on the server's port, so a loop that takes one new
 * connection a turn from each still takes a burst of them in a few turns (docs/configuration.md
 * "Overload"). SO_REUSEPORT through Node's `reusePort` needs Node 22.12 or later; before that the
 * server keeps its one socket and still answers.
 */
const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
const hasReusePort = REUSE_PORT && (major > 22 || (major === 22 && minor >= 12));

let server: Server | undefined;
let sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets) s.destroy();
  sockets = [];
  server?.closeAllConnections();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
});

async function listen(count: number) {
  server = createServer((_req, res) => res.end('ok'));
  await new Promise<void>((r) =>
    server!.listen({ port: 0, host: '127.0.0.1', ...(REUSE_PORT ? { reusePort: true } : {}) }, () => r()),
  );
  const port = (server.address() as { port: number }).port;
  return { port, ...(await addAcceptors(server, count)) };
}

/** Opens `n` connections (the kernel completes each before the server takes it) and counts the loop's turns until the server has taken them all. */
async function turnsToTake(port: number, n: number) {
  let taken = 0;
  server!.on('connection', () => taken++);
  await Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<void>((resolve, reject) => {
          const s = connect({ port, host: '127.0.0.1' }, () => resolve());
          s.on('error', reject);
          sockets.push(s);
        }),
    ),
  );
  let turns = 0;
  while (taken < n && turns < 10 * n) {
    await new Promise<void>((r) => setImmediate(r));
    turns++;
  }
  expect(taken).toBe(n);
  return turns;
}

describe('extra listening sockets (HTTP_ACCEPTORS)', () => {
  it('binds them where the platform allows and every connection reaches the one HTTP server', async () => {
    const { port, listening, close } = await listen(4);
    expect(listening).toBe(hasReusePort ? 4 : 1);
    const answers = await Promise.all(
      Array.from({ length: 60 }, async () => (await fetch(`http://127.0.0.1:${port}/`)).text()),
    );
    expect(answers.every((a) => a === 'ok')).toBe(true);
    await close();
    // After close only the server's own socket listens, and it still answers.
    expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe('ok');
  });

  it.runIf(hasReusePort)(
    "gives the sockets it takes the HTTP server's own options: Nagle off, half-open allowed",
    async () => {
      const { port } = await listen(8);
      const seen: Socket[] = [];
      server!.on('connection', (socket: Socket) => seen.push(socket));
      await Promise.all(Array.from({ length: 40 }, () => fetch(`http://127.0.0.1:${port}/`)));
      expect(seen).toHaveLength(40);
      // Node keeps no public getter for TCP_NODELAY; the socket records the setting it was given.
      const noDelay = (s: Socket) =>
        (s as unknown as Record<symbol, unknown>)[
          Object.getOwnPropertySymbols(s).find((k) => k.description === 'kSetNoDelay') as symbol
        ];
      for (const socket of seen) {
        expect(noDelay(socket)).toBe(true);
        expect(socket.allowHalfOpen).toBe(true);
      }
    },
  );

  it.runIf(hasReusePort)(
    'takes a burst of new connections in far fewer turns of the loop than one socket',
    async () => {
      const { port, listening } = await listen(8);
      expect(listening).toBe(8);
      // One socket takes one connection a turn (libuv since 1.45): 120 turns for 120. Eight share
      // them by the kernel's hash of each connection's addresses, unevenly: allow twice the mean.
      expect(await turnsToTake(port, 120)).toBeLessThanOrEqual(40);
    },
  );

  it('with one acceptor asked for, adds none', async () => {
    const { listening } = await listen(1);
    expect(listening).toBe(1);
  });
});
