import type { AcceptedInvitation } from '@parley/contract/api-types';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError, type Data, post, type User } from '../../api.ts';
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
  return (
    <main className="auth">
      <h1>You are invited to a Parley workspace</h1>
      <div className="card stack invite-card">
        <p>
          Sign in or create an account with the invited email to join. The invitation was sent to that
          address; you come back to this page afterwards.
        </p>
        <p className="row">
          <Link className="button primary" to={`/signin${back(token)}`}>
            Sign in to join
          </Link>
          <Link className="button" to={`/signup${back(token)}`}>
            Create an account
          </Link>
        </p>
      </div>
    </main>
  );
}

function Join({ token, user }: { token: string; user: User }) {
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
      <h1>Join a workspace</h1>
      <div className="card stack invite-card">
        <p>
          You were invited to a workspace on Parley. You are signed in as <strong>{user.email}</strong>.
        </p>
        <div>
          <button
            type="button"
            className="primary"
            disabled={accept.isPending || accept.isSuccess}
            onClick={() => accept.mutate()}
          >
            Join workspace
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
  if (!(err instanceof ApiError)) return <p>{err.message}</p>;
  if (err.status === 404) {
    return (
      <p>
        This invitation link no longer works: it has expired (links last 7 days), was revoked, or was already
        used. Ask the person who invited you to send a new one.
      </p>
    );
  }
  if (err.status === 403) {
    return (
      <>
        <p>
          This invitation was sent to a different email address, not to {email}. Sign out, then sign in or
          create an account with the address the invitation email reached.
        </p>
        <p>
          <button type="button" onClick={signOut}>
            Sign out and use another account
          </button>
        </p>
      </>
    );
  }
  if (err.status === 409) {
    return (
      <p>
        You are already a member of this workspace. <Link to="/">Go to your workspaces</Link>.
      </p>
    );
  }
  return <p>{err.message}</p>;
}
