import type { TOOL_NAMES } from '@parley/contract/tools';
import type { WidgetStringKey } from '@parley/contract/widget-strings/keys';
import { ApiError } from './api.ts';
import { type Say, waitText } from './strings.ts';

/**
 * What the visitor reads when something fails (docs/widget-script.md: clear, friendly messages for 429,
 * 403, exhausted credits and lost network), in the widget's language. Never the server's raw text:
 * it is written for developers, and the visitor cannot act on it.
 */
export function friendly(err: unknown, t: Say, language?: string): string {
  if (!(err instanceof ApiError)) return t('error');
  if (err.status === 0 || !navigator.onLine) return t('offline');
  if (err.code === 'credits_limit_exceeded') return t('noCredits');
  if (err.status === 429 && err.details.quota !== undefined) return t('dailyQuota');
  if (err.status === 429) return t('tooFast', { wait: waitText(err.retryAfter || 10, language) });
  if (err.status === 403) return t('unavailable');
  if (err.code === 'not_found:widget') return t('closed');
  if (err.status === 404) return t('chatGone');
  if (err.status === 413 || err.code === 'bad_request:chat') return t('messageRefused');
  return t('serverError');
}

/**
 * What the typing indicator says while a tool of the chat engine runs (the names are the server's
 * TOOL_NAMES, apps/server/src/providers/llm/types.ts); never the code name.
 */
type ToolName = (typeof TOOL_NAMES)[keyof typeof TOOL_NAMES];
const TOOL_STEPS: Record<ToolName, WidgetStringKey> = {
  search_knowledge: 'toolSearch',
  request_human: 'toolHuman',
  create_ticket: 'toolTicket',
  lookup_spreadsheet: 'toolRecords',
  lookup_store: 'toolStore',
};

export const toolStep = (name: string, t: Say) => t(TOOL_STEPS[name as ToolName] ?? 'toolOther');
