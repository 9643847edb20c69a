import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { Actor, Tenant } from '../../http/actor.ts';
import { actorOf } from '../../http/auth.ts';
import { unauthorized } from '../../http/errors.ts';
import { authorize, type Requirement, resolveTenant } from '../workspaces/tenant.service.ts';

/**
 * The tenant guard of the API-key surface `/api/v1/*` (decisions §10). Those paths carry no
 * `:workspaceId`, so http/tenant.ts does not run for them: the key names its workspace.
 *
 * Every /api/v1 route uses it, declaring its needs in the route config exactly like workspace
 * routes do, and reads the result with `tenantOf(request)`:
 *
 *   app.post('/api/v1/contacts', {
 *     config: { auth: 'key', planFeature: 'api_v1_write', scope: 'contacts:write', deferValidation: true },
 *     preValidation: v1Guard(ctx),
 *     schema: { ... },
 *   }, async (request) => {
 *     const tenant = tenantOf(request);   // { workspaceId, role: null, plan }
 *     // ...404 checks of the addressed resource, then assertValid(request) (400)
 *   });
 *
 * Order (decisions §2, §10): 401 (auth hook: no, revoked or wrong kind of credential) →
 * plan feature (403 plan_upgrade_required: writes on Free) → scope (403 missing_scope) →
 * the handler's 404 → validation 400 (deferValidation + assertValid; without deferValidation the
 * 400 comes before the handler's 404, which is fine for routes that address no resource).
 */
export function v1Guard(ctx: AppContext) {
  return async function v1TenantGuard(request: FastifyRequest): Promise<void> {
    const cfg = request.routeOptions.config;
    request.tenant = await resolveKeyTenant(ctx, actorOf(request), {
      scope: cfg?.scope,
      planFeature: cfg?.planFeature,
    });
  };
}

/** The same checks as a plain function, for callers outside a route hook. */
export async function resolveKeyTenant(
  ctx: AppContext,
  actor: Actor,
  req: Requirement = {},
): Promise<Tenant> {
  if (actor.kind !== 'apiKey') throw unauthorized('This endpoint takes a workspace API key');
  // The key's own workspace: 404 only if it vanished between the key lookup and here.
  const tenant = await resolveTenant(ctx, actor, actor.workspaceId);
  authorize(actor, tenant, req);
  return tenant;
}
