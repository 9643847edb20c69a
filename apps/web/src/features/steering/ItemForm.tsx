import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Data, patch, post } from '../../api.ts';
import { ErrorText } from '../../shell/ui.tsx';
import { type ItemKind, itemsKey } from './items.ts';
import { type FieldErrors, fieldErrorsOf, formError, steeringPath } from './types.ts';

/**
 * A rule's, answer's or test's form state: the draft, the API's messages at its fields (a change
 * to a field clears that field's message), and the save, which creates an item or changes
 * `editing`, reads the list again and then calls `onSaved`.
 */
export function useItemForm<T extends { id: string }, D extends object, B>(opts: {
  kind: ItemKind;
  assistantId: string;
  editing: T | null;
  toDraft(item: T | null): D;
  /** The body's fields that carry their own messages; the rest go above the buttons. */
  fields: readonly string[];
  onSaved(saved: Data<T>): void;
}) {
  const { kind, assistantId, editing, toDraft } = opts;
  const qc = useQueryClient();
  const [draft, setDraft] = useState<D>(() => toDraft(editing));
  const [errors, setErrors] = useState<FieldErrors>({});
  /** Sets `key` of the draft; `field` names its message when that is not `key`. */
  const set = <K extends keyof D>(key: K, value: D[K], field: string = String(key)) => {
    setDraft((d) => ({ ...d, [key]: value }));
    setErrors((e) => ({ ...e, [field]: '' }));
  };
  const path = steeringPath(assistantId, kind);
  const save = useMutation({
    mutationFn: (body: B) =>
      editing ? patch<Data<T>>(`${path}/${editing.id}`, body) : post<Data<T>>(path, body),
    onSuccess: async (res) => {
      await qc.invalidateQueries({ queryKey: itemsKey(kind, assistantId) });
      setDraft(toDraft(null));
      opts.onSaved(res);
    },
    onError: (err) => setErrors(fieldErrorsOf(err, opts.fields)),
  });
  const submit = (body: B) => {
    setErrors({});
    save.mutate(body);
  };
  return { draft, set, errors, save, submit };
}

/**
 * The form around an item's fields: its title as name and heading, the error of the save, and
 * the submit button ("Add rule", "Save rule"), with Cancel while editing.
 */
export function ItemForm(props: {
  title: string;
  editing: boolean;
  /** The submit button's words: "Add rule", "Save rule", a suggestion's "Accept as curated answer". */
  submitLabel: string;
  form: { errors: FieldErrors; save: { error: unknown; isPending: boolean } };
  onSubmit(): void;
  onCancel(): void;
  children: ReactNode;
}) {
  const { title, editing, form } = props;
  const { t } = useTranslation('steering');
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        props.onSubmit();
      }}
      className="card stack st-form"
      aria-label={title}
      noValidate
    >
      <h2>{title}</h2>
      {props.children}
      <ErrorText error={form.save.error && formError(form.save.error, form.errors)} />
      <div className="row">
        <button type="submit" className="primary" disabled={form.save.isPending}>
          {props.submitLabel}
        </button>
        {editing && (
          <button type="button" onClick={props.onCancel}>
            {t('form.cancel')}
          </button>
        )}
      </div>
    </form>
  );
}
