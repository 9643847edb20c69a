import type { AppContext } from '../../context.ts';
import { type Actor, can, type Tenant } from '../../http/actor.ts';
import { badRequest, forbidden, notFound } from '../../http/errors.ts';
import { now } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { recordEvent } from '../events/events.service.ts';
import { type KnownKnowledge, scopeFromPairs } from '../knowledge/knowledge.service.ts';
import { setWidgetEnabled } from '../widget/widget-config.service.ts';
import { tenantFromInput } from '../workspaces/implicit-tenant.service.ts';
import { planStanding } from '../workspaces/plan.ts';
import { memberRole, resolveTenant } from '../workspaces/tenant.service.ts';
import * as repo from './assistants.repo.ts';
import { toAssistant } from './assistants.schemas.ts';

export type AssistantInput = {
  name: string;
  instructions?: string;
  visibility?: 'private' | 'workspace' | 'public';
  temperature?: number;
  maxTokens?: number;
  welcomeMessage?: string | null;
};

/** Managers (owner, admin) see every assistant; others are bound by visibility (spec Assistant). */
const restrictionFor = (actor: Actor, tenant: Tenant) =>
  actor.kind === 'user' && !can(tenant.role, 'assistants.manage') ? actor.userId : null;

async function visible(
  ctx: AppContext,
  actor: Actor,
  tenant: Tenant,
  a: repo.AssistantRow,
  granted?: boolean,
): Promise<boolean> {
  const userId = restrictionFor(actor, tenant);
  if (userId === null || a.visibility !== 'private' || a.createdBy === userId) return true;
  return granted ?? repo.hasAccessGrant(ctx.db, a.id, userId);
}

/**
 * Loads an assistant addressed by id alone: its workspace must be the caller's (else 404, as
 * if it did not exist) and a private one must be visible to the caller (else 404). For a user it
 * comes with what the same query read of its knowledge (`knowledge`), which a chat then uses.
 */
export async function loadAssistant(
  ctx: AppContext,
  actor: Actor,
  assistantId: string,
): Promise<{ row: repo.AssistantRow; tenant: Tenant; knowledge?: KnownKnowledge }> {
  if (assistantId.length > 100) throw notFound('Assistant');
  if (actor.kind === 'user') {
    // A user's membership, plan and grant come in the same query as the assistant.
    const found = await repo.findAssistantForUser(ctx.db, assistantId, actor.userId);
    if (!found) throw notFound('Assistant');
    if (!found.role) throw notFound('Workspace');
    const row = found.assistant;
    const tenant: Tenant = { workspaceId: row.workspaceId, role: found.role, ...planStanding(found) };
    if (!(await visible(ctx, actor, tenant, row, found.granted))) throw notFound('Assistant');
    const knowledge = { scope: scopeFromPairs(found.namespaces), hasRealtime: found.hasRealtime };
    return { row, tenant, knowledge };
  }
  const row = await repo.findAssistant(ctx.db, assistantId);
  if (!row) throw notFound('Assistant');
  const tenant = await resolveTenant(ctx, actor, row.workspaceId);
  if (!(await visible(ctx, actor, tenant, row))) throw notFound('Assistant');
  return { row, tenant };
}

/** An assistant addressed inside a workspace path (Form B): another workspace's is a 404. */
export async function loadAssistantIn(ctx: AppContext, actor: Actor, tenant: Tenant, assistantId: string) {
  const row = assistantId.length <= 100 ? await repo.findAssistant(ctx.db, assistantId) : undefined;
  if (!row || row.workspaceId !== tenant.workspaceId || !(await visible(ctx, actor, tenant, row))) {
    throw notFound('Assistant');
  }
  return row;
}

export async function listAssistantsIn(
  ctx: AppContext,
  actor: Actor,
  tenant: Tenant,
  page: { limit: number; offset: number },
) {
  return repo.listAssistants(ctx.db, tenant.workspaceId, restrictionFor(actor, tenant), page);
}

