import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, type Data } from '../../api.ts';
import { ErrorText } from '../../shell/ui.tsx';
import { Field } from '../steering/Field.tsx';
import { type FieldErrors, fieldErrorsOf, formError } from '../steering/types.ts';
import { type InboxSettings, inboxSettingsPath } from './settings.ts';

const FIELDS = ['csat.enabled', 'csat.question'] as const;

/**
 * The satisfaction survey's settings (docs/csat.md "Settings"), part of the inbox settings: every
 * member reads them; owners and admins turn it on or off and word the question (1-200 characters).
 */
export function CsatSettings({
  ws,
  csat,
  canEdit,
}: {
  ws: string;
  csat: InboxSettings['csat'];
  canEdit: boolean;
}) {
  const { t } = useTranslation('inbox');
  if (!canEdit) {
    return (
      <section className="card stack csat-settings" aria-labelledby="csat-settings-h">
        <h2 id="csat-settings-h">{t('csatSettings.title')}</h2>
        <p>
          {t('csatSettings.asking')}{' '}
          <strong>{csat.enabled ? t('csatSettings.on') : t('csatSettings.off')}</strong>
        </p>
        <p>
          {t('csatSettings.question')} <strong>{csat.question}</strong>
        </p>
        {/* When the customer is asked, in one sentence (docs/csat.md "When the customer is asked"). */}
        <p className="muted">{t('csatSettings.when')}</p>
      </section>
    );
  }
  return <CsatForm ws={ws} csat={csat} />;
}

function CsatForm({ ws, csat }: { ws: string; csat: InboxSettings['csat'] }) {
  const { t } = useTranslation('inbox');
  const qc = useQueryClient();
  const [enabled, setEnabled] = useState(csat.enabled);
  const [question, setQuestion] = useState(csat.question);
  const [errors, setErrors] = useState<FieldErrors>({});
  const save = useMutation({
    mutationFn: (body: { enabled: boolean; question: string }) =>
      api<Data<InboxSettings>>('PUT', inboxSettingsPath(ws), { csat: body }),
    onSuccess: (res) => qc.setQueryData(['inbox-settings', ws], res),
    onError: (err) => setErrors(fieldErrorsOf(err, FIELDS)),
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setErrors({});
    save.reset();
    if (!question.trim()) {
      setErrors({ 'csat.question': t('csatSettings.questionMissing') });
      return;
    }
    save.mutate({ enabled, question: question.trim() });
  };
  return (
    <form
      className="card stack csat-settings"
      aria-labelledby="csat-settings-h"
      noValidate
      onSubmit={onSubmit}
    >
      <h2 id="csat-settings-h">{t('csatSettings.title')}</h2>
      <div className="st-field">
        <label className="check">
          <input
            type="checkbox"
            role="switch"
            checked={enabled}
            aria-checked={enabled}
            aria-describedby="csat-when"
            onChange={(e) => setEnabled(e.target.checked)}
          />
          {t('csatSettings.enable')}
        </label>
        <p id="csat-when" className="muted st-hint">
          {t('csatSettings.when')}
        </p>
        {errors['csat.enabled'] && <p className="error st-hint">{errors['csat.enabled']}</p>}
      </div>
      <Field
        form="csat"
        name="csat.question"
        label={t('csatSettings.questionLabel')}
        errors={errors}
        hint={t('csatSettings.questionHint')}
      >
        {(f) => (
          <input
            {...f}
            type="text"
            maxLength={200}
            value={question}
            onChange={(e) => {
              setQuestion(e.target.value);
              setErrors((x) => ({ ...x, 'csat.question': '' }));
            }}
          />
        )}
      </Field>
      <ErrorText error={save.error && formError(save.error, errors)} />
      <div className="row">
        <button type="submit" className="primary" disabled={save.isPending}>
          {t('csatSettings.save')}
        </button>
        <p role="status" className="muted">
          {save.isSuccess ? t('csatSettings.saved') : ''}
        </p>
      </div>
    </form>
  );
}
