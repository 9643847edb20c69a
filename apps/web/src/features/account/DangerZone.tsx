import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { api, type Data, post } from '../../api.ts';
import { useSetUser, useWorkspaces } from '../../session.ts';
import { ErrorText } from '../../shell/ui.tsx';
import { formatDate } from '../members/types.ts';

/** `POST /api/account/export`: the file is built now and a download link is emailed. */
export function ExportData({ email }: { email: string }) {
  const request = useMutation({
    mutationFn: () => post<Data<{ email: string; expiresAt: string }>>('/api/account/export'),
  });
  const done = request.data?.data;
  return (
    <div className="card stack">
      <h2>Your data</h2>
      <p>
        Get a copy of your profile, preferences, workspaces and memberships as a JSON file. We email a
        download link to {email}; it works for 7 days while you are signed in to this account.
      </p>
      <ErrorText error={request.error} />
      <div className="save-row">
        <button type="button" onClick={() => request.mutate()} disabled={request.isPending}>
          Email me my data
        </button>
        <p role="status" className="ok-text">
          {done
            ? `Done: the link is on its way to ${done.email} and works until ${formatDate(done.expiresAt)}.`
            : ''}
        </p>
      </div>
    </div>
  );
}

/** `DELETE /api/account {confirm: "DELETE"}`: immediate and irreversible, so it is typed out. */
export function DeleteAccount() {
  const setUser = useSetUser();
  const navigate = useNavigate();
  const [typed, setTyped] = useState('');
  const owned = useWorkspaces().data?.data.filter((w) => w.role === 'owner') ?? [];
  const remove = useMutation({
    mutationFn: () => api<void>('DELETE', '/api/account', { confirm: 'DELETE' }),
    onSuccess: () => {
      setUser(null);
      navigate('/signin');
    },
  });
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (typed === 'DELETE') remove.mutate();
  };
  return (
    <form onSubmit={onSubmit} className="card stack danger-zone" aria-labelledby="delete-title">
      <h2 id="delete-title">Delete your account</h2>
      <p>
        This cannot be undone. Your sessions, tokens and memberships go at once
        {owned.length > 0 ? ', and so do the workspaces you own, with everything in them:' : '.'}
      </p>
      {owned.length > 0 && (
        <ul>
          {owned.map((w) => (
            <li key={w.id}>{w.name}</li>
          ))}
        </ul>
      )}
      {owned.length > 0 && (
        <p className="muted">To keep a workspace, transfer its ownership to another member first.</p>
      )}
      <label>
        Type DELETE to confirm
        <input
          name="confirm"
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          autoComplete="off"
          spellCheck={false}
        />
      </label>
      <ErrorText error={remove.error} />
      <div>
        <button type="submit" className="danger" disabled={typed !== 'DELETE' || remove.isPending}>
          Delete my account
        </button>
      </div>
    </form>
  );
}
