import { defineResource, resourceNotFound } from '../../http/resources.ts';
import { findSuggestion, type SuggestionRow } from './suggestions.repo.ts';

declare module '../../http/resources.ts' {
  interface Resources {
    /** A suggestion of the assistant loaded before it (`:suggestionId`). */
    suggestion: SuggestionRow;
  }
}

export const suggestionResource = defineResource({
  kind: 'suggestion',
  param: 'suggestionId',
  notFound: resourceNotFound('Suggestion'),
  load: (ctx, { tenant, loaded }, id) =>
    findSuggestion(
      ctx.db,
      { workspaceId: tenant.workspaceId, assistantId: loaded.assistant?.row.id ?? '' },
      id,
    ),
});
