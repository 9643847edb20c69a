import type { AppContext } from '../../context.ts';
import type { Actor, Tenant } from '../../http/actor.ts';
import { badRequest } from '../../http/errors.ts';
import { firstMembershipWorkspaceIds } from './tenant.repo.ts';
import { resolveTenant } from './tenant.service.ts';

/**
 * Session-surface endpoints without a workspace in the path take `workspaceId` (query for GET,
 * body otherwise); it may be omitted when the caller belongs to exactly one workspace
 * (decisions §2, last bullet).
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
