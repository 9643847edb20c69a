import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The dashboard's built files (apps/web/dist, issue 7 point 1), read once when the app starts:
 * the build is a few hundred KB and never changes while the process runs (a deploy restarts it),
 * so serving from memory needs no static-file plugin and no disk access per request.
 */

export const WEB_DIST = fileURLToPath(new URL('../../../../web/dist/', import.meta.url));

export type WebFile = { body: Buffer; type: string; etag: string; cacheControl: string };

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json',
};

/** Vite names assets by content hash, so they may be cached for a year; index.html never is. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';
const SHORT = 'public, max-age=300';

async function walk(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((e) => (e.isDirectory() ? walk(join(dir, e.name)) : Promise.resolve([join(dir, e.name)]))),
  );
  return nested.flat();
}

/** Server settings the dashboard needs before its first request, as `<meta>` tags in index.html. */
export type PageSettings = { uploadLimitBytes: number };

const withSettings = (html: Buffer, settings: PageSettings) =>
  Buffer.from(
    html
      .toString('utf8')
      .replace(
        '</head>',
        `<meta name="parley-upload-limit-bytes" content="${Math.floor(settings.uploadLimitBytes)}" />\n  </head>`,
      ),
  );

/**
 * URL path (`/assets/index-abc.js`) → file; undefined when dist/ has no index.html. index.html
 * carries `settings` (the upload limit, so the dashboard refuses a file too big before sending it).
 */
export async function loadWebFiles(
  settings: PageSettings,
  dist = WEB_DIST,
): Promise<Map<string, WebFile> | undefined> {
  let paths: string[];
  try {
    paths = await walk(dist);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  const files = new Map<string, WebFile>();
  for (const path of paths) {
    const url = `/${relative(dist, path).split(sep).join('/')}`;
    const raw = await readFile(path);
    const body = url === '/index.html' ? withSettings(raw, settings) : raw;
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
    const cacheControl = url === '/index.html' ? REVALIDATE : url.startsWith('/assets/') ? IMMUTABLE : SHORT;
    files.set(url, { body, etag, cacheControl, type: TYPES[extname(path)] ?? 'application/octet-stream' });
  }
  return files.has('/index.html') ? files : undefined;
}
