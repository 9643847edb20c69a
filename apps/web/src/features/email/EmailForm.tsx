import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Data, patch, post } from '../../api.ts';
import { ChannelSaveRow, ContactOptions } from '../../shell/ChannelForm.tsx';
import { Check, Choices, ErrorText } from '../../shell/ui.tsx';
import { Field } from './Field.tsx';
import { ServerFields } from './ServerFields.tsx';
import {
  check,
  createBody,
  type Draft,
  type EmailConfig,
  emailPath,
  explain,
  type FieldErrors,
  fieldErrorsOf,
  patchBody,
  savedPassword,
  type TestResult,
  testWords,
  toDraft,
} from './types.ts';

/**
 * The configuration form (docs/email.md "Dashboard"): checked in words before any request, the
 * API's field errors under their fields, passwords write-only, a test of both servers in words.
 */
export function EmailForm({ id, saved }: { id: string; saved: EmailConfig | null }) {
  const { t } = useTranslation('email');
  const qc = useQueryClient();
  const [draft, setDraft] = useState<Draft>(() => toDraft(saved));
  const [errors, setErrors] = useState<FieldErrors>({});
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => {
    setDraft((d) => ({ ...d, [key]: value }));
    setErrors((e) => ({ ...e, [key]: undefined }));
  };
  const save = useMutation({
    mutationFn: () =>
      saved
        ? patch<Data<EmailConfig>>(emailPath(id), patchBody(draft, saved))
        : post<Data<EmailConfig>>(emailPath(id), createBody(draft)),
    onSuccess: (fresh) => {
      qc.setQueryData(['email', id], fresh.data);
      // Passwords are never shown again: the fields empty, "Saved" says they are kept.
      setDraft(toDraft(fresh.data));
    },
    onError: (err) => setErrors(fieldErrorsOf(err)),
  });
  const test = useMutation({
    mutationFn: () => post<Data<TestResult>>(`${emailPath(id)}/test`, createBody(draft)),
    onError: (err) => setErrors(fieldErrorsOf(err)),
  });
  const submit = (run: () => void) => {
    const found = check(draft, saved);
    setErrors(found);
    if (Object.keys(found).length === 0) run();
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    test.reset();
    submit(() => save.mutate());
  };
  const onTest = () => {
    save.reset();
    submit(() => test.mutate());
  };
  const lines = test.data ? testWords(test.data.data) : [];
  const unsaved = JSON.stringify(draft) !== JSON.stringify(toDraft(saved));
  const example = `${draft.displayName.trim() || 'Acme Support'} <${draft.address.trim() || 'support@example.com'}>`;

  return (
    <form onSubmit={onSubmit} className="card stack email-form" aria-labelledby="email-form-title" noValidate>
      <h2 id="email-form-title">{saved ? t('form.titleSaved') : t('form.titleNew')}</h2>
      <Check checked={draft.isEnabled} onChange={(on) => set('isEnabled', on)}>
        {t('form.enabled')}
      </Check>
      <p className="muted email-hint">{t('form.enabledHint')}</p>
      <Field name="address" label={t('form.address')} errors={errors} hint={t('form.addressHint')}>
        {(f) => (
          <input
            {...f}
            type="email"
            value={draft.address}
            spellCheck={false}
            autoComplete="off"
            maxLength={254}
            placeholder="support@example.com"
            onChange={(e) => set('address', e.target.value)}
          />
        )}
      </Field>
      <Field
        name="displayName"
        label={t('form.displayName')}
        errors={errors}
        hint={t('form.displayNameHint', { example })}
      >
        {(f) => (
          <input
            {...f}
            value={draft.displayName}
            maxLength={100}
            onChange={(e) => set('displayName', e.target.value)}
          />
        )}
      </Field>

      <fieldset className="email-group">
        <legend>{t('form.inbound')}</legend>
        <Choices
          name="email-mode"
          value={draft.mode}
          options={[
            { value: 'forward', label: t('form.forward') },
            { value: 'imap', label: t('form.imap') },
          ]}
          onChange={(mode) => set('mode', mode)}
        />
        {draft.mode === 'imap' && (
          <ServerFields
            side="imap"
            draft={draft}
            errors={errors}
            passwordSaved={savedPassword(draft, saved, 'imap')}
            set={set}
          />
        )}
      </fieldset>

      <fieldset className="email-group">
        <legend>{t('form.smtp')}</legend>
        <Choices
          name="email-smtp"
          value={draft.smtpOwn}
          options={[
            { value: false, label: t('form.smtpServer') },
            { value: true, label: t('form.smtpOwn') },
          ]}
          onChange={(own) => set('smtpOwn', own)}
        />
        {draft.smtpOwn && (
          <ServerFields
            side="smtp"
            draft={draft}
            errors={errors}
            passwordSaved={savedPassword(draft, saved, 'smtp')}
            set={set}
          />
        )}
      </fieldset>

      <div className="row email-test">
        <button type="button" onClick={onTest} disabled={test.isPending}>
          {test.isPending ? t('form.testing') : t('form.test')}
        </button>
        <span className="muted grow">{t('form.testHint')}</span>
      </div>
      <div role="status" aria-label={t('form.test')} className="email-test-result">
        {lines.map((l) => (
          <p key={l.text} className={l.ok ? 'email-ok' : 'warn'}>
            {l.text}
          </p>
        ))}
      </div>
      <ErrorText error={test.error && explain(test.error)} />

      <fieldset className="email-group">
        <legend>{t('form.replies')}</legend>
        <label className="check">
          <input
            type="checkbox"
            checked={draft.aiReplies}
            onChange={(e) => set('aiReplies', e.target.checked)}
          />
          {t('form.aiReplies')}
        </label>
        <p className="muted email-hint">{t('form.aiRepliesHint')}</p>
        <Field name="signature" label={t('form.signature')} errors={errors} hint={t('form.signatureHint')}>
          {(f) => (
            <textarea
              {...f}
              rows={4}
              value={draft.signature}
              onChange={(e) => set('signature', e.target.value)}
            />
          )}
        </Field>
        <ContactOptions value={draft} onChange={set} t={(key) => t(key)} />
      </fieldset>

      <ErrorText error={save.error && explain(save.error)} />
      <ChannelSaveRow
        pending={save.isPending}
        exists={Boolean(saved)}
        unsaved={unsaved}
        succeeded={save.isSuccess}
        t={(key) => t(key)}
      />
    </form>
  );
}
