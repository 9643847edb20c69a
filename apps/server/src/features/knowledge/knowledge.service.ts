import type { AppContext } from '../../context.ts';
import { connectedProjectIds } from './projects.repo.ts';
import { type RetrievedChunk, retrieve } from './retrieval.ts';
import { listRealtimeSources, type SourceRow } from './sources.repo.ts';

/**
 * The namespaces an assistant answers from: its own, plus every connected project
 * (decisions §1 Knowledge). The chat engine and the search endpoint both call this.
 */
export async function namespacesOf(ctx: AppContext, assistant: { id: string }): Promise<string[]> {
  return [assistant.id, ...(await connectedProjectIds(ctx.db, assistant.id))];
}

export async function retrieveForAssistant(
  ctx: AppContext,
  assistant: { id: string },
  query: string,
  k = 5,
): Promise<RetrievedChunk[]> {
  return retrieve(ctx, await namespacesOf(ctx, assistant), query, k);
}

/** The assistant's realtime sources, which the chat reads live through tools (decisions §6). */
export function realtimeSourcesOf(ctx: AppContext, assistant: { id: string }): Promise<SourceRow[]> {
  return listRealtimeSources(ctx.db, assistant.id);
}
