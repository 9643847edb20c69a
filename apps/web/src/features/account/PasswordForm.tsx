import type { ChangePasswordInput } from '@parley/contract/api-types';
import { useMutation } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, post } from '../../api.ts';
import { i18n } from '../../i18n/index.ts';
import { ErrorText } from '../../shell/ui.tsx';
import { SaveRow } from './SaveRow.tsx';

type Input = ChangePasswordInput;

/** The refusals of `POST /api/account/password` (docs/accounts.md "Password") in words. */
function explain(err: unknown): unknown {
  if (!(err instanceof ApiError)) return err;
  if (err.status === 400 && err.details?.currentPassword === 'Incorrect password') {
    return i18n.t('account:password.incorrect');
  }
  if (err.status === 400 && err.details?.newPassword) {
    return i18n.t('account:password.refused', { reason: String(err.details.newPassword) });
  }
  if (err.status === 429) {
    return i18n.t('account:password.locked');
  }
  return err;
}

/** Change the password; every other session is signed out, this one stays. */
export function PasswordForm({ hasPassword }: { hasPassword: boolean }) {
  const { t } = useTranslation('account');
  const change = useMutation({
    mutationFn: (body: Input) => post<void>('/api/account/password', body),
  });
  if (!hasPassword) {
    return (
      <div className="card stack">
        <h2>{t('password.title')}</h2>
        <p>{t('password.none')}</p>
      </div>
    );
  }
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    const body = {
      currentPassword: String(f.get('currentPassword') ?? ''),
      newPassword: String(f.get('newPassword') ?? ''),
    };
    change.mutate(body, { onSuccess: () => form.reset() });
  };
  return (
    <form onSubmit={onSubmit} className="card stack" aria-labelledby="password-title">
      <h2 id="password-title">{t('password.title')}</h2>
      <label>
        {t('password.current')}
        <input
          name="currentPassword"
          type="password"
          required
          autoComplete="current-password"
          onChange={() => change.reset()}
        />
      </label>
      <label>
        {t('password.new')}
        <input
          name="newPassword"
          type="password"
          required
          minLength={10}
          maxLength={256}
          autoComplete="new-password"
          aria-describedby="new-password-note"
        />
      </label>
      <p id="new-password-note" className="muted">
        {t('password.note')}
      </p>
      <ErrorText error={explain(change.error)} />
      <SaveRow
        label={t('password.change')}
        busy={change.isPending}
        done={change.isSuccess && t('password.changed')}
      />
    </form>
  );
}
