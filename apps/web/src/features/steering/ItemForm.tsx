import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Data } from '../../api.ts';
import { ErrorText } from '../../shell/ui.tsx';
import { useSaveForm } from '../../shell/useSaveForm.ts';
import { type ItemKind, itemsKey } from './items.ts';
import { type FieldErrors, formError, steeringPath } from './types.ts';

/**
 * A rule's, answer's or test's form state (shell/useSaveForm.ts): saved to the assistant's `kind`,
 * its list read again.
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
  const { kind, assistantId } = opts;
  return useSaveForm<T, D, B>({
    ...opts,
    path: steeringPath(assistantId, kind),
    invalidate: () => [itemsKey(kind, assistantId)],
  });
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
