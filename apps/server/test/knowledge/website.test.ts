import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addSource, createAssistant } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { Site } from '../support/site.ts';
import { createWorld, type World } from '../support/world.ts';
import { drainIngestion, getSource, search } from './helpers.ts';

let t: TestApp;
let guarded: TestApp;
let w: World;
let asst: string;
const site = new Site(false);
const page = (title: string, body: string, links: string[] = []) => ({
  body: `<html><head><title>${title}</title></head><body><nav>Menu</nav><main><h1>${title}</h1><p>${body}</p>${links
    .map((l) => `<a href="${l}">${l}</a>`)
    .join(' ')}</main></body></html>`,
});

beforeAll(async () => {
  await site.start();
  site
    .route('/robots.txt', { type: 'text/plain', body: 'User-agent: *\nDisallow: /private/\n' })
    .route(
      '/',
      page('Home', 'Welcome to Acme.', [
        '/help',
        '/about',
        '/private/secret',
        'https://elsewhere.example/x',
        '/blog/post',
      ]),
    )
    .route('/help', page('Help', 'Returns are accepted for 30 days.', ['/help/shipping']))
    .route('/help/shipping', page('Shipping', 'Parcels ship within two days.'))
    .route('/about', page('About', 'Acme was founded in 1999.'))
    .route('/private/secret', page('Secret', 'Internal pricing.'))
    .route('/blog/post', page('Blog', 'A blog post about mugs.'))
    .route('/sitemap.xml', {
      type: 'application/xml',
      body: `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${'ORIGIN'}/about</loc></url><url><loc>${'ORIGIN'}/help</loc></url></urlset>`,
    })
    .route('/broken', { status: 500, body: 'oops' })
    .route('/leave', { status: 302, headers: { location: 'https://elsewhere.example/' } });
  // the sitemap names absolute URLs on this site
  site.route('/sitemap.xml', () => ({
    type: 'application/xml',
    body: `<?xml version="1.0"?><urlset><url><loc>${site.url('/about')}</loc></url><url><loc>${site.url('/help')}</loc></url></urlset>`,
  }));
  t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
  guarded = await createTestApp();
  w = await createWorld(t);
  asst = await createAssistant(t, w.owner, w.ws);
});
afterAll(async () => {
  await t.close();
  await guarded.close();
  await site.close();
});

describe('website sources', () => {
  it('crawls the same site within include/exclude paths, respecting robots.txt and maxPages', async () => {
    const src = await addSource(t, w.owner, asst, {
      type: 'website',
      url: site.url('/'),
      mode: 'crawl',
      maxPages: 10,
      excludePaths: ['/blog'],
    });
    await drainIngestion(t);
    const ready = await getSource(t, w.owner, asst, src.id);
    expect(ready.status).toBe('ready');
    const fetched = new Set(site.requests.map((r) => r.path));
    expect(fetched.has('/help/shipping')).toBe(true);
    expect(fetched.has('/private/secret')).toBe(false);
    expect(fetched.has('/blog/post')).toBe(false);
    const hits = await search(t, w.owner, asst, 'how fast do parcels ship');
    expect(hits[0]!.content).toContain('two days');
    expect(hits.some((h) => h.content.includes('Menu'))).toBe(false);
  });

  it('reads one page, or the pages of a sitemap', async () => {
    const one = await addSource(t, w.owner, asst, { type: 'website', url: site.url('/about'), mode: 'page' });
    const map = await addSource(t, w.owner, asst, {
      type: 'website',
      url: site.url('/sitemap.xml'),
      mode: 'sitemap',
      maxPages: 5,
    });
    await drainIngestion(t);
    expect((await getSource(t, w.owner, asst, one.id)).chunkCount).toBe(1);
    expect((await getSource(t, w.owner, asst, map.id)).chunkCount).toBe(2);
  });

  it('fails readably on 404, 500 and a redirect off the site', async () => {
    for (const path of ['/nope', '/broken', '/leave']) {
      const src = await addSource(t, w.owner, asst, { type: 'website', url: site.url(path), mode: 'page' });
      await drainIngestion(t);
      const failed = await getSource(t, w.owner, asst, src.id);
      expect(failed.status, path).toBe('failed');
      expect(failed.error).toBeTruthy();
    }
  });

  it('refuses private addresses through the shared guard, at creation and at fetch time', async () => {
    const gw = await createWorld(guarded);
    const a = await createAssistant(guarded, gw.owner, gw.ws);
    for (const url of [
      'http://127.0.0.1:1/',
      'http://10.0.0.1/',
      'http://[::1]/',
      'http://2130706433/',
      'http://localhost/',
    ]) {
      const res = await guarded.request({
        method: 'POST',
        url: `/api/assistants/${a}/sources`,
        headers: gw.owner.headers,
        payload: { type: 'website', url, mode: 'page' },
      });
      expect(res.statusCode, url).toBe(400);
    }
  });
});

describe('scheduled re-sync', () => {
  it('re-ingests a website source once a day', async () => {
    const { setClockOffset } = await import('../../src/lib/clock.ts');
    const src = await addSource(t, w.owner, asst, { type: 'website', url: site.url('/about'), mode: 'page' });
    await drainIngestion(t);
    const first = await t.request({
      method: 'GET',
      url: `/api/assistants/${asst}/sources/${src.id}`,
      headers: w.owner.headers,
    });
    const before = first.json().data.lastSyncedAt;
    const hits = site.requests.filter((r) => r.path === '/about').length;
    try {
      setClockOffset(25 * 3600 * 1000);
      await drainIngestion(t);
    } finally {
      setClockOffset(0);
    }
    const after = await t.request({
      method: 'GET',
      url: `/api/assistants/${asst}/sources/${src.id}`,
      headers: w.owner.headers,
    });
    expect(after.json().data.status).toBe('ready');
    expect(new Date(after.json().data.lastSyncedAt).getTime()).toBeGreaterThan(new Date(before).getTime());
    expect(site.requests.filter((r) => r.path === '/about').length).toBeGreaterThan(hits);
  });
});
