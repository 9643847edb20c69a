import type { AppContext } from '../../context.ts';
import { namespacesWithVersions } from './projects.repo.ts';
import { type RetrievedChunk, retrieve } from './retrieval.ts';
import type { Versions } from './vector-index.ts';

export type Scope = { namespaces: string[]; versions: Versions };

import { listRealtimeSources, type SourceRow } from './sources.repo.ts';

/**
 * The namespaces an assistant answers from: its own, plus every connected project
 * (decisions §1 Knowledge), with their versions. The chat engine and the search endpoint both
 * call this.
 */
export async function scopeOf(ctx: AppContext, assistant: { id: string }): Promise<Scope> {
  const rows = await namespacesWithVersions(ctx.db, assistant.id);
  return {
    namespaces: rows.map((r) => r.namespace),
    versions: new Map(rows.map((r) => [r.namespace, r.version])),
  };
}

export async function retrieveForAssistant(
  ctx: AppContext,
  assistant: { id: string },
  query: string,
  k = 5,
): Promise<RetrievedChunk[]> {
  const scope = await scopeOf(ctx, assistant);
  return retrieve(ctx, scope.namespaces, query, k, scope.versions);
}

/** The assistant's realtime sources, which the chat reads live through tools (decisions §6). */
export function realtimeSourcesOf(ctx: AppContext, assistant: { id: string }): Promise<SourceRow[]> {
  return listRealtimeSources(ctx.db, assistant.id);
}
