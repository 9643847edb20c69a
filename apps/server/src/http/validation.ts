import type { FastifyInstance, FastifyRequest } from 'fastify';
import { toAppError, validationError } from './error-handler.ts';

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
  const nul = findNul(request.body) ?? findNul(request.query) ?? findNul(request.params);
  if (nul !== undefined) {
    throw validationError(request.url, [{ path: nul, message: 'Must not contain the NUL character' }]);
  }
}

/**
 * PostgreSQL text cannot hold U+0000; a NUL anywhere in the input is a 400 naming the field
 * (decisions §2: never a 500). Returns the path of the first string containing one.
 */
export function findNul(value: unknown, path: string[] = [], depth = 0): string[] | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (!value || typeof value !== 'object' || depth > 32) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const found = key.includes('\u0000') ? [...path, key] : findNul(item, [...path, key], depth + 1);
    if (found) return found;
  }
  return undefined;
}
