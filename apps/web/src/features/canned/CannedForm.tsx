import { useTranslation } from 'react-i18next';
import { i18n } from '../../i18n/index.ts';
import { ErrorText } from '../../shell/ui.tsx';
import { useSaveForm } from '../../shell/useSaveForm.ts';
import { Field, TextAreaField } from '../steering/Field.tsx';
import { formError } from '../steering/types.ts';
import { type Canned, cannedPath, VARIABLE_WORDS } from './types.ts';

const FIELDS = ['shortcut', 'title', 'content'] as const;
type Draft = Record<(typeof FIELDS)[number], string>;

/** Add a canned response, or change `editing` (owners and admins: docs/canned-responses.md). */
export function CannedForm(props: { ws: string; editing: Canned | null; onDone(): void }) {
  const { ws, editing } = props;
  const { t } = useTranslation('canned');
  const { draft, set, errors, save, submit, top } = useSaveForm<Canned, Draft, Draft>({
    path: cannedPath(ws),
    editing,
    toDraft: (c) => ({ shortcut: c?.shortcut ?? '', title: c?.title ?? '', content: c?.content ?? '' }),
    fields: FIELDS,
    conflict: { field: 'shortcut', message: () => i18n.t('canned:form.taken') },
    invalidate: () => [['canned', ws]],
    onSaved: () => props.onDone(),
  });
  const title = editing ? t('form.editTitle', { shortcut: editing.shortcut }) : t('form.addTitle');
  // A 409 is said at the shortcut; above the buttons only what no field carries.
  return (
    <form
      className="card stack"
      aria-label={title}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        submit({
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
