import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useEffect } from 'react';
import { Link, useNavigate } from 'react-router';
import { type Data, post, type User } from '../../api.ts';
import { useSetUser } from '../../session.ts';
import { ErrorText } from '../../shell/ui.tsx';

/** Sign up and sign in (docs/accounts.md): the response sets the session cookie. */
export function AuthPage({ mode }: { mode: 'signin' | 'signup' }) {
  const setUser = useSetUser();
  const navigate = useNavigate();
  const signup = mode === 'signup';
  useEffect(() => {
    document.title = signup ? 'Sign up · Parley' : 'Sign in · Parley';
  }, [signup]);
  const submit = useMutation({
    mutationFn: (body: Record<string, string>) =>
      post<Data<{ user: User }>>(signup ? '/api/auth/signup' : '/api/auth/login', body),
    onSuccess: (res) => {
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
      <h1>{signup ? 'Create your Parley account' : 'Sign in to Parley'}</h1>
      <form onSubmit={onSubmit} className="card stack">
        {signup && (
          <label>
            Name
            <input name="name" required maxLength={100} autoComplete="name" />
          </label>
        )}
        <label>
          Email
          <input name="email" type="email" required autoComplete="email" />
        </label>
        <label>
          Password
          <input
            name="password"
            type="password"
            required
            minLength={signup ? 10 : 1}
            autoComplete={signup ? 'new-password' : 'current-password'}
          />
        </label>
        {signup && <p className="muted">At least 10 characters.</p>}
        <ErrorText error={submit.error} />
        <button type="submit" className="primary" disabled={submit.isPending}>
          {signup ? 'Sign up' : 'Sign in'}
        </button>
      </form>
      <p>
        {signup ? (
          <>
            Already have an account? <Link to="/signin">Sign in</Link>
          </>
        ) : (
          <>
            New to Parley? <Link to="/signup">Create an account</Link>
          </>
        )}
      </p>
    </main>
  );
}
