import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, type Data, patch, post } from '../../api.ts';
import { i18n } from '../../i18n/index.ts';
import { ErrorText } from '../../shell/ui.tsx';
import { Field, TextAreaField } from '../steering/Field.tsx';
import { type FieldErrors, fieldErrorsOf, formError } from '../steering/types.ts';
import { type Label, labelsPath } from './types.ts';

const FIELDS = ['name', 'color', 'description'] as const;
type Draft = Record<(typeof FIELDS)[number], string>;

const EMPTY: Draft = { name: '', color: '#2563eb', description: '' };

/** The API's refusal at its field: a taken name (409) at the name, a 400's details where they point. */
function errorsOf(error: unknown): FieldErrors {
  if (error instanceof ApiError && error.status === 409) {
    return {
      name: i18n.t('labels:form.taken'),
    };
  }
  return fieldErrorsOf(error, FIELDS);
}

/** Add a label, or change `editing` (owners and admins: docs/labels.md). */
export function LabelForm(props: { ws: string; editing: Label | null; onDone(): void }) {
  const { ws, editing } = props;
  const { t } = useTranslation('labels');
  const qc = useQueryClient();
  const [draft, setDraft] = useState<Draft>(
    editing ? { name: editing.name, color: editing.color, description: editing.description } : EMPTY,
  );
  const [errors, setErrors] = useState<FieldErrors>({});
  const set = (key: keyof Draft, value: string) => {
    setDraft((d) => ({ ...d, [key]: value }));
    setErrors((e) => ({ ...e, [key]: '' }));
  };
  const save = useMutation({
    mutationFn: (body: Draft) =>
      editing
        ? patch<Data<Label>>(`${labelsPath(ws)}/${editing.id}`, body)
        : post<Data<Label>>(labelsPath(ws), body),
    onSuccess: async () => {
      // Conversations and contacts carry the label's name and color: read them again too.
      await Promise.all([
        qc.invalidateQueries({ queryKey: ['labels', ws] }),
        editing && qc.invalidateQueries({ queryKey: ['inbox', ws] }),
        editing && qc.invalidateQueries({ queryKey: ['contacts', ws] }),
      ]);
      setDraft(EMPTY);
      props.onDone();
    },
    onError: (err) => setErrors(errorsOf(err)),
  });
  const title = editing ? t('form.editTitle', { name: editing.name }) : t('form.addTitle');
  const top = save.error instanceof ApiError && save.error.status === 409 ? null : save.error;
  return (
    <form
      className="card stack"
      aria-label={title}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        setErrors({});
        save.mutate({
          name: draft.name.trim(),
          color: draft.color,
          description: draft.description.trim(),
        });
      }}
    >
      <h2>{title}</h2>
      <Field form="label" name="name" label={t('form.name')} errors={errors} hint={t('form.nameHint')}>
        {(f) => (
          <input
            {...f}
            value={draft.name}
            maxLength={50}
            autoComplete="off"
            onChange={(e) => set('name', e.target.value)}
          />
        )}
      </Field>
      <Field form="label" name="color" label={t('form.color')} errors={errors}>
        {(f) => (
          <span className="label-color">
            <input {...f} type="color" value={draft.color} onChange={(e) => set('color', e.target.value)} />
            <code data-testid="label-hex">{draft.color}</code>
          </span>
        )}
      </Field>
      <TextAreaField
        form="label"
        name="description"
        label={t('form.description')}
        errors={errors}
        rows={2}
        maxLength={200}
        value={draft.description}
        onChange={(v) => set('description', v)}
        hint={t('form.descriptionHint')}
      />
      <ErrorText error={top && formError(top, errors)} />
      <div className="row">
        <button type="submit" className="primary" disabled={save.isPending}>
          {editing ? t('form.save') : t('form.add')}
        </button>
        {editing && (
          <button type="button" onClick={props.onDone}>
            {t('form.cancel')}
          </button>
        )}
      </div>
    </form>
  );
}
