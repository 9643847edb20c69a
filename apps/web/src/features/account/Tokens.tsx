import type { CreatedPersonalToken } from '@parley/contract/api-types';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { api, type Data, get, post } from '../../api.ts';
import { SecretField } from '../../shell/SecretField.tsx';
import { ErrorText, Loading } from '../../shell/ui.tsx';
import { ConfirmButton } from '../members/ConfirmButton.tsx';
import { formatDate } from '../members/types.ts';
import type { PersonalToken } from './types.ts';
import '../members/team.css';

/**
 * Personal access tokens (docs/accounts.md): `pat_...` act as you on `/api/workspaces/...` for
 * scripts. A password change does not revoke them, so they are managed here one by one.
 */
export function Tokens() {
  const qc = useQueryClient();
  const list = useQuery({
    queryKey: ['tokens'],
    queryFn: () => get<Data<PersonalToken[]>>('/api/auth/tokens'),
  });
  const create = useMutation({
    mutationFn: (name: string) => post<Data<CreatedPersonalToken>>('/api/auth/tokens', { name }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['tokens'] }),
  });
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    create.mutate(String(new FormData(form).get('name') ?? '').trim(), { onSuccess: () => form.reset() });
  };
  const created = create.data?.data;
  return (
    <div className="card stack">
      <h2>Personal access tokens</h2>
      <p className="muted">
        A token acts as you, with your roles, on the workspace API (<code>Authorization: Bearer pat_…</code>
        ). Use one for your own scripts; workspace automation should use a workspace API key.
      </p>
      {list.isPending && <Loading />}
      <ErrorText error={list.error} />
      {list.data && list.data.data.length === 0 && (
        <p>No tokens yet. Create one below when a script needs it.</p>
      )}
      {list.data && list.data.data.length > 0 && (
        <ul className="tokens" aria-label="Personal access tokens">
          {list.data.data.map((t) => (
            <TokenRow key={t.id} token={t} />
          ))}
        </ul>
      )}
      <form onSubmit={onSubmit} className="stack" aria-label="Create a token">
        <label>
          Token name
          <input name="name" required maxLength={100} placeholder="My laptop" />
        </label>
        <ErrorText error={create.error} />
        <div>
          <button type="submit" disabled={create.isPending}>
            Create token
          </button>
        </div>
      </form>
      {created && (
        <div className="stack" role="status">
          <p className="warn">
            <strong>Copy “{created.name}” now: you will not see it again.</strong>
          </p>
          <SecretField label="New token" value={created.token} copyLabel="Copy token">
            <button type="button" onClick={() => create.reset()}>
              Done, hide the token
            </button>
          </SecretField>
        </div>
      )}
    </div>
  );
}

function TokenRow({ token }: { token: PersonalToken }) {
  const qc = useQueryClient();
  const revoke = useMutation({
    mutationFn: () => api<void>('DELETE', `/api/auth/tokens/${token.id}`),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['tokens'] }),
  });
  return (
    <li>
      <span>
        <strong>{token.name}</strong> <span className="muted secret">…{token.last4}</span>
        <br />
        <span className="muted">
          Created {formatDate(token.createdAt)} · Last used{' '}
          {token.lastUsedAt ? formatDate(token.lastUsedAt) : 'never'}
        </span>
      </span>
      <ConfirmButton
        label="Revoke"
        ariaLabel={`Revoke ${token.name}`}
        question={`Revoke ${token.name}?`}
        confirmLabel="Revoke token"
        pending={revoke.isPending}
        onConfirm={() => revoke.mutate()}
      />
      <ErrorText error={revoke.error} />
    </li>
  );
}
