import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { type Data, post } from '../../api.ts';
import { ErrorText } from '../../shell/ui.tsx';

/**
 * "Continue with SSO" on the sign-in page (docs/sso.md "Signing in"): the email's domain finds the
 * workspace's identity provider, and the browser goes there; it comes back signed in.
 */
export function ContinueWithSso() {
  const { t } = useTranslation('sso');
  const [open, setOpen] = useState(false);
  const start = useMutation({
    mutationFn: (email: string) => post<Data<{ url: string }>>('/api/auth/sso/start', { email }),
    onSuccess: (res) => window.location.assign(res.data.url),
  });
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    start.mutate(String(new FormData(e.currentTarget).get('email') ?? ''));
  };
  if (!open) {
    return (
      <button type="button" onClick={() => setOpen(true)}>
        {t('signIn.continue')}
      </button>
    );
  }
  return (
    <form onSubmit={onSubmit} className="card stack" aria-label={t('signIn.form')}>
      <label>
        {t('signIn.email')}
        <input name="email" type="email" required autoComplete="email" />
      </label>
      <ErrorText
        error={
          start.error && (start.error as { status?: number }).status === 404
            ? new Error(t('signIn.none'))
            : start.error
        }
      />
      <button type="submit" className="primary" disabled={start.isPending}>
        {t('signIn.continue')}
      </button>
    </form>
  );
}

/**
 * Why a refused sign-in was refused, for the `reason` the server adds to `?error=sso_failed`
 * (docs/sso.md "Signing in"): fixed words, never text from the address bar.
 */
const REASONS = ['email_invalid', 'email_domain'] as const;
const isReason = (r: string | null): r is (typeof REASONS)[number] => REASONS.some((x) => x === r);

/** The sign-in page's note when the identity provider's answer was refused. */
export function SsoFailed() {
  const { t } = useTranslation('sso');
  const [params] = useSearchParams();
  const reason = params.get('reason');
  return (
    <p role="alert" className="error">
      {isReason(reason) ? t(`signIn.reasons.${reason}`) : t('signIn.failed')}
    </p>
  );
}
