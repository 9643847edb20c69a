import type { WidgetConfigPatchInput } from '@parley/contract/widget-config';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { badRequest } from '../../http/errors.ts';
import { now } from '../../lib/clock.ts';
import type { AssistantRow } from '../assistants/assistants.repo.ts';
import { toAssistant } from '../assistants/assistants.serialize.ts';
import { recordEvent } from '../events/events.service.ts';
import * as repo from './widget-config.repo.ts';

/** The widget configuration as owners and admins manage it (docs/widget.md). */

/** Form B's `widgetEnabled` is the widget configuration's `isEnabled` (docs/api.md). */
export const widgetEnabledMap = (ctx: AppContext, assistantIds: string[]) =>
  repo.widgetEnabledMap(ctx.db, assistantIds);

export const setWidgetEnabled = (
  tx: Executor,
  workspaceId: string,
  assistantId: string,
  enabled: boolean,
  at: Date,
) => repo.setWidgetEnabled(tx, workspaceId, assistantId, enabled, at);

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
  strings: {},
  createdAt: null,
  updatedAt: null,
};

type ConfigRow = NonNullable<Awaited<ReturnType<typeof repo.findWidgetConfig>>>;

/** The embed snippet: `<script src="{base}/widget.js" data-assistant-id="..." async></script>`. */
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
    strings: c.strings as Record<string, Record<string, string>>,
    embedSnippet: embedSnippet(baseUrl, assistantId),
    createdAt: c.createdAt?.toISOString() ?? null,
    updatedAt: c.updatedAt?.toISOString() ?? null,
  };
}

/** An assistant's saved widget configuration (undefined: never configured, the defaults apply). */
export const findWidgetConfig = (ctx: AppContext, assistant: AssistantRow) =>
  repo.findWidgetConfig(ctx.db, assistant.workspaceId, assistant.id);

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
