import type { AppContext } from '../../context.ts';
import {
  type Actor,
  can,
  type Permission,
  type PlanFeature,
  planHas,
  type Scope,
  type Tenant,
} from '../../http/actor.ts';
import { AppError, forbidden, notFound } from '../../http/errors.ts';
import { planStanding } from './plan.ts';
import { findMembershipWithPlan, findWorkspacePlan } from './tenant.repo.ts';

/**
 * The tenant guard (ARCHITECTURE.md): the workspace must be one the caller belongs to, else 404
 * exactly like a missing one (decisions §2). API keys reach only their own workspace.
 */
export async function resolveTenant(ctx: AppContext, actor: Actor, workspaceId: string): Promise<Tenant> {
  if (workspaceId.length > 100) throw notFound('Workspace');
  if (actor.kind === 'apiKey' && actor.workspaceId !== workspaceId) throw notFound('Workspace');
  // Read with the credential in the same request (http/auth.ts); saves one query per request.
  if (actor.prefetched?.workspaceId === workspaceId) {
    if (!actor.prefetched.tenant) throw notFound('Workspace');
    return actor.prefetched.tenant;
  }
  if (actor.kind === 'apiKey') {
    const ws = await findWorkspacePlan(ctx.db, workspaceId);
    if (!ws) throw notFound('Workspace');
    return { workspaceId, role: null, ...planStanding(ws) };
  }
  const row = await findMembershipWithPlan(ctx.db, workspaceId, actor.userId);
  if (!row) throw notFound('Workspace');
  return { workspaceId, role: row.role, ...planStanding(row) };
}

export type Requirement = { permission?: Permission; scope?: Scope; planFeature?: PlanFeature };

/** Checks in the decisions' order: plan feature, then role (users) or scope (keys). */
export function authorize(actor: Actor, tenant: Tenant, req: Requirement): void {
  if (req.planFeature && !planHas(tenant.plan, req.planFeature)) {
    throw new AppError('plan_upgrade_required', 'Your plan does not include this feature; upgrade to use it');
  }
  if (actor.kind === 'apiKey') {
    if (req.scope && !actor.scopes.includes(req.scope)) {
      throw new AppError('missing_scope', `This API key lacks the ${req.scope} scope`, { scope: req.scope });
    }
    if (!req.scope && req.permission) throw forbidden('API keys cannot do this');
    return;
  }
  if (req.permission && !can(tenant.role, req.permission)) throw forbidden();
}

/** The role of `userId` in `workspaceId`, or null when not a member. */
export async function memberRole(ctx: AppContext, workspaceId: string, userId: string) {
  const row = await findMembershipWithPlan(ctx.db, workspaceId, userId);
  return row?.role ?? null;
}
