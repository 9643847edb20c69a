import type { TOOL_NAMES } from '@parley/contract/tools';
import { i18n } from '../i18n/index.ts';

/**
 * The chat engine's tools (apps/server/src/features/chat/tools.ts, names in
 * apps/server/src/providers/llm/types.ts) in words, as a tool step of a reply reads: done, and
 * while it runs, in the dashboard's language (the shell's catalog, apps/web/src/i18n/en/shell.ts).
 * A tool added to the engine without words here fails the typecheck.
 */
type ToolName = (typeof TOOL_NAMES)[keyof typeof TOOL_NAMES];

const TOOLS: Record<ToolName, true> = {
  search_knowledge: true,
  request_human: true,
  create_ticket: true,
  lookup_spreadsheet: true,
  lookup_store: true,
};

/** A tool step in words; a tool this dashboard does not know yet reads as a generic step. */
export function toolWords(name: string, running: boolean): string {
  const tool = name in TOOLS ? (name as ToolName) : 'other';
  return running ? i18n.t(`tools.${tool}.running`) : i18n.t(`tools.${tool}.done`);
}
