import type { ReactNode } from 'react';
import { Check } from './ui.tsx';

/**
 * The parts a channel's settings form shares (email: features/email/EmailForm.tsx, SMS:
 * features/sms/SmsForm.tsx): a labelled field, the two contact options, and the save row.
 */

/** What ties an input to its label, hint and error (ChannelField gives it to its input). */
export type FieldProps = { id: string; 'aria-describedby'?: string; 'aria-invalid'?: boolean };

/**
 * A label, its input, a hint and the field's error in words, tied together for screen readers.
 * `prefix` names the channel: the input's id is `<prefix>-<name>`, the classes `<prefix>-field`...
 */
export function ChannelField(props: {
  prefix: string;
  name: string;
  label: string;
  error?: string;
  hint?: string;
  badge?: string;
  children: (field: FieldProps) => ReactNode;
}) {
  const { prefix, name, label, error, hint, badge } = props;
  const id = `${prefix}-${name}`;
  const described = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`${prefix}-field`}>
      <div className={`row ${prefix}-label`}>
        <label htmlFor={id}>{label}</label>
        {badge && <span className="badge ready">{badge}</span>}
      </div>
      {props.children({ id, 'aria-describedby': described, 'aria-invalid': error ? true : undefined })}
      {hint && (
        <p id={`${id}-hint`} className={`muted ${prefix}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className={`error ${prefix}-hint`}>
          {error}
        </p>
      )}
    </div>
  );
}

type Options = { enableContactMatching: boolean; autoCreateContacts: boolean };

/**
 * The words the channel forms share, each under the same key in its channel's namespace
 * (i18n/<language>/email.ts, sms.ts): the form's `t`, narrowed to these keys.
 */
export type ChannelFormWords = (
  key:
    | 'form.contactMatching'
    | 'form.autoCreate'
    | 'form.saving'
    | 'form.save'
    | 'form.create'
    | 'form.unsaved'
    | 'form.saved',
) => string;

/** Whether senders are matched to contacts, and whether unknown ones become contacts. */
export function ContactOptions(props: {
  value: Options;
  onChange(key: keyof Options, on: boolean): void;
  t: ChannelFormWords;
}) {
  const { value, onChange, t } = props;
  return (
    <>
      <Check checked={value.enableContactMatching} onChange={(on) => onChange('enableContactMatching', on)}>
        {t('form.contactMatching')}
      </Check>
      <Check checked={value.autoCreateContacts} onChange={(on) => onChange('autoCreateContacts', on)}>
        {t('form.autoCreate')}
      </Check>
    </>
  );
}

/** The submit button (create, or save once the channel exists) and whether changes are unsaved. */
export function ChannelSaveRow(props: {
  pending: boolean;
  exists: boolean;
  unsaved: boolean;
  succeeded: boolean;
  t: ChannelFormWords;
}) {
  const { pending, exists, unsaved, succeeded, t } = props;
  return (
    <div className="row">
      <button type="submit" className="primary" disabled={pending}>
        {pending ? t('form.saving') : exists ? t('form.save') : t('form.create')}
      </button>
      <span role="status" className="muted">
        {unsaved ? t('form.unsaved') : succeeded ? t('form.saved') : ''}
      </span>
    </div>
  );
}
