import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ApiError, api, canManage, type Data, get, type OffsetPage, post } from '../../api.ts';
import { i18n } from '../../i18n/index.ts';
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
  const { t } = useTranslation('api-keys');
  const { ws = '' } = useParams();
  const workspaces = useWorkspaces();
  const workspace = workspaces.data?.data.find((w) => w.id === ws);
  if (workspaces.isPending) return <Loading />;
  if (!canManage(workspace?.role)) {
    return (
      <section>
        <h1>{t('title')}</h1>
        <p>{t('notAllowed')}</p>
      </section>
    );
  }
  return <ManageKeys ws={ws} plan={workspace?.plan ?? ''} />;
}

function ManageKeys({ ws, plan }: { ws: string; plan: string }) {
  const { t } = useTranslation('api-keys');
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
      <h1>{t('title')}</h1>
      <p className="muted">
        <Trans t={t} i18nKey="intro" components={{ code: <code /> }} />
      </p>
      <div className="grid">
        <div>
          <h2>{list.data ? t('keysCount', { count: total }) : t('keys')}</h2>
          {list.isPending && <Loading />}
          <ErrorText error={list.error} />
          {list.data && total === 0 && (
            <Empty title={t('none')}>
              <p>{t('noneText')}</p>
            </Empty>
          )}
          {list.data && list.data.data.length > 0 && (
            <ul className="people" aria-label={t('list')}>
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
  const { t } = useTranslation('api-keys');
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
        <ul className="scopes" aria-label={t('scopesOf', { name: apiKey.name })}>
          {apiKey.scopes.map((s) => (
            <li key={s} className="badge">
              {s}
            </li>
          ))}
        </ul>
        <p className="muted">
          {t('used', {
            created: formatDate(apiKey.createdAt),
            used: apiKey.lastUsedAt ? formatDate(apiKey.lastUsedAt) : t('never'),
          })}
        </p>
      </div>
      <div className="actions">
        <ConfirmButton
          label={t('revoke')}
          ariaLabel={t('revokeName', { name: apiKey.name })}
          question={t('revokeQuestion', { name: apiKey.name })}
          confirmLabel={t('revokeConfirm')}
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
    return i18n.t('api-keys:planRefused');
  }
  return err;
}

function CreateKey({ ws, plan }: { ws: string; plan: string }) {
  const { t } = useTranslation('api-keys');
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
          <h2>{t('created', { name: created.name })}</h2>
          <p className="warn">
            <Trans t={t} i18nKey="copyNow" components={{ strong: <strong /> }} />
          </p>
          <SecretField label={t('key')} value={created.key} copyLabel={t('copy')} inputRef={keyInput}>
            <button type="button" onClick={() => create.reset()}>
              {t('hide')}
            </button>
          </SecretField>
        </div>
      )}
      <form onSubmit={onSubmit} className="card stack" aria-labelledby="create-key-title">
        <h2 id="create-key-title">{t('create')}</h2>
        <label>
          {t('name')}
          <input name="name" required maxLength={100} placeholder="Zapier" />
        </label>
        <fieldset className="scope-list">
          <legend>{t('scopes')}</legend>
          {SCOPES.map((s) => (
            <label key={s.id} className="check">
              <input type="checkbox" name="scopes" value={s.id} />
              <span>
                <code>{s.id}</code>: {t(`scope.${s.what}`)}
                {s.write && <span className="muted">{t('writePlan')}</span>}
              </span>
            </label>
          ))}
        </fieldset>
        {plan === 'free' && <p className="muted">{t('freePlan')}</p>}
        {missing && (
          <p className="error" role="alert">
            {t('chooseScope')}
          </p>
        )}
        <ErrorText error={createError(create.error)} />
        <div>
          <button type="submit" className="primary" disabled={create.isPending}>
            {t('createButton')}
          </button>
        </div>
      </form>
    </div>
  );
}
