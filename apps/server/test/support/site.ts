import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { ensureTestTls } from './tls.ts';

const defaultTlsDir = fileURLToPath(new URL('../../.tmp/tls', import.meta.url));

export type Page = { status?: number; type?: string; body?: string; headers?: Record<string, string> };
export type Handler = (req: IncomingMessage, url: URL) => Page;

/**
 * A small local web site or third-party API stand-in (HTTP or HTTPS with the test CA):
 * routes by path, records every request. Used for crawling, spreadsheets and store APIs.
 */
export class Site {
  readonly requests: Array<{ path: string; query: string; headers: IncomingMessage['headers'] }> = [];
  private readonly routes = new Map<string, Handler>();
  private server: Server | undefined;
  port = 0;

  constructor(private readonly https = true) {}

  route(path: string, handler: Handler | Page): this {
    this.routes.set(path, typeof handler === 'function' ? handler : () => handler);
    return this;
  }

  get origin(): string {
    return `${this.https ? 'https' : 'http'}://127.0.0.1:${this.port}`;
  }

  url(path: string): string {
    return `${this.origin}${path}`;
  }

  async start(): Promise<this> {
    const handle = (req: IncomingMessage, res: ServerResponse) => {
      const url = new URL(req.url ?? '/', this.origin);
      this.requests.push({ path: url.pathname, query: url.search, headers: req.headers });
      const handler = this.routes.get(url.pathname);
      const page: Page = handler ? handler(req, url) : { status: 404, body: 'not found' };
      res.writeHead(page.status ?? 200, {
        'content-type': page.type ?? 'text/html; charset=utf-8',
        ...page.headers,
      });
      res.end(page.body ?? '');
    };
    if (this.https) {
      const tls = ensureTestTls(process.env.PARLEY_TEST_TLS_DIR ?? defaultTlsDir);
      this.server = createHttpsServer({ cert: tls.cert, key: tls.key }, handle) as unknown as Server;
    } else {
      this.server = createHttpServer(handle);
    }
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}
