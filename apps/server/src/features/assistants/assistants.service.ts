import type { AppContext } from '../../context.ts';
import type { Actor, Tenant } from '../../http/actor.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { now } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { recordEvent } from '../events/events.service.ts';
import { scheduleRun } from '../steering/test-runs.schedule.ts';
import { setWidgetEnabled } from '../widget/widget-config.service.ts';
import { memberRole } from '../workspaces/tenant.service.ts';
import * as repo from './assistants.repo.ts';
import { restrictionFor } from './assistants.resource.ts';
import { toAssistant } from './assistants.serialize.ts';

export type AssistantInput = {
  name: string;
  instructions?: string;
  visibility?: 'private' | 'workspace' | 'public';
  temperature?: number;
  maxTokens?: number;
  welcomeMessage?: string | null;
  minConfidence?: number;
};

/** The assistants of the tenant's workspace the caller may see (assistants.resource.ts). */
export async function listAssistants(
  ctx: AppContext,
  actor: Actor,
  tenant: Tenant,
  page: { limit: number; offset: number },
) {
  return repo.listAssistants(ctx.db, tenant.workspaceId, restrictionFor(actor, tenant), page);
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
      minConfidence: input.minConfidence ?? 0,
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

/**
 * `widgetEnabled` is Form B's name for the widget configuration's `isEnabled`
 * (docs/api.md "Form A and Form B").
 */
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
    // New instructions start a run of its tests (docs/steering.md "Test runs").
    if (fields.instructions !== undefined && fields.instructions !== current.instructions)
      await scheduleRun(tx, ctx, { workspaceId: row.workspaceId, assistantId: row.id }, 'instructions');
    await recordEvent(tx, {
      workspaceId: row.workspaceId,
      type: 'assistant.updated',
      data: toAssistant(row),
    });
    return row;
  });
}

/** Removes the assistant; its conversations, widget sessions and knowledge go with it (FK cascades). */
export async function deleteAssistant(ctx: AppContext, current: repo.AssistantRow) {
  if (!(await repo.deleteAssistant(ctx.db, current.workspaceId, current.id))) throw notFound('Assistant');
}

/** Grants for private assistants (docs/assistants.md). The grantee must belong to the workspace. */
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
