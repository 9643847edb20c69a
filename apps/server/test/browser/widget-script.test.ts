import { readFileSync } from 'node:fs';
import { get, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptsGzip } from '../../src/features/widget/widget-script.routes.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';

/** `GET /widget.js` (docs/widget-script.md "Building and serving": one file, under 25 KB gzipped). */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const BUDGET = 25 * 1024;

describe('GET /widget.js', () => {
  it('serves the one-file script gzipped, under 25 KB, with cache headers and no credential', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/widget.js',
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers.vary).toContain('Accept-Encoding');
    expect(res.headers['cache-control']).toMatch(/max-age=\d+/);
    expect(res.headers.etag).toMatch(/^"[\w-]{20,}"$/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.rawPayload.length).toBeLessThan(BUDGET);
    const code = gunzipSync(res.rawPayload).toString('utf8');
    // A self-contained IIFE that reads its own tag and speaks the widget API.
    expect(code.startsWith('"use strict";(()=>{')).toBe(true);
    expect(code).toContain('/api/widget/');
    expect(code).toContain('attachShadow');
    expect(code).not.toMatch(/\bimport\s*\(|\brequire\(/);
    console.info(`widget.js: ${code.length} bytes, ${res.rawPayload.length} bytes gzipped`);
  });

  it('sends the plain file to clients that do not accept gzip, the same script', async () => {
    const plain = await t.app.inject({ method: 'GET', url: '/widget.js' });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const gz = await t.app.inject({
      method: 'GET',
      url: '/widget.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gunzipSync(gz.rawPayload).equals(plain.rawPayload)).toBe(true);
    expect(gz.headers.etag).toBe(plain.headers.etag);
    const refused = await t.app.inject({
      method: 'GET',
      url: '/widget.js',
      headers: { 'accept-encoding': 'gzip;q=0, identity' },
    });
    expect(refused.headers['content-encoding']).toBeUndefined();
  });

  it('answers 304 to a matching If-None-Match, and HEAD without a body', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/widget.js' });
    const etag = first.headers.etag as string;
    const again = await t.app.inject({
      method: 'GET',
      url: '/widget.js',
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const weak = await t.app.inject({
      method: 'GET',
      url: '/widget.js',
      headers: { 'if-none-match': `"other", W/${etag}` },
    });
    expect(weak.statusCode).toBe(304);
    const stale = await t.app.inject({
      method: 'GET',
      url: '/widget.js',
      headers: { 'if-none-match': '"old"' },
    });
    expect(stale.statusCode).toBe(200);
    const head = await t.app.inject({ method: 'HEAD', url: '/widget.js' });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(head.body).toBe('');
  });
});

/**
 * The headers docs/widget-script.md states, from its "Response headers" table: `Header` and the
 * value when the cell is one literal in backticks (else only the header's presence is stated).
 */
function documentedHeaders(): Array<{ name: string; value: string | null }> {
  const doc = readFileSync(new URL('../../../../docs/widget-script.md', import.meta.url), 'utf8');
  const section = doc.split(/^### Response headers$/m)[1]?.split(/^#/m)[0] ?? '';
  const rows = [...section.matchAll(/^\|\s*`([A-Za-z-]+)`\s*\|\s*(.*?)\s*\|$/gm)];
  return rows.map(([, name, cell]) => ({
    name: name as string,
    value: /^`[^`]+`$/.test(cell as string) ? (cell as string).slice(1, -1) : null,
  }));
}

describe('the headers docs/widget-script.md states', () => {
  it('are the headers a real response to GET /widget.js carries', async () => {
    const stated = documentedHeaders();
    expect(stated.map((h) => h.name)).toEqual(
      expect.arrayContaining(['Cache-Control', 'Content-Type', 'ETag']),
    );
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    // Over a real socket, as a browser asks for it.
    const res = await new Promise<IncomingMessage>((resolve, reject) =>
      get(
        `http://127.0.0.1:${port}/widget.js`,
        { headers: { 'accept-encoding': 'gzip, deflate, br' } },
        resolve,
      ).on('error', reject),
    );
    res.resume();
    expect(res.statusCode).toBe(200);
    for (const { name, value } of stated) {
      const sent = res.headers[name.toLowerCase()];
      expect(sent, name).toBeDefined();
      if (value !== null) expect(`${name}: ${sent}`).toBe(`${name}: ${value}`);
    }
    // And nothing the doc leaves out that a reader would rely on for caching.
    for (const name of ['cache-control', 'etag', 'vary', 'expires', 'last-modified']) {
      if (res.headers[name] !== undefined) expect(stated.map((h) => h.name.toLowerCase())).toContain(name);
    }
  });
});

describe('acceptsGzip', () => {
  it('reads Accept-Encoding with quality values', () => {
    expect(acceptsGzip(undefined)).toBe(false);
    expect(acceptsGzip('')).toBe(false);
    expect(acceptsGzip('br')).toBe(false);
    expect(acceptsGzip('gzip')).toBe(true);
    expect(acceptsGzip('deflate, GZIP;q=0.5')).toBe(true);
    expect(acceptsGzip('*')).toBe(true);
    expect(acceptsGzip('gzip;q=0')).toBe(false);
    expect(acceptsGzip('gzip; q=0.0, br')).toBe(false);
    expect(acceptsGzip('x-gzip')).toBe(false);
  });
});
