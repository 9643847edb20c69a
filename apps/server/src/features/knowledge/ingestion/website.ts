import { XMLParser } from 'fast-xml-parser';
import robotsParserModule from 'robots-parser';

// robots-parser is CommonJS exporting the function itself; its types declare an ESM default.
const robotsParser = robotsParserModule as unknown as (typeof robotsParserModule)['default'];

import { htmlToMarkdown } from './parsers.ts';

/**
 * Website sources (docs/knowledge.md "Ingestion"): one page, a sitemap, or a same-site crawl bounded by
 * `maxPages`, include and exclude path prefixes, and robots.txt. Every request goes through
 * the shared outbound guard (the `fetch` given here), so private addresses are refused.
 */
export type WebsiteConfig = {
  url: string;
  mode: 'page' | 'sitemap' | 'crawl';
  maxPages: number;
  includePaths: string[];
  excludePaths: string[];
};

export type FetchedPage = { status: number; contentType: string; body: string; finalUrl: string };
export type PageFetcher = (url: string) => Promise<FetchedPage>;
export type WebPage = { url: string; title: string; text: string };

export const USER_AGENT = 'ParleyBot/1.0 (+https://github.com/parley)';

export class WebsiteError extends Error {}

function allowedPath(config: WebsiteConfig, url: URL): boolean {
  const path = url.pathname;
  if (config.excludePaths.some((p) => path.startsWith(p))) return false;
  return config.includePaths.length === 0 || config.includePaths.some((p) => path.startsWith(p));
}

const sameSite = (a: URL, b: URL) => a.protocol === b.protocol && a.host === b.host;

function normalise(raw: string, base: URL): URL | undefined {
  try {
    const u = new URL(raw, base);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
    u.hash = '';
    return u;
  } catch {
    return undefined;
  }
}

/** Links of a page, in order, as absolute URLs. */
export function extractLinks(html: string, base: URL): URL[] {
  const out: URL[] = [];
  for (const m of html.matchAll(/<a\s[^>]*href\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi)) {
    const u = normalise(m[1] ?? m[2] ?? m[3] ?? '', base);
    if (u) out.push(u);
  }
  return out;
}

/** `<loc>` entries of a sitemap; nested sitemap indexes are followed by the caller. */
export function parseSitemap(xml: string): { pages: string[]; sitemaps: string[] } {
  const doc = new XMLParser({ ignoreAttributes: true }).parse(xml) as {
    urlset?: { url?: { loc?: string } | Array<{ loc?: string }> };
    sitemapindex?: { sitemap?: { loc?: string } | Array<{ loc?: string }> };
  };
  const list = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
  return {
    pages: list(doc.urlset?.url).flatMap((u) => (u.loc ? [String(u.loc).trim()] : [])),
    sitemaps: list(doc.sitemapindex?.sitemap).flatMap((s) => (s.loc ? [String(s.loc).trim()] : [])),
  };
}

async function robotsFor(fetch: PageFetcher, root: URL) {
  const robotsUrl = new URL('/robots.txt', root).toString();
  try {
    const res = await fetch(robotsUrl);
    return robotsParser(robotsUrl, res.status === 200 ? res.body : '');
  } catch {
    return robotsParser(robotsUrl, '');
  }
}

export async function crawlWebsite(config: WebsiteConfig, fetch: PageFetcher): Promise<WebPage[]> {
  const start = new URL(config.url);
  const robots = await robotsFor(fetch, start);
  const allowed = (u: URL) =>
    sameSite(u, start) && allowedPath(config, u) && robots.isAllowed(u.toString(), USER_AGENT) !== false;
  const pages: WebPage[] = [];
  const errors: string[] = [];

  const read = async (u: URL): Promise<{ page?: WebPage; html?: string }> => {
    const res = await fetch(u.toString());
    if (res.status < 200 || res.status >= 300) {
      errors.push(`${u} answered ${res.status}`);
      return {};
    }
    const finalUrl = new URL(res.finalUrl);
    if (!sameSite(finalUrl, start)) {
      errors.push(`${u} redirected off the site`);
      return {};
    }
    if (!/html|text\/plain|markdown/i.test(res.contentType)) return {};
    const parsed = /html/i.test(res.contentType) ? htmlToMarkdown(res.body) : { text: res.body };
    return {
      page: { url: finalUrl.toString(), title: parsed.title ?? finalUrl.pathname, text: parsed.text },
      html: res.body,
    };
  };

  if (config.mode === 'page') {
    if (robots.isAllowed(start.toString(), USER_AGENT) === false) {
      throw new WebsiteError('robots.txt does not allow reading this page');
    }
    const { page } = await read(start);
    if (!page) throw new WebsiteError(errors[0] ?? 'The page has no readable text');
    return [page];
  }

  const queue: URL[] = [];
  const seen = new Set<string>();
  const enqueue = (u: URL) => {
    const key = u.toString();
    if (!seen.has(key) && allowed(u)) {
      seen.add(key);
      queue.push(u);
    }
  };

  if (config.mode === 'sitemap') {
    const sitemapQueue = [start.toString()];
    const seenMaps = new Set<string>();
    while (sitemapQueue.length > 0 && seenMaps.size < 20 && seen.size < config.maxPages) {
      const mapUrl = sitemapQueue.shift()!;
      if (seenMaps.has(mapUrl)) continue;
      seenMaps.add(mapUrl);
      const res = await fetch(mapUrl);
      if (res.status !== 200) {
        errors.push(`${mapUrl} answered ${res.status}`);
        continue;
      }
      const { pages: locs, sitemaps } = parseSitemap(res.body);
      for (const s of sitemaps) {
        const u = normalise(s, start);
        if (u && sameSite(u, start)) sitemapQueue.push(u.toString());
      }
      for (const loc of locs) {
        const u = normalise(loc, start);
        if (u && seen.size < config.maxPages) enqueue(u);
      }
    }
  } else {
    enqueue(start);
  }

  while (queue.length > 0 && pages.length < config.maxPages) {
    const u = queue.shift()!;
    const { page, html } = await read(u);
    if (page) pages.push(page);
    if (config.mode === 'crawl' && html) for (const link of extractLinks(html, u)) enqueue(link);
  }
  if (pages.length === 0) throw new WebsiteError(errors[0] ?? 'No readable pages were found');
  return pages;
}
