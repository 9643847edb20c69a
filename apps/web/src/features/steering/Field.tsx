import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldErrors } from './types.ts';

/** What ties an input to its label, hint and error (Field gives it to its input). */
export type FieldProps = { id: string; 'aria-describedby'?: string; 'aria-invalid'?: boolean };

/**
 * A label, its input, a hint and the API's message for the field, tied together for screen
 * readers (as the SMS form's fields, features/sms/Field.tsx).
 */
export function Field(props: {
  form: string;
  name: string;
  label: string;
  errors: FieldErrors;
  hint?: string;
  children: (field: FieldProps) => ReactNode;
}) {
  const { form, name, label, errors, hint } = props;
  const error = errors[name];
  const id = `${form}-${name.replace(/\W/g, '-')}`;
  const described = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;
  return (
    <div className="st-field">
      <label htmlFor={id}>{label}</label>
      {props.children({ id, 'aria-describedby': described, 'aria-invalid': error ? true : undefined })}
      {hint && (
        <p id={`${id}-hint`} className="muted st-hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="error st-hint">
          {error}
        </p>
      )}
    </div>
  );
}

/** A rule's trigger phrases or an answer's variants, as a list of small badges. */
export function PhraseList({ phrases, label }: { phrases: string[]; label: string }) {
  if (phrases.length === 0) return null;
  return (
    <ul className="st-phrases" aria-label={label}>
      {phrases.map((p) => (
        <li key={p}>{p}</li>
      ))}
    </ul>
  );
}

/** A Field whose input is a textarea, for longer text or one phrase per line. */
export function TextAreaField(
  props: Omit<Parameters<typeof Field>[0], 'children'> & {
    rows: number;
    value: string;
    maxLength?: number;
    onChange(value: string): void;
  },
) {
  const { rows, value, maxLength, onChange, ...field } = props;
  return (
    <Field {...field}>
      {(f) => (
        <textarea
          {...f}
          rows={rows}
          value={value}
          maxLength={maxLength}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </Field>
  );
}

/** A curated answer's question and answer fields (the answers form, and a suggestion's edit before accepting). */
export function QuestionAnswerFields(props: {
  form: string;
  errors: FieldErrors;
  draft: { question: string; answer: string };
  set(key: 'question' | 'answer', value: string): void;
  rows: number;
}) {
  const { form, errors, draft, set } = props;
  const { t } = useTranslation('steering');
  return (
    <>
      <Field
        form={form}
        name="question"
        label={t('form.question')}
        errors={errors}
        hint={t('form.questionHint')}
      >
        {(f) => (
          <input
            {...f}
            value={draft.question}
            maxLength={500}
            onChange={(e) => set('question', e.target.value)}
          />
        )}
      </Field>
      <TextAreaField
        form={form}
        name="answer"
        label={t('form.answer')}
        errors={errors}
        hint={t('form.answerHint')}
        rows={props.rows}
        value={draft.answer}
        maxLength={4000}
        onChange={(value) => set('answer', value)}
      />
    </>
  );
}
