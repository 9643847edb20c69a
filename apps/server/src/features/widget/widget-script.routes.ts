import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import type { Feature } from '../../http/feature.ts';

/**
 * `GET /widget.js`: the embeddable script (docs/widget-script.md "Building and serving"), built by
 * apps/widget (`npm install` runs its build). Read and gzipped once when the app starts (no
 * compression plugin is registered, and the file never changes while the process runs); when
 * dist/ is missing (a checkout without the install step) it is built here first.
 */

const WIDGET_DIR = new URL('../../../../widget/', import.meta.url);
const SCRIPT = new URL('dist/widget.js', WIDGET_DIR);

/** Browsers revalidate after five minutes (cheaply, by ETag), so a deploy reaches sites quickly. */
const CACHE_CONTROL = 'public, max-age=300, stale-while-revalidate=3600';

export type WidgetScript = { raw: Buffer; gzip: Buffer; etag: string };

export async function loadWidgetScript(): Promise<WidgetScript> {
  let raw: Buffer;
  try {
    raw = await readFile(SCRIPT);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    const build = (await import(new URL('build.mjs', WIDGET_DIR).href)) as {
      buildWidget(): Promise<unknown>;
    };
    await build.buildWidget();
    raw = await readFile(SCRIPT);
  }
  const etag = `"${createHash('sha256').update(raw).digest('base64url').slice(0, 27)}"`;
  return { raw, gzip: gzipSync(raw, { level: 9 }), etag };
}

/** True when `Accept-Encoding` lists gzip (or `*`) without `q=0`. */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  return header.split(',').some((part) => {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    if (name.trim() !== 'gzip' && name.trim() !== '*') return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return !q || Number(q.slice(2)) > 0;
  });
}

export const widgetScriptRoutes: Feature = async (app) => {
  let script: WidgetScript | undefined;
  try {
    script = await loadWidgetScript();
  } catch (err) {
    // The API keeps working without the widget; the route says what is missing.
    app.log.error({ err }, 'widget.js could not be loaded or built (run `npm run build -w @parley/widget`)');
  }

  app.get('/widget.js', { schema: { hide: true } }, async (request, reply) => {
    if (!script) {
      return reply
        .status(503)
        .type('application/javascript; charset=utf-8')
        .header('cache-control', 'no-store')
        .send('console.warn("Parley: the widget script is not built on this server.");');
    }
    reply
      .type('application/javascript; charset=utf-8')
      .header('cache-control', CACHE_CONTROL)
      .header('etag', script.etag)
      .header('vary', 'Accept-Encoding')
      .header('x-content-type-options', 'nosniff')
      // Loadable by pages with `crossorigin` (e.g. for Subresource Integrity) or a strict COEP.
      .header('access-control-allow-origin', '*')
      .header('cross-origin-resource-policy', 'cross-origin');
    const match = request.headers['if-none-match'];
    if (match?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === script.etag)) {
      return reply.status(304).send();
    }
    if (acceptsGzip(request.headers['accept-encoding'])) {
      return reply.header('content-encoding', 'gzip').send(script.gzip);
    }
    return reply.send(script.raw);
  });
};
