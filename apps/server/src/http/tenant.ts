import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { authorize, resolveTenant } from '../features/workspaces/tenant.service.ts';
import type { Tenant } from './actor.ts';
import { actorOf } from './auth.ts';
import { AppError } from './errors.ts';

/**
 * preValidation hook: every route with a `:workspaceId` param resolves the workspace and the
 * caller's role once, then checks the route's plan feature, permission or scope
 * (decisions §2 order: 401 → 404 → plan → role/scope → validation).
 */
export function registerTenantGuard(app: FastifyInstance, ctx: AppContext) {
  app.decorateRequest('tenant', null);
  app.addHook('preValidation', async (request) => {
    const workspaceId = (request.params as Record<string, string | undefined> | undefined)?.workspaceId;
    if (workspaceId === undefined || !request.actor) return;
    const tenant = await resolveTenant(ctx, request.actor, workspaceId);
    request.tenant = tenant;
    const cfg = request.routeOptions.config;
    authorize(request.actor, tenant, {
      permission: cfg?.permission,
      scope: cfg?.scope,
      planFeature: cfg?.planFeature,
    });
  });
}

export function tenantOf(request: FastifyRequest): Tenant {
  if (!request.tenant) throw new AppError('internal_server_error:api', 'Route has no tenant');
  return request.tenant;
}

export { actorOf };
