import type { AppContext } from '../../context.ts';
import { type Actor, can, type Tenant } from '../../http/actor.ts';
import { defineResource, resourceNotFound } from '../../http/resources.ts';
import { type KnownKnowledge, scopeFromPairs } from '../knowledge/knowledge.service.ts';
import { planStanding } from '../workspaces/plan.ts';
import { tenantIn } from '../workspaces/tenant.service.ts';
import * as repo from './assistants.repo.ts';

/** An assistant as routes get it; a chat also gets what the same query read of its knowledge. */
export type LoadedAssistant = { row: repo.AssistantRow; knowledge?: KnownKnowledge };

declare module '../../http/resources.ts' {
  interface Resources {
    assistant: LoadedAssistant;
  }
}

/** Managers (owner, admin) see every assistant; others are bound by visibility (docs/api.md). */
export const restrictionFor = (actor: Actor | null, tenant: Tenant) =>
  actor?.kind === 'user' && !can(tenant.role, 'assistants.manage') ? actor.userId : null;

async function visible(
  ctx: AppContext,
  actor: Actor | null,
  tenant: Tenant,
  a: repo.AssistantRow,
  granted?: boolean,
): Promise<boolean> {
  const userId = restrictionFor(actor, tenant);
  if (userId === null || a.visibility !== 'private' || a.createdBy === userId) return true;
  return granted ?? repo.hasAccessGrant(ctx.db, a.id, userId);
}

/**
 * `:assistantId`. Inside a workspace path it is read with the workspace in the query; on the
 * session surface (`/api/assistants/:assistantId`, `/api/chat`) it is found among the caller's
 * workspaces, with the caller's standing there and its knowledge scope in the same query. A
 * private assistant the caller may not see is a 404 like a missing one.
 */
export const assistantResource = defineResource({
  kind: 'assistant',
  param: 'assistantId',
  notFound: resourceNotFound('Assistant'),
  async load(ctx, { tenant, actor }, id) {
    const row = await repo.findAssistant(ctx.db, tenant.workspaceId, id);
    return row && (await visible(ctx, actor, tenant, row)) ? { row } : undefined;
  },
  async locate(ctx, actor, id) {
    if (actor.kind !== 'user') return undefined;
    const found = await repo.findAssistantForUser(ctx.db, id, actor.userId);
    if (!found) return undefined;
    const row = found.assistant;
    const tenant = tenantIn(row.workspaceId, found.role, planStanding(found));
    if (!(await visible(ctx, actor, tenant, row, found.granted))) return undefined;
    const knowledge = { scope: scopeFromPairs(found.namespaces), hasRealtime: found.hasRealtime };
    return { tenant, row: { row, knowledge } };
  },
});
