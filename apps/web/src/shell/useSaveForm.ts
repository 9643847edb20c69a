import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, type Data, patch, post } from '../api.ts';
import { type FieldErrors, fieldErrorsOf } from '../features/steering/types.ts';

/**
 * A form that creates an item in a collection or changes `editing`: the draft, the API's messages
 * at its fields (a change to a field clears that field's message), and the save, which posts to
 * `path` (or patches `path/{id}`), reads `invalidate`'s queries again, empties the draft and calls
 * `onSaved`. `conflict`: a 409 said at that field (a taken name), not above the buttons; `top` is
 * the error for above the buttons.
 */
export function useSaveForm<T extends { id: string }, D extends object, B>(opts: {
  path: string;
  editing: T | null;
  toDraft(item: T | null): D;
  /** The body's fields that carry their own messages; the rest go above the buttons. */
  fields: readonly string[];
  conflict?: { field: string; message(): string };
  /** The queries to read again once saved (given whether an item was changed, not created). */
  invalidate(changed: boolean): readonly QueryKey[];
  onSaved(saved: Data<T>): void;
}) {
  const { path, editing, toDraft, conflict } = opts;
  const qc = useQueryClient();
  const [draft, setDraft] = useState<D>(() => toDraft(editing));
  const [errors, setErrors] = useState<FieldErrors>({});
  /** Sets `key` of the draft; `field` names its message when that is not `key`. */
  const set = <K extends keyof D>(key: K, value: D[K], field: string = String(key)) => {
    setDraft((d) => ({ ...d, [key]: value }));
    setErrors((e) => ({ ...e, [field]: '' }));
  };
  const isConflict = (err: unknown) => Boolean(conflict) && err instanceof ApiError && err.status === 409;
  const save = useMutation({
    mutationFn: (body: B) =>
      editing ? patch<Data<T>>(`${path}/${editing.id}`, body) : post<Data<T>>(path, body),
    onSuccess: async (res) => {
      await Promise.all(
        opts.invalidate(Boolean(editing)).map((queryKey) => qc.invalidateQueries({ queryKey })),
      );
      setDraft(toDraft(null));
      opts.onSaved(res);
    },
    onError: (err) =>
      setErrors(
        conflict && isConflict(err)
          ? { [conflict.field]: conflict.message() }
          : fieldErrorsOf(err, opts.fields),
      ),
  });
  const submit = (body: B) => {
    setErrors({});
    save.mutate(body);
  };
  const top = isConflict(save.error) ? null : save.error;
  return { draft, set, errors, save, submit, top };
}
