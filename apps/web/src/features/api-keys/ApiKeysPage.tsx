import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useParams } from 'react-router';
import { ApiError, api, canManage, type Data, get, type OffsetPage, post } from '../../api.ts';
import { useWorkspaces } from '../../session.ts';
import { SecretField } from '../../shell/SecretField.tsx';
import { Empty, ErrorText, Loading, Pager } from '../../shell/ui.tsx';
import { ConfirmButton } from '../members/ConfirmButton.tsx';
import { formatDate } from '../members/types.ts';
import { type ApiKey, type CreatedApiKey, SCOPES, type Scope } from './types.ts';
import '../members/team.css';

const LIMIT = 20;

/**
 * Workspace API keys (docs/api-keys.md), owners and admins only: list, create with scopes (the
 * key shown once), revoke. Anyone else reaching the address is told who manages keys.
 */
export function ApiKeysPage() {
  const { ws = '' } = useParams();
  const workspaces = useWorkspaces();
  const workspace = workspaces.data?.data.find((w) => w.id === ws);
  if (workspaces.isPending) return <Loading />;
  if (!canManage(workspace?.role)) {
    return (
      <section>
        <h1>API keys</h1>
        <p>Only owners and admins of this workspace manage its API keys. Ask one of them for a key.</p>
      </section>
    );
  }
  return <ManageKeys ws={ws} plan={workspace?.plan ?? ''} />;
}

function ManageKeys({ ws, plan }: { ws: string; plan: string }) {
  const [offset, setOffset] = useState(0);
  const list = useQuery({
    queryKey: ['api-keys', ws, offset],
    queryFn: () => get<OffsetPage<ApiKey>>(`/api/workspaces/${ws}/api-keys?limit=${LIMIT}&offset=${offset}`),
    placeholderData: keepPreviousData,
  });
  const total = list.data?.total ?? 0;
  const past = Boolean(list.data) && offset > 0 && offset >= total;
  useEffect(() => {
    if (past) setOffset((o) => Math.max(0, o - LIMIT));
  }, [past]);
  return (
    <section>
      <h1>API keys</h1>
      <p className="muted">
        Keys let automation tools (Zapier, Make, n8n, your scripts) use this workspace through{' '}
        <code>/api/v1</code> with <code>Authorization: Bearer wsk_live_…</code>. Any key may read; scopes
        grant writes.
      </p>
      <div className="grid">
        <div>
          <h2>Keys{list.data ? ` (${total})` : ''}</h2>
          {list.isPending && <Loading />}
          <ErrorText error={list.error} />
          {list.data && total === 0 && (
            <Empty title="No API keys yet">
              <p>
                Create a key with the form, then paste it into the tool that should act for this workspace.
              </p>
            </Empty>
          )}
          {list.data && list.data.data.length > 0 && (
            <ul className="people" aria-label="API keys">
              {list.data.data.map((k) => (
                <KeyRow key={k.id} ws={ws} apiKey={k} />
              ))}
            </ul>
          )}
          {list.data && <Pager page={list.data} onChange={setOffset} />}
        </div>
        <CreateKey ws={ws} plan={plan} />
      </div>
    </section>
  );
}

function KeyRow({ ws, apiKey }: { ws: string; apiKey: ApiKey }) {
  const qc = useQueryClient();
  const revoke = useMutation({
    mutationFn: () => api<void>('DELETE', `/api/workspaces/${ws}/api-keys/${apiKey.id}`),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['api-keys', ws] }),
  });
  return (
    <li className="card person">
      <div className="who">
        <p>
          <strong>{apiKey.name}</strong> <span className="muted secret">…{apiKey.last4}</span>
        </p>
        <ul className="scopes" aria-label={`Scopes of ${apiKey.name}`}>
          {apiKey.scopes.map((s) => (
            <li key={s} className="badge">
              {s}
            </li>
          ))}
        </ul>
        <p className="muted">
          Created {formatDate(apiKey.createdAt)} · Last used{' '}
          {apiKey.lastUsedAt ? formatDate(apiKey.lastUsedAt) : 'never'}
        </p>
      </div>
      <div className="actions">
        <ConfirmButton
          label="Revoke"
          ariaLabel={`Revoke ${apiKey.name}`}
          question={`Revoke ${apiKey.name}? Whatever uses it stops working at once.`}
          confirmLabel="Revoke key"
          pending={revoke.isPending}
          onConfirm={() => revoke.mutate()}
        />
      </div>
      <ErrorText error={revoke.error} />
    </li>
  );
}

/** A plan refusal (403 `plan_upgrade_required`) in words; anything else as the API says it. */
function createError(err: unknown): unknown {
  if (err instanceof ApiError && err.code === 'plan_upgrade_required') {
    return 'Write scopes need the Pro or Enterprise plan, which this workspace does not have. Upgrade, or create a key with events:read only.';
  }
  return err;
}

function CreateKey({ ws, plan }: { ws: string; plan: string }) {
  const qc = useQueryClient();
  const [missing, setMissing] = useState(false);
  const create = useMutation({
    mutationFn: (body: { name: string; scopes: Scope[] }) =>
      post<Data<CreatedApiKey>>(`/api/workspaces/${ws}/api-keys`, body),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['api-keys', ws] }),
  });
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    const scopes = f.getAll('scopes') as Scope[];
    setMissing(scopes.length === 0);
    if (scopes.length === 0) return;
    create.mutate({ name: String(f.get('name') ?? '').trim(), scopes }, { onSuccess: () => form.reset() });
  };
  const created = create.data?.data;
  const keyInput = useRef<HTMLInputElement>(null);
  // Bring the new key into view, selected, ready to copy.
  useEffect(() => {
    if (created) keyInput.current?.focus();
  }, [created]);
  return (
    <div className="stack">
      {created && (
        <div className="card stack" role="status">
          <h2>Key “{created.name}” created</h2>
          <p className="warn">
            <strong>Copy it now: you will not see it again.</strong> Parley keeps only a fingerprint of it. If
            you lose it, create a new key and revoke this one.
          </p>
          <SecretField label="API key" value={created.key} copyLabel="Copy key" inputRef={keyInput}>
            <button type="button" onClick={() => create.reset()}>
              Done, hide the key
            </button>
          </SecretField>
        </div>
      )}
      <form onSubmit={onSubmit} className="card stack" aria-labelledby="create-key-title">
        <h2 id="create-key-title">Create a key</h2>
        <label>
          Key name
          <input name="name" required maxLength={100} placeholder="Zapier" />
        </label>
        <fieldset className="scope-list">
          <legend>Scopes</legend>
          {SCOPES.map((s) => (
            <label key={s.id} className="check">
              <input type="checkbox" name="scopes" value={s.id} />
              <span>
                <code>{s.id}</code>: {s.what}
                {s.write && <span className="muted"> (Pro or Enterprise plan)</span>}
              </span>
            </label>
          ))}
        </fieldset>
        {plan === 'free' && (
          <p className="muted">This workspace is on the Free plan: only events:read is available.</p>
        )}
        {missing && (
          <p className="error" role="alert">
            Choose at least one scope.
          </p>
        )}
        <ErrorText error={createError(create.error)} />
        <div>
          <button type="submit" className="primary" disabled={create.isPending}>
            Create key
          </button>
        </div>
      </form>
    </div>
  );
}
