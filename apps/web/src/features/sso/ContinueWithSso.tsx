import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useSearchParams } from 'react-router';
import { type Data, post } from '../../api.ts';
import { ErrorText } from '../../shell/ui.tsx';

/**
 * "Continue with SSO" on the sign-in page (docs/sso.md "Signing in"): the email's domain finds the
 * workspace's identity provider, and the browser goes there; it comes back signed in.
 */
export function ContinueWithSso() {
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
        Continue with SSO
      </button>
    );
  }
  return (
    <form onSubmit={onSubmit} className="card stack" aria-label="Single sign-on">
      <label>
        Work email
        <input name="email" type="email" required autoComplete="email" />
      </label>
      <ErrorText
        error={
          start.error && (start.error as { status?: number }).status === 404
            ? new Error('No single sign-on is set up for this email domain. Sign in with your password.')
            : start.error
        }
      />
      <button type="submit" className="primary" disabled={start.isPending}>
        Continue with SSO
      </button>
    </form>
  );
}

/**
 * Why a refused sign-in was refused, for the `reason` the server adds to `?error=sso_failed`
 * (docs/sso.md "Signing in"): fixed words, never text from the address bar.
 */
const REASONS = new Map<string, string>([
  [
    'email_invalid',
    'Your identity provider sent an email address that is not a valid address, so no one was signed in. Ask your workspace’s owner to check the email your provider sends.',
  ],
  [
    'email_domain',
    'Your identity provider sent an email address outside the domains verified for this workspace’s single sign-on, so no one was signed in. Sign in with an address at your company’s verified domain, or ask your workspace’s owner.',
  ],
]);

/** The sign-in page's note when the identity provider's answer was refused. */
export function SsoFailed() {
  const [params] = useSearchParams();
  const reason = REASONS.get(params.get('reason') ?? '');
  return (
    <p role="alert" className="error">
      {reason ??
        "Single sign-on did not complete. Try again, or ask your workspace's owner to check the connection."}
    </p>
  );
}
