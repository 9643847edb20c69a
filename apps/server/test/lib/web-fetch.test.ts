import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetch, trustedFetch } from '../../src/lib/outbound/web-fetch.ts';

/**
 * The one outbound client's `fetch` (src/lib/outbound/web-fetch.ts), which the AI SDK's providers
 * and the embeddings client use: what they rely on, against a real local server.
 */
type Route = (req: IncomingMessage, body: string, res: ServerResponse) => void;
const routes: Record<string, Route> = {
  '/echo': (req, body, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ method: req.method, body, auth: req.headers.authorization ?? null }));
  },
  '/moved-307': (_req, _body, res) => res.writeHead(307, { location: '/echo' }).end(),
  '/moved-303': (_req, _body, res) => res.writeHead(303, { location: '/echo' }).end(),
  '/gzip': (_req, _body, res) => res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync('squeezed')),
  '/stream': (_req, _body, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('data: first\n\n'); // the rest never comes: the reader must get this piece now
  },
  '/drop': (req) => req.socket.destroy(),
};

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => routes[new URL(req.url!, 'http://x').pathname]!(req, body, res));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('the outbound fetch', () => {
  it('sends the method, headers and body, and reads the answer', async () => {
    const res = await trustedFetch(`${base}/echo`, {
      method: 'POST',
      headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({ method: 'POST', body: '{"a":1}', auth: 'Bearer k' });
  });

  it('follows redirects as fetch does: 307 keeps the POST, 303 turns it into a GET', async () => {
    const keep = await trustedFetch(`${base}/moved-307`, { method: 'POST', body: 'x' });
    expect(await keep.json()).toMatchObject({ method: 'POST', body: 'x' });
    const get = await trustedFetch(`${base}/moved-303`, { method: 'POST', body: 'x' });
    expect(await get.json()).toMatchObject({ method: 'GET', body: '' });
  });

  it('decodes a gzip body', async () => {
    expect(await (await trustedFetch(`${base}/gzip`)).text()).toBe('squeezed');
  });

  it('streams the body as it arrives, and an abort ends it with the signal’s reason', async () => {
    const abort = new AbortController();
    const res = await trustedFetch(`${base}/stream`, { signal: abort.signal });
    const reader = res.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: first\n\n');
    abort.abort();
    await expect(reader.read()).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('a connection dropped before the answer rejects as TypeError with the socket error as cause', async () => {
    const err = await trustedFetch(`${base}/drop`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TypeError);
    expect(err).toMatchObject({ message: 'fetch failed', cause: { code: 'ECONNRESET' } });
  });

  it('under the guarded policy a private address is refused before connecting', async () => {
    const guarded = createFetch({ allowPrivateNetworks: false });
    const err = await guarded(`${base}/echo`).catch((e: unknown) => e);
    expect(err).toMatchObject({ message: 'fetch failed', cause: { name: 'OutboundRefused' } });
  });
});
