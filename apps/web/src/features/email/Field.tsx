import type { ReactNode } from 'react';
import type { Draft, FieldErrors } from './types.ts';

/** What ties an input to its label, hint and error (Field gives it to its input). */
export type FieldProps = { id: string; 'aria-describedby'?: string; 'aria-invalid'?: boolean };

/** A label, its input, a hint and the field's error in words, tied together for screen readers. */
export function Field(props: {
  name: keyof Draft;
  label: string;
  errors: FieldErrors;
  hint?: string;
  badge?: string;
  children: (field: FieldProps) => ReactNode;
}) {
  const { name, label, errors, hint, badge } = props;
  const error = errors[name];
  const id = `email-${name}`;
  const described = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;
  return (
    <div className="email-field">
      <div className="row email-label">
        <label htmlFor={id}>{label}</label>
        {badge && <span className="badge ready">{badge}</span>}
      </div>
      {props.children({ id, 'aria-describedby': described, 'aria-invalid': error ? true : undefined })}
      {hint && (
        <p id={`${id}-hint`} className="muted email-hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="error email-hint">
          {error}
        </p>
      )}
    </div>
  );
}
