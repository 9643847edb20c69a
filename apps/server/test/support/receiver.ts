import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { ensureTestTls } from './tls.ts';

/** apps/server/.tmp/tls, where vitest.config.ts makes the CA it trusts. */
const defaultTlsDir = fileURLToPath(new URL('../../.tmp/tls', import.meta.url));

export type Received = { path: string; headers: Record<string, string>; body: string; at: number };
export type Reply = { status: number; delayMs?: number; headers?: Record<string, string> } | 'hang';
export type Behaviour = (hit: Received, count: number) => Reply;

/**
 * A local HTTPS webhook receiver with a certificate from the test CA (support/tls.ts). Each path
 * gets its own behaviour; every request is recorded. Used by webhook tests and the benchmark.
 */
export class Receiver {
  readonly received: Received[] = [];
  private readonly behaviours = new Map<string, Behaviour>();
  private readonly counts = new Map<string, number>();
  private readonly hanging = new Set<import('node:http').ServerResponse>();
  private server: Server | undefined;
  port = 0;

  /** Behaviour for `path` (default: 200). */
  on(path: string, behaviour: Behaviour): string {
    this.behaviours.set(path, behaviour);
    return this.url(path);
  }

  url(path: string): string {
    return `https://127.0.0.1:${this.port}${path}`;
  }

  hits(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  async start(): Promise<this> {
    const tls = ensureTestTls(process.env.PARLEY_TEST_TLS_DIR ?? defaultTlsDir);
    this.server = createServer({ cert: tls.cert, key: tls.key, keepAliveTimeout: 30_000 }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = (req.url ?? '/').split('?')[0] ?? '/';
        const hit: Received = {
          path,
          headers: req.headers as Record<string, string>,
          body: Buffer.concat(chunks).toString('utf8'),
          at: Date.now(),
        };
        this.received.push(hit);
        const count = (this.counts.get(path) ?? 0) + 1;
        this.counts.set(path, count);
        const behaviour: Behaviour = this.behaviours.get(path) ?? (() => ({ status: 200 }));
        const reply = behaviour(hit, count);
        if (reply === 'hang') {
          this.hanging.add(res);
          res.on('close', () => this.hanging.delete(res));
          return;
        }
        const send = () => {
          res.writeHead(reply.status, { 'content-type': 'text/plain', ...reply.headers });
          res.end('ok');
        };
        if (reply.delayMs) setTimeout(send, reply.delayMs);
        else send();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** Kept here for the files that import it from the receiver; the helper lives in wait.ts. */
export { waitFor } from './wait.ts';
