import type { FastifyInstance, FastifyRequest } from 'fastify';
import { toAppError } from './error-handler.ts';

/**
 * Fastify validates before the handler runs; decisions §2 puts "resource exists" (404) before
 * validation (400). Every route collects its validation error instead of failing at once; a
 * preHandler raises it unless the route defers to assertValid() after its own 404 checks.
 */
export function registerDeferredValidation(app: FastifyInstance) {
  app.addHook('onRoute', (route) => {
    route.attachValidation = true;
  });
  app.addHook('preHandler', async (request) => {
    if (!request.routeOptions.config?.deferValidation) assertValid(request);
  });
}

export function assertValid(request: FastifyRequest): void {
  if (request.validationError) throw toAppError(request.validationError, request);
}
