import { useTranslation } from 'react-i18next';
import { Field } from './Field.tsx';
import type { Draft, FieldErrors } from './types.ts';

type Side = 'imap' | 'smtp';

/**
 * One mail server's fields (the IMAP mailbox or the SMTP server): host, port, TLS, user name and
 * the write-only password ("unchanged" while the saved one applies), and for IMAP the mailbox.
 */
export function ServerFields(props: {
  side: Side;
  draft: Draft;
  errors: FieldErrors;
  passwordSaved: boolean;
  set: <K extends keyof Draft>(key: K, value: Draft[K]) => void;
}) {
  const { side, draft, errors, passwordSaved, set } = props;
  const { t } = useTranslation('email');
  const host = `${side}Host` as const;
  const port = `${side}Port` as const;
  const secure = `${side}Secure` as const;
  const username = `${side}Username` as const;
  const password = `${side}Password` as const;
  return (
    <div className="email-server">
      <div className="email-host-port">
        <Field name={host} label={t('form.host')} errors={errors}>
          {(f) => (
            <input
              {...f}
              value={draft[host]}
              spellCheck={false}
              autoComplete="off"
              maxLength={253}
              placeholder={side === 'imap' ? 'imap.example.com' : 'smtp.example.com'}
              onChange={(e) => set(host, e.target.value)}
            />
          )}
        </Field>
        <Field name={port} label={t('form.port')} errors={errors}>
          {(f) => (
            <input
              {...f}
              type="number"
              min={1}
              max={65535}
              step={1}
              value={draft[port]}
              onChange={(e) => set(port, e.target.value)}
            />
          )}
        </Field>
      </div>
      <label className="check">
        <input type="checkbox" checked={draft[secure]} onChange={(e) => set(secure, e.target.checked)} />
        {t('form.secure')}
      </label>
      <Field name={username} label={t('form.username')} errors={errors}>
        {(f) => (
          <input
            {...f}
            value={draft[username]}
            spellCheck={false}
            autoComplete="off"
            maxLength={320}
            onChange={(e) => set(username, e.target.value)}
          />
        )}
      </Field>
      <Field
        name={password}
        label={t('form.password')}
        errors={errors}
        hint={passwordSaved ? t('form.passwordSaved') : t('form.passwordNew')}
        badge={passwordSaved && !draft[password] ? t('form.savedBadge') : undefined}
      >
        {(f) => (
          <input
            {...f}
            type="password"
            value={draft[password]}
            spellCheck={false}
            autoComplete="new-password"
            maxLength={1000}
            placeholder={passwordSaved ? t('form.passwordPlaceholder') : ''}
            onChange={(e) => set(password, e.target.value)}
          />
        )}
      </Field>
      {side === 'imap' && (
        <Field name="imapMailbox" label={t('form.mailbox')} errors={errors} hint={t('form.mailboxHint')}>
          {(f) => (
            <input
              {...f}
              value={draft.imapMailbox}
              spellCheck={false}
              autoComplete="off"
              maxLength={200}
              onChange={(e) => set('imapMailbox', e.target.value)}
            />
          )}
        </Field>
      )}
    </div>
  );
}
