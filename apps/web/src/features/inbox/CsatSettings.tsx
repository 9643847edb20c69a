import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, type Data } from '../../api.ts';
import { ErrorText } from '../../shell/ui.tsx';
import { Field } from '../steering/Field.tsx';
import { type FieldErrors, fieldErrorsOf, formError } from '../steering/types.ts';
import { type InboxSettings, inboxSettingsPath } from './settings.ts';

const FIELDS = ['csat.enabled', 'csat.question'] as const;

/** When the customer is asked, in one sentence (docs/csat.md "When the customer is asked"). */
const WHEN =
  'When on, a customer whose conversation a person replied to is asked to rate it, 1 to 5, once it closes: in the website widget, or by text message. Conversations only the AI answered are never asked.';

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
  if (!canEdit) {
    return (
      <section className="card stack csat-settings" aria-labelledby="csat-settings-h">
        <h2 id="csat-settings-h">Satisfaction survey</h2>
        <p>
          Asking for a rating: <strong>{csat.enabled ? 'on' : 'off'}</strong>
        </p>
        <p>
          Question: <strong>{csat.question}</strong>
        </p>
        <p className="muted">{WHEN}</p>
      </section>
    );
  }
  return <CsatForm ws={ws} csat={csat} />;
}

function CsatForm({ ws, csat }: { ws: string; csat: InboxSettings['csat'] }) {
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
      setErrors({ 'csat.question': 'Enter the question, up to 200 characters.' });
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
      <h2 id="csat-settings-h">Satisfaction survey</h2>
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
          Ask customers to rate the help they received
        </label>
        <p id="csat-when" className="muted st-hint">
          {WHEN}
        </p>
        {errors['csat.enabled'] && <p className="error st-hint">{errors['csat.enabled']}</p>}
      </div>
      <Field
        form="csat"
        name="csat.question"
        label="Question"
        errors={errors}
        hint="Up to 200 characters; the customer answers on a scale from 1 (very poor) to 5 (excellent)."
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
          Save survey
        </button>
        <p role="status" className="muted">
          {save.isSuccess ? 'Survey saved.' : ''}
        </p>
      </div>
    </form>
  );
}
