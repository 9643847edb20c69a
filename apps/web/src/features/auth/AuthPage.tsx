import { safeNextPath } from '@parley/contract/next-path';
import { useMutation } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { type Data, post, type User } from '../../api.ts';
import { useSetUser } from '../../session.ts';
import { ErrorText } from '../../shell/ui.tsx';
import { ContinueWithSso, SsoFailed } from '../sso/ContinueWithSso.tsx';

/** Sign up and sign in (docs/accounts.md): the response sets the session cookie. */
export function AuthPage({ mode }: { mode: 'signin' | 'signup' }) {
  const { t } = useTranslation('auth');
  const setUser = useSetUser();
  const navigate = useNavigate();
  const signup = mode === 'signup';
  const [params] = useSearchParams();
  // Where to go afterwards, e.g. the invitation page that sent the user here: only a path of this
  // app, by the one rule of apps/server/src/lib/next-path.ts; anything else is the default page.
  const next = safeNextPath(params.get('next'), window.location.origin);
  const keepNext = next ? `?next=${encodeURIComponent(next)}` : '';
  const submit = useMutation({
    mutationFn: (body: Record<string, string>) =>
      post<Data<{ user: User }>>(signup ? '/api/auth/signup' : '/api/auth/login', body),
    onSuccess: (res) => {
      if (next) {
        // A full load of `next`, signed in by the cookie just set. A client-side navigate cannot
        // be used: React Router applies it in a transition, so the signed-in routes would first
        // render at /signin or /signup, whose redirect to `/` would win.
        window.location.assign(next);
        return;
      }
      setUser(res.data.user);
      navigate(signup ? '/workspaces/new' : '/');
    },
  });
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = Object.fromEntries(new FormData(e.currentTarget)) as Record<string, string>;
    submit.mutate(form);
  };
  return (
    <main className="auth">
      <h1>{signup ? t('signupTitle') : t('signinTitle')}</h1>
      {next?.startsWith('/invite/') && <p>{t('invitationNote')}</p>}
      <form onSubmit={onSubmit} className="card stack">
        {signup && (
          <label>
            {t('name')}
            <input name="name" required maxLength={100} autoComplete="name" />
          </label>
        )}
        <label>
          {t('email')}
          <input name="email" type="email" required autoComplete="email" />
        </label>
        <label>
          {t('password')}
          <input
            name="password"
            type="password"
            required
            minLength={signup ? 10 : 1}
            autoComplete={signup ? 'new-password' : 'current-password'}
          />
        </label>
        {signup && <p className="muted">{t('passwordNote')}</p>}
        <ErrorText error={submit.error} />
        <button type="submit" className="primary" disabled={submit.isPending}>
          {signup ? t('signup') : t('signin')}
        </button>
      </form>
      {!signup && params.get('error') === 'sso_failed' && <SsoFailed />}
      {!signup && <ContinueWithSso />}
      <p>
        {signup ? (
          <Trans t={t} i18nKey="haveAccount" components={{ a: <Link to={`/signin${keepNext}`} /> }} />
        ) : (
          <Trans t={t} i18nKey="newToParley" components={{ a: <Link to={`/signup${keepNext}`} /> }} />
        )}
      </p>
    </main>
  );
}
