import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Data, del, post } from '../../api.ts';
import { ChannelSaveRow, ContactOptions } from '../../shell/ChannelForm.tsx';
import { Check, ErrorText } from '../../shell/ui.tsx';
import { ConfirmButton } from '../members/ConfirmButton.tsx';
import { Field } from './Field.tsx';
import { SmsWebhook } from './SmsWebhook.tsx';
import { write } from './save.ts';
import {
  check,
  compactNumber,
  type Draft,
  explain,
  type FieldErrors,
  fieldErrorsOf,
  formAPath,
  MESSAGE_LENGTH,
  SESSION_TIMEOUT,
  type SmsConfig,
  type TestResult,
  testWords,
  toDraft,
} from './types.ts';

/**
 * The configuration form (docs/dashboard.md "SMS"): checked in words before any request, saved
 * through save.ts, tested against the provider; the webhook URL and "Disconnect" once saved.
 */
export function SmsForm({ ws, id, saved }: { ws: string; id: string; saved: SmsConfig | null }) {
  const { t } = useTranslation('sms');
  const qc = useQueryClient();
  const [draft, setDraft] = useState<Draft>(() => toDraft(saved));
  const [errors, setErrors] = useState<FieldErrors>({});
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => {
    setDraft((d) => ({ ...d, [key]: value }));
    setErrors((e) => ({ ...e, [key]: undefined }));
  };
  const timeoutChanged =
    saved !== null && Number(draft.sessionTimeoutMinutes) !== saved.b.sessionTimeoutMinutes;
  const save = useMutation({
    mutationFn: () => write(ws, id, draft, saved),
    onSuccess: (fresh) => {
      qc.setQueryData(['sms', id], fresh);
      // The token is never shown again: the field empties, "Saved" says it is kept.
      setDraft(toDraft(fresh));
    },
    onError: (err) => {
      setErrors(fieldErrorsOf(err));
      // A first save may have created the record before a later step failed: read it again.
      void qc.invalidateQueries({ queryKey: ['sms', id] });
    },
  });
  const sidIsSaved = saved !== null && draft.accountSid.trim() === saved.a.providerAccountSid;
  const test = useMutation({
    // Without a typed token the API tests with the saved one, for the saved account SID only.
    mutationFn: () =>
      post<Data<TestResult>>(`${formAPath(id)}/test`, {
        providerAccountSid: draft.accountSid.trim(),
        ...(draft.authToken.trim() ? { providerAuthToken: draft.authToken.trim() } : {}),
        providerPhoneNumber: compactNumber(draft.phoneNumber),
      }),
    onError: (err) => setErrors(fieldErrorsOf(err)),
  });
  const remove = useMutation({
    mutationFn: () => del(formAPath(id)),
    onSuccess: () => {
      qc.setQueryData(['sms', id], null);
      setDraft(toDraft(null));
      test.reset();
    },
  });

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    test.reset();
    // A new account SID goes with its own token: the saved one belongs to the saved SID.
    const found = check(draft, { needToken: !saved || timeoutChanged || !sidIsSaved });
    if (saved && timeoutChanged && !draft.authToken.trim()) found.authToken = t('check.authTokenForTimeout');
    setErrors(found);
    if (Object.keys(found).length === 0) save.mutate();
  };
  const onTest = () => {
    save.reset();
    const found = check(draft, { needToken: !sidIsSaved, only: ['accountSid', 'authToken', 'phoneNumber'] });
    if (saved && !sidIsSaved && !draft.authToken.trim()) found.authToken = t('check.authTokenForTest');
    setErrors(found);
    if (Object.keys(found).length === 0) test.mutate();
  };
  const result = test.data ? testWords(test.data.data, compactNumber(draft.phoneNumber)) : null;
  const unsaved = JSON.stringify(draft) !== JSON.stringify(toDraft(saved));

  return (
    <>
      <form onSubmit={onSubmit} className="card stack sms-form" aria-labelledby="sms-form-title" noValidate>
        <h2 id="sms-form-title">{saved ? t('form.titleSaved') : t('form.titleNew')}</h2>
        {!saved && <p className="muted">{t('form.newHint')}</p>}
        <Check checked={draft.isEnabled} onChange={(on) => set('isEnabled', on)}>
          {t('form.enabled')}
        </Check>
        <p className="muted sms-hint">{t('form.enabledHint')}</p>

        <fieldset className="sms-group">
          <legend>{t('form.credentials')}</legend>
          <Field name="accountSid" label={t('form.accountSid')} errors={errors}>
            {(f) => (
              <input
                {...f}
                value={draft.accountSid}
                spellCheck={false}
                autoComplete="off"
                maxLength={64}
                placeholder="AC…"
                onChange={(e) => set('accountSid', e.target.value)}
              />
            )}
          </Field>
          <Field
            name="authToken"
            label={t('form.authToken')}
            errors={errors}
            hint={saved ? t('form.authTokenSaved') : t('form.authTokenNew')}
            badge={saved && !draft.authToken ? t('form.savedBadge') : undefined}
          >
            {(f) => (
              <input
                {...f}
                type="password"
                value={draft.authToken}
                spellCheck={false}
                autoComplete="new-password"
                maxLength={256}
                placeholder={saved ? t('form.authTokenPlaceholder') : ''}
                onChange={(e) => set('authToken', e.target.value)}
              />
            )}
          </Field>
          <Field
            name="phoneNumber"
            label={t('form.phoneNumber')}
            errors={errors}
            hint={t('form.phoneNumberHint')}
          >
            {(f) => (
              <input
                {...f}
                type="tel"
                value={draft.phoneNumber}
                spellCheck={false}
                autoComplete="off"
                maxLength={32}
                placeholder="+15550102000"
                onChange={(e) => set('phoneNumber', e.target.value)}
              />
            )}
          </Field>
          <div className="row sms-test">
            <button type="button" onClick={onTest} disabled={test.isPending}>
              {test.isPending ? t('form.testing') : t('form.test')}
            </button>
            <span className="muted grow">{saved ? t('form.testHintSaved') : t('form.testHint')}</span>
          </div>
          <div role="status" className="sms-test-result">
            {result && <p className={result.ok ? 'sms-ok' : 'warn'}>{result.text}</p>}
          </div>
          <ErrorText error={test.error && explain(test.error)} />
        </fieldset>

        <fieldset className="sms-group">
          <legend>{t('form.replies')}</legend>
          <Field
            name="maxMessageLength"
            label={t('form.maxMessageLength', { min: MESSAGE_LENGTH.min, max: MESSAGE_LENGTH.max })}
            errors={errors}
            hint={t('form.maxMessageLengthHint')}
          >
            {(f) => (
              <input
                {...f}
                type="number"
                min={MESSAGE_LENGTH.min}
                max={MESSAGE_LENGTH.max}
                step={1}
                value={draft.maxMessageLength}
                onChange={(e) => set('maxMessageLength', e.target.value)}
              />
            )}
          </Field>
          <Field
            name="sessionTimeoutMinutes"
            label={t('form.sessionTimeout', { min: SESSION_TIMEOUT.min, max: SESSION_TIMEOUT.max })}
            errors={errors}
            hint={saved ? t('form.sessionTimeoutHintSaved') : t('form.sessionTimeoutHint')}
          >
            {(f) => (
              <input
                {...f}
                type="number"
                min={SESSION_TIMEOUT.min}
                max={SESSION_TIMEOUT.max}
                step={1}
                value={draft.sessionTimeoutMinutes}
                onChange={(e) => set('sessionTimeoutMinutes', e.target.value)}
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
      {saved && (
        <SmsWebhook url={saved.a.webhookUrl} enabled={saved.a.isEnabled}>
          <ConfirmButton
            label={t('remove.button')}
            question={t('remove.question')}
            confirmLabel={t('remove.confirm')}
            pending={remove.isPending}
            onConfirm={() => remove.mutate()}
          />
          <ErrorText error={remove.error} />
        </SmsWebhook>
      )}
    </>
  );
}
