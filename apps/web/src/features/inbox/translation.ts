import type { WorkspaceDetail } from '@parley/contract/api-types';
import type { translationSchema } from '@parley/contract/inbox';
import { LANGUAGES, type Language } from '@parley/contract/languages';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { type Data, get } from '../../api.ts';

/** `POST .../messages/{messageId}/translate`'s answer (docs/languages.md "Translation"). */
export type Translation = z.output<typeof translationSchema>;

/**
 * Whether the server has a model that translates: any `aiProvider` but the built-in offline one
 * (docs/decisions/0047-translation.md); undefined while the workspace is loading. The same query
 * as the assistants' model note, so one read serves both.
 */
export function useCanTranslate(ws: string): boolean | undefined {
  const workspace = useQuery({
    queryKey: ['workspace', ws],
    queryFn: () => get<Data<WorkspaceDetail>>(`/api/workspaces/${ws}`),
    enabled: ws !== '',
    staleTime: 60_000,
  });
  const provider = workspace.data?.data.aiProvider;
  return provider === undefined ? undefined : provider !== 'offline';
}

/** A tag the server translates into (the supported languages), else null. */
export const translatable = (tag: string | null | undefined): Language | null =>
  (LANGUAGES as readonly string[]).includes(tag ?? '') ? (tag as Language) : null;
