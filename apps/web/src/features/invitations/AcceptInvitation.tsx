import type { AcceptedInvitation } from '@parley/contract/api-types';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError, type Data, post, type User } from '../../api.ts';
import { i18n } from '../../i18n/index.ts';
import { useSession, useSetUser } from '../../session.ts';
import './invite.css';

/**
 * `/invite/{token}`, the link of an invitation email (docs/workspaces.md "Invitations"). Signed
 * out: sign in or sign up with the invited address, coming back here (`?next=`). Signed in: join.
 */
export function AcceptInvitation() {
  const { token = '' } = useParams();
  const user = useSession().data;
  return user ? <Join token={token} user={user} /> : <SignedOut token={token} />;
}

const back = (token: string) => `?next=${encodeURIComponent(`/invite/${token}`)}`;

function SignedOut({ token }: { token: string }) {
  const { t } = useTranslation('invitations');
  return (
    <main className="auth">
      <h1>{t('invitedTitle')}</h1>
      <div className="card stack invite-card">
        <p>{t('invitedText')}</p>
        <p className="row">
          <Link className="button primary" to={`/signin${back(token)}`}>
            {t('signInToJoin')}
          </Link>
          <Link className="button" to={`/signup${back(token)}`}>
            {t('createAccount')}
          </Link>
        </p>
      </div>
    </main>
  );
}

function Join({ token, user }: { token: string; user: User }) {
  const { t } = useTranslation('invitations');
  const qc = useQueryClient();
  const navigate = useNavigate();
  const setUser = useSetUser();
  const accept = useMutation({
    mutationFn: () => post<Data<AcceptedInvitation>>(`/api/invitations/${encodeURIComponent(token)}/accept`),
    onSuccess: async (res) => {
      // The switcher and the role checks read ['workspaces']: it must know the new one first.
      await qc.invalidateQueries({ queryKey: ['workspaces'] });
      navigate(`/w/${res.data.workspaceId}`);
    },
  });
  const signOut = useMutation({
    mutationFn: () => post('/api/auth/logout'),
    onSuccess: () => {
      setUser(null);
      navigate(`/signin${back(token)}`);
    },
  });
  return (
    <section className="narrow">
      <h1>{t('joinTitle')}</h1>
      <div className="card stack invite-card">
        <p>
          <Trans
            t={t}
            i18nKey="signedInAs"
            values={{ email: user.email }}
            components={{ strong: <strong /> }}
          />
        </p>
        <div>
          <button
            type="button"
            className="primary"
            disabled={accept.isPending || accept.isSuccess}
            onClick={() => accept.mutate()}
          >
            {t('join')}
          </button>
        </div>
        {accept.error && (
          <div className="error" role="alert">
            {explain(accept.error, user.email, () => signOut.mutate())}
          </div>
        )}
        {signOut.error && (
          <p className="error" role="alert">
            {signOut.error.message}
          </p>
        )}
      </div>
    </section>
  );
}

/** The answers of `POST /api/invitations/{token}/accept` in words, with the way forward. */
function explain(err: Error, email: string, signOut: () => void): ReactNode {
  const t = i18n.getFixedT(null, 'invitations');
  if (!(err instanceof ApiError)) return <p>{err.message}</p>;
  if (err.status === 404) {
    return <p>{t('expired')}</p>;
  }
  if (err.status === 403) {
    return (
      <>
        <p>{t('otherAddress', { email })}</p>
        <p>
          <button type="button" onClick={signOut}>
            {t('signOut')}
          </button>
        </p>
      </>
    );
  }
  if (err.status === 409) {
    return (
      <p>
        <Trans t={t} i18nKey="already" components={{ a: <Link to="/" /> }} />
      </p>
    );
  }
  return <p>{err.message}</p>;
}
