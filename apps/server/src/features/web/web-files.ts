import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/**
 * The dashboard's built files (apps/web/dist). Every file but index.html is served from disk by
 * @fastify/static (web.routes.ts); index.html is read once when the app starts, because it
 * carries server settings the page needs before its first request (docs/dashboard.md).
 */

export const WEB_DIST = fileURLToPath(new URL('../../../../web/dist/', import.meta.url));

/** Vite names assets by content hash, so they may be cached for a year; index.html never is. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';
/** Files of apps/web/public keep their names (favicon.ico): browsers check again after five minutes. */
export const SHORT = 'public, max-age=300';

export type IndexPage = { body: Buffer; etag: string };
/** index.html for a request that carries a session cookie (`present`) and for one that does not. */
export type IndexPages = Record<'present' | 'absent', IndexPage>;

/** Server settings the dashboard needs before its first request, as `<meta>` tags in index.html. */
export type PageSettings = { uploadLimitBytes: number };

function page(html: string, settings: PageSettings, cookie: keyof IndexPages): IndexPage {
  const meta = [
    `<meta name="parley-upload-limit-bytes" content="${Math.floor(settings.uploadLimitBytes)}" />`,
    `<meta name="parley-session-cookie" content="${cookie}" />`,
  ];
  const body = Buffer.from(html.replace('</head>', `${meta.join('\n    ')}\n  </head>`));
  return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
}

/**
 * index.html with `settings` (the upload limit, so the dashboard refuses a file too big before
 * sending it) and whether the request carried a session cookie (without one the dashboard shows
 * the sign-in page at once, instead of asking `/api/auth/session` for a certain 401, which
 * browsers log as an error); undefined when the dashboard is not built.
 */
export async function loadIndexPages(
  settings: PageSettings,
  dist = WEB_DIST,
): Promise<IndexPages | undefined> {
  let raw: string;
  try {
    raw = await readFile(`${dist}index.html`, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  return { present: page(raw, settings, 'present'), absent: page(raw, settings, 'absent') };
}
