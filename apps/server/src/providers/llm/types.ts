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
  /** The passage's language, detected at ingestion (docs/languages.md "Retrieval"); null when unclear. */
  language?: string | null;
};

/**
 * What a model may read besides the prompt. Remote models see the passages in the system prompt;
 * the offline responder reads them here, so it needs no parsing of its own prompt.
 */
export type ReplyKnowledge = {
  passages: Passage[];
  /** The conversation's language (docs/languages.md "Answers"): the offline responder's own lines are in it. */
  language?: string | null;
};

export type ChatModel = LanguageModel;
