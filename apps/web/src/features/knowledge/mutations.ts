import type { CreateSourceInput } from '@parley/contract/api-types';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type Data, post } from '../../api.ts';
import type { SourceDetail } from './types.ts';

/** POST a JSON source (docs/knowledge.md "Source types"); the list re-reads on success. */
export function useAddSource(assistantId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateSourceInput) =>
      post<Data<SourceDetail>>(`/api/assistants/${assistantId}/sources`, body),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['sources', assistantId] }),
  });
}

/** `POST .../sources/{sid}/sync` → 202: the source is queued again and the list polls. */
export function useSyncSource(assistantId: string, sourceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => post<Data<SourceDetail>>(`/api/assistants/${assistantId}/sources/${sourceId}/sync`),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['sources', assistantId] }),
  });
}

/** `DELETE .../sources/{sid}` → 204: the source and its passages are gone at once. */
export function useDeleteSource(assistantId: string, sourceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api<void>('DELETE', `/api/assistants/${assistantId}/sources/${sourceId}`),
    onSuccess: async () => {
      // Search results cached before the deletion would still show its passages.
      qc.removeQueries({ queryKey: ['search', assistantId] });
      await qc.invalidateQueries({ queryKey: ['sources', assistantId] });
    },
  });
}
