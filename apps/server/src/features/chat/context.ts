import type { AppContext } from '../../context.ts';
import type { AssistantRow } from '../assistants/assistants.repo.ts';
import {
  type KnownKnowledge,
  realtimeSourcesOf,
  retrieveForAssistant,
} from '../knowledge/knowledge.service.ts';
import type { RetrievedChunk } from '../knowledge/retrieval/retrieval.ts';
import type { SourceRow } from '../knowledge/sources/sources.repo.ts';

/** What a reply is grounded on (docs/chat.md "The prompt"): the best passages and the realtime sources. */
export type ReplyContext = { chunks: RetrievedChunk[]; realtime: SourceRow[] };

export const PASSAGES = 5;

/**
 * Reads a reply's context. beginTurn starts it beside the turn's statement (its credit and its
 * message; the context needs only the assistant and the question), so the model is called after
 * the slower of the two instead of both in turn. `known`: what loading the assistant already read
 * of its knowledge (the scope; whether it has realtime sources), not read again. Reads only:
 * nothing is written if the turn is then refused.
 */
export function readContext(
  ctx: AppContext,
  assistant: AssistantRow,
  question: string,
  known?: KnownKnowledge,
): Promise<ReplyContext> {
  const context = Promise.all([
    retrieveForAssistant(ctx, assistant, question, PASSAGES, known?.scope),
    realtimeSourcesOf(ctx, assistant, known),
  ]).then(([chunks, realtime]) => ({ chunks, realtime }));
  // Awaited by the reply; a refused turn never awaits it, and its failure must not go unhandled.
  context.catch(() => undefined);
  return context;
}
