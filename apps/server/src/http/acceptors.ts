import type { Server } from 'node:http';
import { createServer, type Server as NetServer } from 'node:net';

/** What a net.Server applies to each socket it takes (set by its constructor; seconds for the delay). */
type SocketOptions = {
  allowHalfOpen: boolean;
  noDelay: boolean;
  keepAlive: boolean;
  keepAliveInitialDelay: number;
  highWaterMark: number;
};

/** Platforms where Node's `reusePort` binds (its docs: Linux, FreeBSD, Solaris, AIX). */
export const REUSE_PORT = ['linux', 'freebsd', 'sunos', 'aix'].includes(process.platform);

/**
 * More listening sockets on the server's own port (docs/configuration.md "Overload").
 *
 * Node's event loop (libuv since 1.45) takes one new connection from a listening socket per
 * turn of the loop. A busy turn lasts tens of ms, so at a few hundred new connections a second
 * the kernel's queue of connections not yet taken fills, and the kernel drops what comes next:
 * the client waits seconds for its retransmission and at worst sees its connection reset, before
 * the server ever saw the request it could have refused in a millisecond (http/foreground.ts).
 * With `count` sockets bound to the same address (SO_REUSEPORT; the kernel spreads new connections
 * across them), each turn takes up to `count`, and each socket has its own queue. Every connection
 * goes to the one HTTP server as if it had taken it itself.
 *
 * The server must already listen with `reusePort: true`, which only `REUSE_PORT` platforms take
 * (elsewhere, macOS and Windows among them, Node refuses the option: the server listens with one
 * socket there). Where the Node version has no `reusePort` (before 22.12), the first extra socket
 * fails to bind and the server keeps its one. (Linux lets only processes of the same user join a
 * port's SO_REUSEPORT group, so no other account can take a share of the connections.)
 * Returns how many sockets listen now (the server's own included) and the function that closes
 * the extra ones (called as the server closes: they would otherwise keep taking connections
 * during the shutdown).
 */
export async function addAcceptors(
  server: Server,
  count: number,
): Promise<{ listening: number; close: () => Promise<unknown> }> {
  const address = server.address();
  const extra: NetServer[] = [];
  if (REUSE_PORT && address && typeof address === 'object') {
    // The options the HTTP server gives the sockets it takes itself (Node's http.Server: half-open
    // allowed, Nagle off): without them the SSE stream's small writes waited for the client's
    // delayed ACK, about 40 ms each (docs/performance.md "Chat capacity").
    const own = server as unknown as SocketOptions;
    const options = {
      allowHalfOpen: own.allowHalfOpen,
      noDelay: own.noDelay,
      keepAlive: own.keepAlive,
      keepAliveInitialDelay: own.keepAliveInitialDelay * 1000,
      highWaterMark: own.highWaterMark,
    };
    for (let i = 1; i < count; i++) {
      const acceptor = createServer(options, (socket) => server.emit('connection', socket));
      const bound = await new Promise<boolean>((resolve) => {
        acceptor.once('error', () => resolve(false));
        acceptor.listen({ port: address.port, host: address.address, reusePort: true }, () => resolve(true));
      });
      if (!bound) break;
      extra.push(acceptor);
    }
  }
  return {
    listening: extra.length + 1,
    // Stops listening at once (each close() call); resolves once the connections the extra sockets
    // took have ended. The HTTP server ends them as it ends its own, but does not count them: its
    // close callback would not wait for them, so a shutdown waits for both.
    close: () => Promise.all(extra.map((s) => new Promise<void>((resolve) => s.close(() => resolve())))),
  };
}
