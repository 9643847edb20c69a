import { useMutation, useQueryClient } from '@tanstack/react-query';
import { del } from '../../api.ts';
import { steeringPath } from './types.ts';

/** The lists of an assistant's steering, as the API's paths name them. */
export type ItemKind = 'guidance' | 'answers' | 'tests';

const QUERY_NAMES: Record<ItemKind, string> = {
  guidance: 'guidance',
  answers: 'curated-answers',
  tests: 'assistant-tests',
};

/** What an item's Edit and a successful Delete do to the form beside its list. */
export type ItemHandlers = { onEdit(): void; onDeleted(): void };

/** The query key of every page of an assistant's list: what a change to one item invalidates. */
export const itemsKey = (kind: ItemKind, assistantId: string) => [QUERY_NAMES[kind], assistantId];

/** Deletes one rule, answer or test, then reads its list again. */
export function useDeleteItem(kind: ItemKind, assistantId: string, itemId: string, onDeleted: () => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => del(`${steeringPath(assistantId, kind)}/${itemId}`),
    onSuccess: () => {
      onDeleted();
      return qc.invalidateQueries({ queryKey: itemsKey(kind, assistantId) });
    },
  });
}
