import type { AppContext } from '../../context.ts';
import { namespacesWithVersions } from './projects/projects.repo.ts';
import { type RetrievedChunk, retrieve } from './retrieval/retrieval.ts';
import type { Versions } from './retrieval/vector-index.ts';
import { listRealtimeSources, type SourceRow } from './sources/sources.repo.ts';

export type Scope = { namespaces: string[]; versions: Versions };

/**
 * What the query that loads an assistant for a user already tells about its knowledge
 * (assistants.repo.ts): the scope, and whether it has realtime sources. A chat that has it reads
 * neither again.
 */
export type KnownKnowledge = { scope: Scope; hasRealtime: boolean };

const scopeFrom = (rows: { namespace: string; version: number | string }[]): Scope => ({
  namespaces: rows.map((r) => r.namespace),
  versions: new Map(rows.map((r) => [r.namespace, Number(r.version)])),
});

/** The scope from `[[namespace, version], ...]` (projects/projects.repo.ts namespacesJson). */
export const scopeFromPairs = (pairs: [string, number | string][] | null): Scope =>
  scopeFrom((pairs ?? []).map(([namespace, version]) => ({ namespace, version })));

/**
 * The namespaces an assistant answers from: its own, plus every connected project
 * (docs/knowledge.md), with their versions. The chat engine and the search endpoint both
 * call this.
 */
export async function scopeOf(ctx: AppContext, assistant: { id: string }): Promise<Scope> {
  return scopeFrom(await namespacesWithVersions(ctx.db, assistant.id));
}

/** `scope`: the assistant's, when the caller already has it (KnownKnowledge). */
export async function retrieveForAssistant(
  ctx: AppContext,
  assistant: { id: string },
  query: string,
  k = 5,
  scope?: Scope,
): Promise<RetrievedChunk[]> {
  const s = scope ?? (await scopeOf(ctx, assistant));
  return retrieve(ctx, s.namespaces, query, k, s.versions);
}

/**
 * The assistant's realtime sources, which the chat reads live through tools
 * (docs/knowledge.md "Realtime sources"). `known`: none are read when the caller already knows there are
 * none.
 */
export async function realtimeSourcesOf(
  ctx: AppContext,
  assistant: { id: string },
  known?: KnownKnowledge,
): Promise<SourceRow[]> {
  if (known?.hasRealtime === false) return [];
  return listRealtimeSources(ctx.db, assistant.id);
}
