import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { sendError } from './error-handler.ts';
import { AppError } from './errors.ts';

/** Seconds a shed chat's client waits before sending it again (docs/chat.md "Busy"). */
export const BUSY_RETRY_AFTER_S = 1;

/**
 * onRequest hook, registered before authentication: a route marked `config.foreground` (a chat
 * turn) is foreground work from its arrival until its stream's first event (http/sse.ts ends it
 * there) or, for a refusal or a dropped connection, until the response closes (lib/lanes.ts).
 * Before that, admission (lib/admission.ts): a chat the process cannot start in time is refused
 * at once with 503 and Retry-After, before its body is read or anything is stored or charged.
 */
export function registerForeground(app: FastifyInstance, ctx: AppContext) {
  app.decorateRequest('endForeground', null);
  app.decorateRequest('chatStarted', null);
  ctx.admission.start();
  app.addHook('onClose', async () => ctx.admission.stop());
  app.addHook('onRequest', async (request, reply) => {
    if (!request.routeOptions.config?.foreground) return;
    const admitted = ctx.admission.admit();
    if ('shed' in admitted) {
      ctx.metrics.chatsShed.inc({ reason: admitted.shed });
      return sendError(
        reply,
        new AppError(
          'service_unavailable:api',
          'Too many conversations are starting right now; send it again in a moment',
          // Also in the body: a widget on another origin cannot read the header (docs/widget.md "CORS").
          { retryAfter: BUSY_RETRY_AFTER_S },
          { 'Retry-After': String(BUSY_RETRY_AFTER_S) },
        ),
      );
    }
    const { started } = admitted;
    const end = ctx.lanes.foreground();
    request.endForeground = end;
    request.chatStarted = started;
    reply.raw.once('close', () => {
      started();
      end();
    });
  });
}
