import type { AppContext } from '../../context.ts';
import type { Role } from '../../db/schema/index.ts';
import type { Actor, Tenant } from '../../http/actor.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import type { TenantDirectory } from '../../http/tenant.ts';
import { type PlanStanding, planStanding } from './plan.ts';
import { findMembershipWithPlan, findWorkspacePlan, firstMembershipWorkspaceIds } from './tenant.repo.ts';

/**
 * The one place a Tenant is built: the workspace, the caller's role there (null for API keys and
 * the widget, which act for the whole workspace) and the plan in force.
 */
export const tenantIn = (workspaceId: string, role: Role | null, standing: PlanStanding): Tenant => ({
  workspaceId,
  role,
  plan: standing.plan,
  monthlyCredits: standing.monthlyCredits,
});

/**
 * The caller's standing in a workspace: it must be one the caller belongs to, else 404 exactly
 * like a missing one (docs/api.md). API keys reach only their own workspace.
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
    return tenantIn(workspaceId, null, planStanding(ws));
  }
  const row = await findMembershipWithPlan(ctx.db, workspaceId, actor.userId);
  if (!row) throw notFound('Workspace');
  return tenantIn(workspaceId, row.role, planStanding(row));
}

/**
 * Session-surface endpoints without a workspace in the path take `workspaceId` (query for GET,
 * body otherwise); it may be omitted when the caller belongs to exactly one workspace
 * (docs/api.md).
 */
export async function tenantFromInput(
  ctx: AppContext,
  actor: Actor,
  workspaceId: string | undefined,
): Promise<Tenant> {
  if (workspaceId !== undefined) return resolveTenant(ctx, actor, workspaceId);
  if (actor.kind === 'apiKey') return resolveTenant(ctx, actor, actor.workspaceId);
  const ids = await firstMembershipWorkspaceIds(ctx.db, actor.userId, 2);
  if (ids.length === 1 && ids[0]) return resolveTenant(ctx, actor, ids[0]);
  throw badRequest('workspaceId is required', {
    workspaceId:
      ids.length === 0 ? 'You belong to no workspace yet' : 'Required when you belong to several workspaces',
  });
}

/** What the tenant resolver (http/tenant.ts) asks of workspaces. */
export const tenantDirectory: TenantDirectory = { member: resolveTenant, fromInput: tenantFromInput };

/** The role of `userId` in `workspaceId`, or null when not a member. */
export async function memberRole(ctx: AppContext, workspaceId: string, userId: string) {
  const row = await findMembershipWithPlan(ctx.db, workspaceId, userId);
  return row?.role ?? null;
}
