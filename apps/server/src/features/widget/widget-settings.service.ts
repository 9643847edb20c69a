import type { AppContext } from '../../context.ts';
import type { Actor } from '../../http/actor.ts';
import { badRequest } from '../../http/errors.ts';
import { now } from '../../lib/clock.ts';
import type { AssistantRow } from '../assistants/assistants.repo.ts';
import { toAssistant } from '../assistants/assistants.schemas.ts';
import { assertCanManage } from '../assistants/assistants.service.ts';
import { recordEvent } from '../events/events.service.ts';
import * as repo from './widget-config.repo.ts';
import type { WidgetConfigPatchInput } from './widget-config.schemas.ts';

/**
 * The widget configuration as owners and admins manage it (decisions §8). A separate module from
 * widget-config.service.ts, which the assistants feature imports: this one imports assistants.
 */

/** The configuration's defaults (the schema's), for an assistant never configured. */
const DEFAULTS = {
  isEnabled: false,
  primaryColor: '#4f46e5',
  position: 'bottom-right' as const,
  welcomeMessage: null,
  allowedDomains: [] as string[],
  leadFormEnabled: false,
  leadFormFields: [] as string[],
  leadFormRequiredFields: [] as string[],
  sessionTimeoutMinutes: 30,
  createdAt: null,
  updatedAt: null,
};

type ConfigRow = NonNullable<Awaited<ReturnType<typeof repo.findWidgetConfig>>>;

/** decisions §8: `<script src="{base}/widget.js" data-assistant-id="..." async></script>`. */
export const embedSnippet = (baseUrl: string, assistantId: string) =>
  `<script src="${baseUrl}/widget.js" data-assistant-id="${assistantId}" async></script>`;

export function toWidgetSettings(assistantId: string, row: ConfigRow | undefined, baseUrl: string) {
  const c = row ?? DEFAULTS;
  return {
    assistantId,
    isEnabled: c.isEnabled,
    primaryColor: c.primaryColor,
    position: c.position,
    welcomeMessage: c.welcomeMessage,
    allowedDomains: c.allowedDomains,
    leadFormEnabled: c.leadFormEnabled,
    leadFormFields: c.leadFormFields,
    leadFormRequiredFields: c.leadFormRequiredFields,
    sessionTimeoutMinutes: c.sessionTimeoutMinutes,
    embedSnippet: embedSnippet(baseUrl, assistantId),
    createdAt: c.createdAt?.toISOString() ?? null,
    updatedAt: c.updatedAt?.toISOString() ?? null,
  };
}

/** `GET /api/assistants/{id}/widget` and the checks of PATCH: owners and admins (decisions §8). */
export async function loadWidgetSettings(ctx: AppContext, actor: Actor, assistantId: string) {
  const { row } = await assertCanManage(ctx, actor, assistantId);
  return { assistant: row, config: await repo.findWidgetConfig(ctx.db, row.workspaceId, row.id) };
}

/**
 * Applies a validated patch. Required lead fields must be among the form's fields (after the
 * patch); the change is an assistant configuration change, so `assistant.updated` is recorded.
 */
export async function updateWidgetSettings(
  ctx: AppContext,
  assistant: AssistantRow,
  current: ConfigRow | undefined,
  patch: WidgetConfigPatchInput,
  baseUrl: string,
) {
  const fields = patch.leadFormFields ?? current?.leadFormFields ?? [];
  const required = patch.leadFormRequiredFields ?? current?.leadFormRequiredFields ?? [];
  const stray = required.filter((f) => !fields.includes(f));
  if (stray.length > 0) {
    throw badRequest('Validation failed', {
      leadFormRequiredFields: `Not among leadFormFields: ${stray.join(', ')}`,
    });
  }
  return ctx.db.transaction(async (tx) => {
    const at = now();
    const row = await repo.upsertWidgetConfig(tx, assistant.workspaceId, assistant.id, patch, at);
    const settings = toWidgetSettings(assistant.id, row, baseUrl);
    await recordEvent(tx, {
      workspaceId: assistant.workspaceId,
      type: 'assistant.updated',
      data: { ...toAssistant(assistant), widget: settings },
    });
    return settings;
  });
}
