import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Feature } from '../../http/feature.ts';
import { loadWebFiles, type WebFile } from './web-files.ts';

/**
 * The dashboard at `/` (issue 7 point 1; docs/dashboard.md). Built files from apps/web/dist;
 * any other GET outside `/api/` whose last segment has no file extension is a client-side route
 * and gets index.html, but only when the client asks for HTML (a browser navigation): API
 * clients and scripts keep the JSON 404 `not_found:api` of decisions §2 on every unknown path.
 * Static routes registered elsewhere (/widget.js, /healthz, /readyz) win over the wildcard.
 */

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Parley</title></head>
<body><main><h1>The dashboard is not built</h1><p>Run <code>npm install</code> (or
<code>npm run build -w @parley/web</code>) and restart the server. The API under <code>/api</code>
works without it.</p></main></body></html>`;

const wantsHtml = (request: FastifyRequest) => /\btext\/html\b/.test(request.headers.accept ?? '');

function send(request: FastifyRequest, reply: FastifyReply, file: WebFile) {
  reply
    .type(file.type)
    .header('cache-control', file.cacheControl)
    .header('etag', file.etag)
    .header('x-content-type-options', 'nosniff');
  const match = request.headers['if-none-match'];
  if (match?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === file.etag)) {
    return reply.status(304).send();
  }
  return reply.send(file.body);
}

export const webRoutes: Feature = async (app, ctx) => {
  const files = await loadWebFiles({ uploadLimitBytes: ctx.config.uploadLimitBytes });
  if (!files) app.log.warn('dashboard not built (apps/web/dist missing): run `npm run build -w @parley/web`');

  const page = (request: FastifyRequest, reply: FastifyReply) => {
    const index = files?.get('/index.html');
    if (index) return send(request, reply, index);
    return reply
      .status(503)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(NOT_BUILT);
  };

  app.get('/', { schema: { hide: true } }, page);
  app.get('/*', { schema: { hide: true } }, (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const file = files?.get(path);
    if (file && path !== '/index.html') return send(request, reply, file);
    const last = path.slice(path.lastIndexOf('/') + 1);
    const clientRoute = !path.startsWith('/api/') && path !== '/api' && !last.includes('.');
    if (clientRoute && wantsHtml(request)) return page(request, reply);
    return reply.callNotFound();
  });
};
