import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, type Data, patch, post } from '../../api.ts';
import { i18n } from '../../i18n/index.ts';
import { ErrorText } from '../../shell/ui.tsx';
import { Field, TextAreaField } from '../steering/Field.tsx';
import { type FieldErrors, fieldErrorsOf, formError } from '../steering/types.ts';
import { type Canned, cannedPath, VARIABLE_WORDS } from './types.ts';

const FIELDS = ['shortcut', 'title', 'content'] as const;
type Draft = Record<(typeof FIELDS)[number], string>;

/**
 * The API's refusal at its field: a taken shortcut (409) said at the shortcut, a 400's details
 * at the fields they name (an unknown variable at the content).
 */
function errorsOf(error: unknown): FieldErrors {
  if (error instanceof ApiError && error.status === 409) {
    return {
      shortcut: i18n.t('canned:form.taken'),
    };
  }
  return fieldErrorsOf(error, FIELDS);
}

/** Add a canned response, or change `editing` (owners and admins: docs/canned-responses.md). */
export function CannedForm(props: { ws: string; editing: Canned | null; onDone(): void }) {
  const { ws, editing } = props;
  const { t } = useTranslation('canned');
  const qc = useQueryClient();
  const [draft, setDraft] = useState<Draft>({
    shortcut: editing?.shortcut ?? '',
    title: editing?.title ?? '',
    content: editing?.content ?? '',
  });
  const [errors, setErrors] = useState<FieldErrors>({});
  const set = (key: keyof Draft, value: string) => {
    setDraft((d) => ({ ...d, [key]: value }));
    setErrors((e) => ({ ...e, [key]: '' }));
  };
  const save = useMutation({
    mutationFn: (body: Draft) =>
      editing
        ? patch<Data<Canned>>(`${cannedPath(ws)}/${editing.id}`, body)
        : post<Data<Canned>>(cannedPath(ws), body),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ['canned', ws] });
      setDraft({ shortcut: '', title: '', content: '' });
      props.onDone();
    },
    onError: (err) => setErrors(errorsOf(err)),
  });
  const title = editing ? t('form.editTitle', { shortcut: editing.shortcut }) : t('form.addTitle');
  // A 409 is said at the shortcut; above the buttons only what no field carries.
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
          shortcut: draft.shortcut.trim(),
          title: draft.title.trim(),
          content: draft.content.trim(),
        });
      }}
    >
      <h2>{title}</h2>
      <Field
        form="canned"
        name="shortcut"
        label={t('form.shortcut')}
        errors={errors}
        hint={t('form.shortcutHint')}
      >
        {(f) => (
          <input
            {...f}
            value={draft.shortcut}
            maxLength={50}
            autoComplete="off"
            spellCheck={false}
            onChange={(e) => set('shortcut', e.target.value)}
          />
        )}
      </Field>
      <Field form="canned" name="title" label={t('form.title')} errors={errors}>
        {(f) => (
          <input
            {...f}
            value={draft.title}
            maxLength={100}
            autoComplete="off"
            onChange={(e) => set('title', e.target.value)}
          />
        )}
      </Field>
      <TextAreaField
        form="canned"
        name="content"
        label={t('form.content')}
        errors={errors}
        rows={5}
        maxLength={4000}
        value={draft.content}
        onChange={(v) => set('content', v)}
        hint={t('form.contentHint', { variables: VARIABLE_WORDS })}
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
