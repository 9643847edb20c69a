import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Feature } from '../../http/feature.ts';
import { SESSION_COOKIE } from '../auth/credentials.service.ts';
import { IMMUTABLE, type IndexPage, loadIndexPages, REVALIDATE, SHORT, WEB_DIST } from './web-files.ts';

/**
 * The dashboard at `/` (docs/dashboard.md "Serving"). Built files from apps/web/dist through
 * @fastify/static (docs/decisions/0008-dashboard.md); any other GET outside `/api/` whose last
 * segment has no file extension is a client-side route and gets index.html, but only when the
 * client asks for HTML (a browser navigation): API clients and scripts keep the JSON 404
 * `not_found:api` (docs/decisions/0001-http-conventions.md) on every unknown path.
 * Static routes registered elsewhere (/widget.js, /healthz, /readyz) win over the wildcard.
 */

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Parley</title></head>
<body><main><h1>The dashboard is not built</h1><p>Run <code>npm install</code> (or
<code>npm run build -w @parley/web</code>) and restart the server. The API under <code>/api</code>
works without it.</p></main></body></html>`;

const wantsHtml = (request: FastifyRequest) => /\btext\/html\b/.test(request.headers.accept ?? '');

function sendIndex(request: FastifyRequest, reply: FastifyReply, index: IndexPage) {
  reply
    .type('text/html; charset=utf-8')
    .header('cache-control', REVALIDATE)
    .header('etag', index.etag)
    .header('vary', 'Cookie')
    .header('x-content-type-options', 'nosniff');
  const match = request.headers['if-none-match'];
  if (match?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === index.etag)) {
    return reply.status(304).send();
  }
  return reply.send(index.body);
}

export const webRoutes: Feature = async (app, ctx) => {
  const index = await loadIndexPages({ uploadLimitBytes: ctx.config.uploadLimitBytes });
  if (!index) app.log.warn('dashboard not built (apps/web/dist missing): run `npm run build -w @parley/web`');

  // The plugin answers files (type, ETag and Last-Modified, 304, HEAD, ranges); the one wildcard
  // route below decides what is a file and what is a client route, so it registers no route.
  await app.register(fastifyStatic, {
    root: WEB_DIST,
    serve: false,
    suppressWarning: true,
    cacheControl: false,
    setHeaders: (reply, path) => {
      reply.header('cache-control', path.startsWith(`${WEB_DIST}assets/`) ? IMMUTABLE : SHORT);
      reply.header('x-content-type-options', 'nosniff');
      // RFC 9239's type for scripts; the plugin's MIME table still says application/javascript.
      if (path.endsWith('.js')) reply.type('text/javascript; charset=utf-8');
    },
  });

  const page = (request: FastifyRequest, reply: FastifyReply) => {
    if (index)
      return sendIndex(request, reply, index[request.cookies[SESSION_COOKIE] ? 'present' : 'absent']);
    return reply
      .status(503)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(NOT_BUILT);
  };

  app.get('/', { schema: { hide: true } }, page);
  app.get('/*', { schema: { hide: true } }, (request, reply) => {
    const path = `/${(request.params as { '*': string })['*']}`;
    const segments = path.split('/');
    const last = segments.at(-1) ?? '';
    // index.html only through `page` (it carries the settings); `..` never leaves dist/.
    if (path === '/index.html' || segments.includes('..')) return reply.callNotFound();
    if (last.includes('.')) return reply.sendFile(path);
    const clientRoute = path !== '/api' && !path.startsWith('/api/');
    if (clientRoute && wantsHtml(request)) return page(request, reply);
    return reply.callNotFound();
  });
};
