import { useTranslation } from 'react-i18next';
import { i18n } from '../../i18n/index.ts';
import { ErrorText } from '../../shell/ui.tsx';
import { useSaveForm } from '../../shell/useSaveForm.ts';
import { Field, TextAreaField } from '../steering/Field.tsx';
import { formError } from '../steering/types.ts';
import { type Label, labelsPath } from './types.ts';

const FIELDS = ['name', 'color', 'description'] as const;
type Draft = Record<(typeof FIELDS)[number], string>;

const EMPTY: Draft = { name: '', color: '#2563eb', description: '' };

/** Add a label, or change `editing` (owners and admins: docs/labels.md). */
export function LabelForm(props: { ws: string; editing: Label | null; onDone(): void }) {
  const { ws, editing } = props;
  const { t } = useTranslation('labels');
  const { draft, set, errors, save, submit, top } = useSaveForm<Label, Draft, Draft>({
    path: labelsPath(ws),
    editing,
    toDraft: (l) => (l ? { name: l.name, color: l.color, description: l.description } : EMPTY),
    fields: FIELDS,
    conflict: { field: 'name', message: () => i18n.t('labels:form.taken') },
    // Conversations and contacts carry the label's name and color: read them again too.
    invalidate: (changed) => [
      ['labels', ws],
      ...(changed
        ? [
            ['inbox', ws],
            ['contacts', ws],
          ]
        : []),
    ],
    onSaved: () => props.onDone(),
  });
  const title = editing ? t('form.editTitle', { name: editing.name }) : t('form.addTitle');
  return (
    <form
      className="card stack"
      aria-label={title}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        submit({
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
