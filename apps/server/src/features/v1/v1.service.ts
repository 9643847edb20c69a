import type { AppContext } from '../../context.ts';
import type { Tenant } from '../../http/actor.ts';
import { notFound } from '../../http/errors.ts';
import { findWorkspaceSummary } from './v1.repo.ts';

/** decisions §10 `GET /api/v1/workspace`: a connection test for automation tools. */
export async function keyWorkspace(ctx: AppContext, tenant: Tenant, scopes: string[]) {
  const ws = await findWorkspaceSummary(ctx.db, tenant.workspaceId);
  if (!ws) throw notFound('Workspace');
  return { ...ws, plan: tenant.plan, scopes };
}