export async function listAssistants(
  ctx: AppContext,
  actor: Actor,
  query: { workspaceId?: string; limit: number; offset: number },
) {
  const tenant = await tenantFromInput(ctx, actor, query.workspaceId);
  const { rows, total } = await repo.listAssistants(
    ctx.db,
    tenant.workspaceId,
    restrictionFor(actor, tenant),
    query,
  );
  return { rows, total, tenant };
}

/** The workspace a new assistant goes into, checked before the body is validated (decisions §2). */
export async function tenantForCreate(ctx: AppContext, actor: Actor, workspaceId: unknown) {
  const tenant = await tenantFromInput(ctx, actor, typeof workspaceId === 'string' ? workspaceId : undefined);
  if (!can(tenant.role, 'assistants.manage')) throw forbidden('Only owners and admins create assistants');
  return tenant;
}

export async function createAssistant(
  ctx: AppContext,
  actor: Actor,
  tenant: Tenant,
  input: AssistantInput & { widgetEnabled?: boolean },
) {
  if (input.visibility === 'public') throw publicRefused();
  const at = now();
  return ctx.db.transaction(async (tx) => {
    const row = await repo.insertAssistant(tx, {
      id: newId('asst'),
      workspaceId: tenant.workspaceId,
      name: input.name,
      instructions: input.instructions ?? '',
      visibility: input.visibility ?? 'workspace',
      temperature: input.temperature ?? 0.7,
      maxTokens: input.maxTokens ?? 4096,
      welcomeMessage: input.welcomeMessage ?? null,
      createdBy: actor.kind === 'user' ? actor.userId : null,
      createdAt: at,
      updatedAt: at,
    });
    if (input.widgetEnabled !== undefined)
      await setWidgetEnabled(tx, row.workspaceId, row.id, input.widgetEnabled, at);
    return row;
  });
}

const publicRefused = () =>
  badRequest('Validation failed', { visibility: "'public' is legacy and cannot be set on new assistants" });

/** Role check after the 404s, validation after the role check (decisions §2 order). */
export async function assertCanManage(ctx: AppContext, actor: Actor, assistantId: string) {
  const loaded = await loadAssistant(ctx, actor, assistantId);
  if (!can(loaded.tenant.role, 'assistants.manage'))
    throw forbidden('Only owners and admins manage assistants');
  return loaded;
}

/** `widgetEnabled` is Form B's name for the widget configuration's `isEnabled` (decisions §1). */
export async function updateAssistant(
  ctx: AppContext,
  current: repo.AssistantRow,
  patch: Partial<AssistantInput> & { widgetEnabled?: boolean },
) {
  const { widgetEnabled, ...fields } = patch;
  if (fields.visibility === 'public' && current.visibility !== 'public') throw publicRefused();
  return ctx.db.transaction(async (tx) => {
    const at = now();
    const row = await repo.updateAssistant(tx, current.workspaceId, current.id, { ...fields, updatedAt: at });
    if (row && widgetEnabled !== undefined)
      await setWidgetEnabled(tx, row.workspaceId, row.id, widgetEnabled, at);
    if (!row) throw notFound('Assistant');
    await recordEvent(tx, {
      workspaceId: row.workspaceId,
      type: 'assistant.updated',
      data: toAssistant(row),
    });
    return row;
  });
}

/** Removes the assistant; its conversations, sessions, SMS config and knowledge go with it (FK cascades). */
export async function deleteAssistant(ctx: AppContext, current: repo.AssistantRow) {
  if (!(await repo.deleteAssistant(ctx.db, current.workspaceId, current.id))) throw notFound('Assistant');
}

/** decisions §5: grants for private assistants. The grantee must belong to the workspace. */
export async function setAccess(
  ctx: AppContext,
  current: repo.AssistantRow,
  userId: string,
  granted: boolean,
) {
  if (userId.length > 100 || !(await memberRole(ctx, current.workspaceId, userId))) throw notFound('Member');
  if (granted) return repo.grantAccess(ctx.db, current.id, userId);
  if (!(await repo.revokeAccess(ctx.db, current.id, userId))) throw notFound('Access grant');
}
