import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';

/**
 * onRequest hook, registered before authentication: a route marked `config.foreground` (a chat
 * turn) is foreground work from its arrival until its stream's first event (http/sse.ts ends it
 * there) or, for a refusal or a dropped connection, until the response closes (lib/lanes.ts).
 */
export function registerForeground(app: FastifyInstance, ctx: AppContext) {
  app.decorateRequest('endForeground', null);
  app.addHook('onRequest', (request, reply, done) => {
    if (request.routeOptions.config?.foreground) {
      const end = ctx.lanes.foreground();
      request.endForeground = end;
      reply.raw.once('close', end);
    }
    done();
  });
}
