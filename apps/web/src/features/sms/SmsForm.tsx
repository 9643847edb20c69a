import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { type Data, del, post } from '../../api.ts';
import { ErrorText } from '../../shell/ui.tsx';
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
    if (saved && timeoutChanged && !draft.authToken.trim())
      found.authToken =
        'Enter the auth token again to change the session timeout: that setting is saved together with the credentials.';
    setErrors(found);
    if (Object.keys(found).length === 0) save.mutate();
  };
  const onTest = () => {
    save.reset();
    const found = check(draft, { needToken: !sidIsSaved, only: ['accountSid', 'authToken', 'phoneNumber'] });
    if (saved && !sidIsSaved && !draft.authToken.trim())
      found.authToken =
        'Enter the auth token of this account SID to test: the saved one belongs to the saved SID.';
    setErrors(found);
    if (Object.keys(found).length === 0) test.mutate();
  };
  const result = test.data ? testWords(test.data.data, compactNumber(draft.phoneNumber)) : null;
  const unsaved = JSON.stringify(draft) !== JSON.stringify(toDraft(saved));

  return (
    <>
      <form onSubmit={onSubmit} className="card stack sms-form" aria-labelledby="sms-form-title" noValidate>
        <h2 id="sms-form-title">{saved ? 'Provider account and number' : 'Connect an SMS number'}</h2>
        {!saved && (
          <p className="muted">
            From your SMS provider’s console: the account SID and auth token (Account info), and a number of
            that account that can send SMS.
          </p>
        )}
        <label className="check">
          <input
            type="checkbox"
            checked={draft.isEnabled}
            onChange={(e) => set('isEnabled', e.target.checked)}
          />
          SMS enabled
        </label>
        <p className="muted sms-hint">
          Off: messages to the number are acknowledged to the provider but neither stored nor answered.
        </p>

        <fieldset className="sms-group">
          <legend>Credentials</legend>
          <Field name="accountSid" label="Account SID" errors={errors}>
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
            label="Auth token"
            errors={errors}
            hint={
              saved
                ? 'Saved (stored encrypted and never shown). Leave empty to keep it, or enter a new one.'
                : 'At least 32 characters. Stored encrypted and never shown again.'
            }
            badge={saved && !draft.authToken ? 'Saved' : undefined}
          >
            {(f) => (
              <input
                {...f}
                type="password"
                value={draft.authToken}
                spellCheck={false}
                autoComplete="new-password"
                maxLength={256}
                placeholder={saved ? '•••••••• saved' : ''}
                onChange={(e) => set('authToken', e.target.value)}
              />
            )}
          </Field>
          <Field
            name="phoneNumber"
            label="Phone number"
            errors={errors}
            hint="In international (E.164) form: + then the country code, such as +15550102000. One number per assistant."
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
              {test.isPending ? 'Testing…' : 'Test'}
            </button>
            <span className="muted grow">
              Asks the provider whether this account holds this number, before or after saving
              {saved ? ' (with the saved token when the field is empty)' : ''}. Nothing is saved.
            </span>
          </div>
          <div role="status" className="sms-test-result">
            {result && <p className={result.ok ? 'sms-ok' : 'warn'}>{result.text}</p>}
          </div>
          <ErrorText error={test.error && explain(test.error)} />
        </fieldset>

        <fieldset className="sms-group">
          <legend>Replies and sessions</legend>
          <Field
            name="maxMessageLength"
            label={`Longest reply, in characters (${MESSAGE_LENGTH.min} to ${MESSAGE_LENGTH.max.toLocaleString('en')})`}
            errors={errors}
            hint="Longer answers are cut at a word boundary. 160 characters is one standard SMS."
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
            label={`End a session after this many silent minutes (${SESSION_TIMEOUT.min} to ${SESSION_TIMEOUT.max.toLocaleString('en')})`}
            errors={errors}
            hint={
              saved
                ? 'A later message starts a new conversation. Changing it needs the auth token entered again.'
                : 'A later message starts a new conversation.'
            }
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
          <label className="check">
            <input
              type="checkbox"
              checked={draft.enableContactMatching}
              onChange={(e) => set('enableContactMatching', e.target.checked)}
            />
            Match senders to existing contacts by phone number
          </label>
          <label className="check">
            <input
              type="checkbox"
              checked={draft.autoCreateContacts}
              onChange={(e) => set('autoCreateContacts', e.target.checked)}
            />
            Create a contact for each unknown sender
          </label>
        </fieldset>

        <ErrorText error={save.error && explain(save.error)} />
        <div className="row">
          <button type="submit" className="primary" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : saved ? 'Save SMS settings' : 'Connect number'}
          </button>
          <span role="status" className="muted">
            {unsaved ? 'Unsaved changes' : save.isSuccess ? 'Saved' : ''}
          </span>
        </div>
      </form>
      {saved && (
        <SmsWebhook url={saved.a.webhookUrl} enabled={saved.a.isEnabled}>
          <ConfirmButton
            label="Disconnect SMS"
            question="Disconnect SMS from this assistant? The credentials are deleted and messages to the number are no longer answered. Past conversations stay in the inbox."
            confirmLabel="Disconnect"
            pending={remove.isPending}
            onConfirm={() => remove.mutate()}
          />
          <ErrorText error={remove.error} />
        </SmsWebhook>
      )}
    </>
  );
}
