import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import type { AppContext } from './context.ts';
import { credentials, features, resourceLoaders, surfaces, tenantDirectory } from './features/index.ts';
import { registerAuth } from './http/auth.ts';
import { registerErrorHandler, sendError, toAppError } from './http/error-handler.ts';
import { UNAVAILABLE_RETRY_AFTER_S } from './http/errors.ts';
import { type Feature, typed } from './http/feature.ts';
import { registerForeground } from './http/foreground.ts';
import { registerMetricsRoute } from './http/metrics-route.ts';
import { documentRoute } from './http/route-docs.ts';
import { registerTenantResolver } from './http/tenant.ts';
import { registerJsonParser, registerWellFormedInput } from './http/well-formed.ts';
import { languageDetector } from './lib/language-detect.ts';
import { withErrorSerializer } from './lib/log-errors.ts';

export type App = FastifyInstance;

export type BuildOptions = {
  logger?: boolean | object;
  /**
   * The routes to register, all of features/index.ts by default; a process may serve fewer. What
   * every path needs (channels, sign-in guards, provider clients) is on the context either way.
   */
  features?: readonly Feature[];
};

/** Builds the Fastify app from its parts; features are registered from one list (features/index.ts). */
export async function buildApp(ctx: AppContext, opts: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    // Errors are logged without a failed statement's parameters (lib/log-errors.ts).
    logger: withErrorSerializer(opts.logger ?? { level: ctx.config.logLevel }),
    bodyLimit: ctx.config.bodyLimitBytes,
    trustProxy: ctx.config.trustProxy,
    genReqId: () => crypto.randomUUID(),
    requestIdHeader: false,
    // One log line per request (onResponse below) instead of Fastify's two: half the log work
    // on the hot path (docs/performance.md).
    logController: new LogController({ disableRequestLogging: true }),
    ajv: undefined,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // Router-level failures (bad URL encoding, over-long params) use the one error model too.
    frameworkErrors: (err, request, reply) => sendError(reply, toAppError(err, request)),
  });
  await ctx.limits.ready();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    done(null, payload);
  });
  app.addHook('onResponse', (request, reply, done) => {
    request.log.info(
      { method: request.method, url: request.url, statusCode: reply.statusCode, ms: reply.elapsedTime },
      'request',
    );
    done();
  });
  registerErrorHandler(app);
  // Text that is not well-formed (a lone surrogate, a JSON body that is not UTF-8) is a 400 like a
  // parse error (http/well-formed.ts); its hook comes before the tenant resolver's.
  registerWellFormedInput(app);
  registerJsonParser(app);
  await app.register(fastifyCookie);
  await app.register(fastifyMultipart, {
    limits: { fileSize: ctx.config.uploadLimitBytes, files: 1, fields: 10 },
  });
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Parley API',
        version: '1.0.0',
        description: 'Parley: open-source AI customer support. See docs/ for the guide.',
      },
      components: {
        securitySchemes: {
          session: {
            type: 'apiKey',
            in: 'cookie',
            name: 'parley.session-token',
            description: 'Browser session from POST /api/auth/login or /api/auth/signup.',
          },
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description:
              'A personal access token (`pat_...`) on /api/workspaces and /api/webhooks, or a workspace API key (`wsk_live_...`) on /api/v1.',
          },
          widgetSession: {
            type: 'apiKey',
            in: 'header',
            name: 'Authorization',
            description: 'Public widget paths after init: `Authorization: Widget <sessionToken>`.',
          },
        },
      },
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  app.addHook('onRoute', documentRoute);
  registerForeground(app, ctx);
  // A customer's message names its conversation's language synchronously (docs/languages.md
  // "Conversations"): the detector is loaded before the first request is answered.
  app.addHook('onReady', async () => {
    await languageDetector();
  });
  registerAuth(app, ctx, credentials);
  registerTenantResolver(app, ctx, { directory: tenantDirectory, loaders: resourceLoaders, surfaces });

  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    try {
      await ctx.database.ping();
      return { status: 'ready' };
    } catch {
      // docs/configuration.md "When PostgreSQL or Redis goes away": not ready until the database answers.
      return reply
        .status(503)
        .header('Retry-After', String(UNAVAILABLE_RETRY_AFTER_S))
        .send({ status: 'unavailable' });
    }
  });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  registerMetricsRoute(app, ctx);

  for (const feature of opts.features ?? features) {
    await app.register(async (scope) => feature(typed(scope), ctx));
  }
  return app;
}
