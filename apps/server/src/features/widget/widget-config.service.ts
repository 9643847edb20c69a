import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import * as repo from './widget-config.repo.ts';

/** Form B's `widgetEnabled` is the widget configuration's `isEnabled` (decisions §1). */
export const widgetEnabledMap = (ctx: AppContext, assistantIds: string[]) =>
  repo.widgetEnabledMap(ctx.db, assistantIds);

export const setWidgetEnabled = (
  tx: Executor,
  workspaceId: string,
  assistantId: string,
  enabled: boolean,
  at: Date,
) => repo.setWidgetEnabled(tx, workspaceId, assistantId, enabled, at);
