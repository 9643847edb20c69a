import type { ChangePasswordInput } from '@parley/contract/api-types';
import { useMutation } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { ApiError, post } from '../../api.ts';
import { ErrorText } from '../../shell/ui.tsx';
import { SaveRow } from './SaveRow.tsx';

type Input = ChangePasswordInput;

/** The refusals of `POST /api/account/password` (docs/accounts.md "Password") in words. */
function explain(err: unknown): unknown {
  if (!(err instanceof ApiError)) return err;
  if (err.status === 400 && err.details?.currentPassword === 'Incorrect password') {
    return 'The current password is incorrect.';
  }
  if (err.status === 400 && err.details?.newPassword) {
    return `The new password is not accepted: ${err.details.newPassword}.`;
  }
  if (err.status === 429) {
    return 'Too many wrong current passwords: the form is locked for up to 15 minutes. Try again later.';
  }
  return err;
}

/** Change the password; every other session is signed out, this one stays. */
export function PasswordForm({ hasPassword }: { hasPassword: boolean }) {
  const change = useMutation({
    mutationFn: (body: Input) => post<void>('/api/account/password', body),
  });
  if (!hasPassword) {
    return (
      <div className="card stack">
        <h2>Password</h2>
        <p>You sign in through an identity provider, so this account has no password to change.</p>
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
      <h2 id="password-title">Password</h2>
      <label>
        Current password
        <input
          name="currentPassword"
          type="password"
          required
          autoComplete="current-password"
          onChange={() => change.reset()}
        />
      </label>
      <label>
        New password
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
        At least 10 characters. Changing it signs you out everywhere else.
      </p>
      <ErrorText error={explain(change.error)} />
      <SaveRow
        label="Change password"
        busy={change.isPending}
        done={
          change.isSuccess &&
          'Password changed. Your other sessions were signed out; this one stays signed in.'
        }
      />
    </form>
  );
}
