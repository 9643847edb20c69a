import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { constantTimeEqual } from '../lib/crypto.ts';
import { AppError, notFound } from './errors.ts';

/**
 * `GET /metrics` for Prometheus (docs/metrics.md): only when METRICS_TOKEN is set, and only with
 * `Authorization: Bearer <METRICS_TOKEN>`; otherwise it does not exist (404). Not in the OpenAPI
 * document: it is the operator's, not the API's.
 */
export function registerMetricsRoute(app: FastifyInstance, ctx: AppContext) {
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? '(unmatched)';
    ctx.metrics.httpDuration.observe(
      { method: request.method, route, status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    done();
  });
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const token = ctx.config.metricsToken;
    if (!token) throw notFound('Route');
    const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
    if (!constantTimeEqual(given, token))
      throw new AppError('unauthorized:api', 'A valid metrics token is required');
    return reply.type(ctx.metrics.registry.contentType).send(await ctx.metrics.registry.metrics());
  });
}
