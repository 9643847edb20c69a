import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { ensureDashboardBuilt } from './dashboard-helpers.ts';

/**
 * The dashboard served by the same server (docs/dashboard.md): `/` and client
 * routes get index.html when a browser asks for HTML, hashed assets are immutable, and the API's
 * JSON 404s and the other top-level routes are untouched.
 */

let t: TestApp;
const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

beforeAll(async () => {
  await ensureDashboardBuilt();
  t = await createTestApp({ UPLOAD_LIMIT_BYTES: '5242880' });
  return () => t.close();
}, 120_000);

describe('GET / and client routes', () => {
  it('serves index.html at / with revalidation and an ETag, 304 when unchanged', async () => {
    const res = await t.request({ method: 'GET', url: '/', headers: html });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toContain('<div id="root"></div>');
    // The server's upload limit, for the page to check files before sending them.
    expect(res.body).toContain('<meta name="parley-upload-limit-bytes" content="5242880" />');
    const again = await t.request({
      method: 'GET',
      url: '/',
      headers: { ...html, 'if-none-match': String(res.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  it('tells the page whether the request carried a session cookie, in a page of its own', async () => {
    const without = await t.request({ method: 'GET', url: '/', headers: html });
    expect(without.body).toContain('<meta name="parley-session-cookie" content="absent" />');
    const withCookie = await t.request({
      method: 'GET',
      url: '/w/ws_1',
      headers: { ...html, cookie: 'parley.session-token=anything' },
    });
    expect(withCookie.body).toContain('<meta name="parley-session-cookie" content="present" />');
    expect(withCookie.headers.etag).not.toBe(without.headers.etag);
    expect(withCookie.headers.vary).toMatch(/cookie/i);
  });

  it('falls back to index.html for an unknown client path a browser navigates to', async () => {
    for (const url of ['/app/some/path', '/w/ws_123/assistants?x=1', '/signin']) {
      const res = await t.request({ method: 'GET', url, headers: html });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('<div id="root"></div>');
    }
  });

  it('serves hashed assets as immutable with their type', async () => {
    const index = (await t.request({ method: 'GET', url: '/', headers: html })).body;
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(index)?.[1];
    expect(script).toBeTruthy();
    const res = await t.request({ method: 'GET', url: script! });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('keeps JSON 404s for /api paths, missing files and non-browser clients', async () => {
    for (const [url, headers] of [
      ['/api/nope', html],
      ['/api/assistants/x/nope', html],
      ['/assets/missing-123.js', html],
      ['/assets/%2e%2e/%2e%2e/package.json', html],
      ['/index.html', html],
      ['/app/some/path', {}],
    ] as const) {
      const res = await t.request({ method: 'GET', url, headers });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/^application\/json/);
      expect(res.json().code).toBe('not_found:api');
    }
  });

  it('serves the icons at /favicon.ico and /favicon.svg, which index.html links', async () => {
    const index = (await t.request({ method: 'GET', url: '/', headers: html })).body;
    expect(index).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml" />');
    const ico = await t.request({ method: 'GET', url: '/favicon.ico' });
    expect(ico.statusCode).toBe(200);
    expect(ico.headers['content-type']).toMatch(/icon/);
    expect(ico.headers['cache-control']).toBe('public, max-age=300');
    expect(ico.rawPayload.subarray(0, 4)).toEqual(Buffer.from([0, 0, 1, 0]));
    const svg = await t.request({ method: 'GET', url: '/favicon.svg' });
    expect(svg.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(svg.body).toContain('<svg');
    // Revalidation by ETag, as for every built file.
    const again = await t.request({
      method: 'GET',
      url: '/favicon.svg',
      headers: { 'if-none-match': String(svg.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  it('leaves /healthz, /readyz and /widget.js to their own routes', async () => {
    expect((await t.request({ method: 'GET', url: '/healthz', headers: html })).json()).toEqual({
      status: 'ok',
    });
    expect((await t.request({ method: 'GET', url: '/readyz', headers: html })).statusCode).not.toBe(404);
    const widget = await t.request({ method: 'GET', url: '/widget.js', headers: html });
    expect(widget.headers['content-type']).toMatch(/javascript/);
  });
});
