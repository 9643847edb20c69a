import type { TOOL_NAMES } from '@parley/contract/tools';

/**
 * The chat engine's tools (apps/server/src/features/chat/tools.ts, names in
 * apps/server/src/providers/llm/types.ts) in words, as a tool step of a reply reads: done, and
 * while it runs. A tool added to the engine without words here fails the typecheck.
 */
type ToolName = (typeof TOOL_NAMES)[keyof typeof TOOL_NAMES];

export const TOOL_WORDS: Record<ToolName, { done: string; running: string }> = {
  search_knowledge: { done: 'Searched the knowledge', running: 'Searching the knowledge' },
  request_human: { done: 'Asked for a person', running: 'Asking for a person' },
  create_ticket: { done: 'Opened a ticket', running: 'Opening a ticket' },
  lookup_spreadsheet: { done: 'Looked up a spreadsheet', running: 'Looking up a spreadsheet' },
  lookup_store: { done: 'Looked up the store', running: 'Looking up the store' },
};

/** A tool step in words; a tool this dashboard does not know yet reads as a generic step. */
export function toolWords(name: string, running: boolean): string {
  const words = TOOL_WORDS[name as ToolName];
  if (words) return running ? words.running : words.done;
  return running ? 'Using a tool' : 'Used a tool';
}
