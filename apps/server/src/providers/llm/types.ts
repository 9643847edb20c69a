import type { LanguageModel } from 'ai';

/** A piece of knowledge put in front of the model, numbered for citation markers like [1]. */
export type Passage = {
  index: number;
  chunkId: string;
  sourceId: string;
  title: string;
  url: string | null;
  content: string;
  /** How much the passage is about the question, in [0, 1] (retrieval.ts `relevance`), when known. */
  relevance?: number;
};

/**
 * What a model may read besides the prompt. Remote models see the passages in the system prompt;
 * the offline responder reads them here, so it needs no parsing of its own prompt.
 */
export type ReplyKnowledge = { passages: Passage[] };

export type ChatModel = LanguageModel;

/** Tool names the engine offers (features/chat/tools.ts); the offline responder calls them by name. */
export const TOOL_NAMES = {
  search: 'search_knowledge',
  handoff: 'request_human',
  ticket: 'create_ticket',
  spreadsheet: 'lookup_spreadsheet',
  store: 'lookup_store',
} as const;
