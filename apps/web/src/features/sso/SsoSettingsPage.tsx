import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { type Data, del, get, patch, post } from '../../api.ts';
import { useWorkspaces } from '../../session.ts';
import { Empty, ErrorText, Loading } from '../../shell/ui.tsx';
import type { CreateSsoConnection, SsoConnection, SsoTestMessage } from './types.ts';
import './sso.css';

/**
 * Single sign-on settings (docs/sso.md), the workspace owner's, on Enterprise: connections
 * (OpenID Connect or SAML), their domains' DNS verification, "SSO required", and a test sign-in
 * in a popup.
 */
export function SsoSettingsPage() {
  const { t } = useTranslation('sso');
  const { ws = '' } = useParams();
  const workspaces = useWorkspaces();
  const workspace = workspaces.data?.data.find((w) => w.id === ws);
  if (workspaces.isPending) return <Loading />;
  if (workspace?.role !== 'owner') {
    return (
      <section>
        <h1>{t('title')}</h1>
        <p>{t('ownerOnly')}</p>
      </section>
    );
  }
  if (workspace.plan !== 'enterprise') {
    return (
      <section>
        <h1>{t('title')}</h1>
        <p>{t('enterprise')}</p>
      </section>
    );
  }
  return <Connections ws={ws} />;
}

const path = (ws: string) => `/api/workspaces/${ws}/sso/connections`;

function Connections({ ws }: { ws: string }) {
  const { t } = useTranslation('sso');
  const list = useQuery({ queryKey: ['sso', ws], queryFn: () => get<{ data: SsoConnection[] }>(path(ws)) });
  return (
    <section className="sso">
      <h1>{t('title')}</h1>
      <p className="muted">{t('intro')}</p>
      <div className="grid">
        <div>
          <h2>{t('connections')}</h2>
          {list.isPending && <Loading />}
          <ErrorText error={list.error} />
          {list.data && list.data.data.length === 0 && (
            <Empty title={t('empty')}>
              <p>{t('emptyText')}</p>
            </Empty>
          )}
          <ul className="list" aria-label={t('list')}>
            {list.data?.data.map((c) => (
              <ConnectionCard key={c.id} ws={ws} connection={c} />
            ))}
          </ul>
        </div>
        <CreateConnection ws={ws} />
      </div>
    </section>
  );
}

function ConnectionCard({ ws, connection: c }: { ws: string; connection: SsoConnection }) {
  const { t } = useTranslation(['sso', 'shell']);
  const qc = useQueryClient();
  const refresh = () => qc.invalidateQueries({ queryKey: ['sso', ws] });
  const [test, setTest] = useState<string | null>(null);
  const verify = useMutation({
    mutationFn: (domain: string) => post(`${path(ws)}/${c.id}/domains/${encodeURIComponent(domain)}/verify`),
    onSuccess: refresh,
  });
  const requireSso = useMutation({
    mutationFn: (value: boolean) => patch(`${path(ws)}/${c.id}`, { requireSso: value }),
    onSuccess: refresh,
  });
  const remove = useMutation({ mutationFn: () => del(`${path(ws)}/${c.id}`), onSuccess: refresh });
  const start = useMutation({
    mutationFn: () => post<Data<{ url: string }>>(`${path(ws)}/${c.id}/test`),
  });
  useEffect(() => {
    const onMessage = (e: MessageEvent<SsoTestMessage>) => {
      if (e.origin !== window.location.origin || e.data?.type !== 'parley-sso-test') return;
      setTest(e.data.result === 'ok' ? t('card.testWorked', { email: e.data.email }) : t('card.testFailed'));
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [t]);
  const runTest = () => {
    setTest(null);
    // Opened at the click, so the browser lets it through; the provider's URL follows.
    const popup = window.open('about:blank', `parley-sso-test-${c.id}`, 'width=520,height=680');
    start.mutate(undefined, {
      onSuccess: (res) => {
        if (popup) popup.location.href = res.data.url;
      },
      onError: () => popup?.close(),
    });
  };
  return (
    <li className="card stack" aria-label={t('card.label', { name: c.name })}>
      <p>
        <strong>{c.name}</strong>{' '}
        <span className="badge">{c.type === 'oidc' ? 'OpenID Connect' : 'SAML'}</span>{' '}
        <span className="muted">{t('card.defaultRole', { role: t(`shell:roles.${c.defaultRole}`) })}</span>
      </p>
      {c.type === 'oidc' ? (
        <p className="muted">
          {t('card.issuer')} <code>{c.issuer}</code> · {t('card.redirectUri')} <code>{c.redirectUri}</code>
        </p>
      ) : (
        <p className="muted">
          {t('card.idp')} <code>{c.idpEntityId}</code> · {t('card.entityId')} <code>{c.entityId}</code> ·{' '}
          {t('card.acsUrl')} <code>{c.acsUrl}</code>
        </p>
      )}
      <ul aria-label={t('card.domains', { name: c.name })}>
        {c.domains.map((d) => (
          <li key={d.domain}>
            <strong>{d.domain}</strong>{' '}
            {d.verified ? (
              <span className="badge">{t('card.verified')}</span>
            ) : (
              <>
                <span className="muted">
                  TXT <code>{d.verificationRecord.name}</code> = <code>{d.verificationRecord.value}</code>
                </span>{' '}
                <button type="button" onClick={() => verify.mutate(d.domain)} disabled={verify.isPending}>
                  {t('card.verify', { domain: d.domain })}
                </button>
              </>
            )}
          </li>
        ))}
      </ul>
      <ErrorText error={verify.error} />
      <label className="check">
        <input
          type="checkbox"
          checked={c.requireSso}
          onChange={(e) => requireSso.mutate(e.target.checked)}
          disabled={requireSso.isPending}
        />{' '}
        {t('card.requireSso')}
      </label>
      <ErrorText error={requireSso.error ?? start.error ?? remove.error} />
      <div className="actions">
        <button type="button" onClick={runTest} disabled={start.isPending}>
          {t('card.test')}
        </button>
        <button type="button" onClick={() => remove.mutate()} disabled={remove.isPending}>
          {t('card.delete', { name: c.name })}
        </button>
      </div>
      {test && <p role="status">{test}</p>}
    </li>
  );
}

function CreateConnection({ ws }: { ws: string }) {
  const { t } = useTranslation('sso');
  const qc = useQueryClient();
  const [type, setType] = useState<'oidc' | 'saml'>('oidc');
  const create = useMutation({
    mutationFn: (body: CreateSsoConnection) => post<Data<SsoConnection>>(path(ws), body),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['sso', ws] }),
  });
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = Object.fromEntries(new FormData(e.currentTarget)) as Record<string, string>;
    const domains = (f.domains ?? '')
      .split(/[\s,]+/)
      .map((d) => d.trim())
      .filter(Boolean);
    const base = {
      name: f.name ?? '',
      domains,
      defaultRole: f.defaultRole as SsoConnection['defaultRole'],
    };
    const body: CreateSsoConnection =
      type === 'oidc'
        ? {
            ...base,
            type,
            issuer: f.issuer ?? '',
            clientId: f.clientId ?? '',
            clientSecret: f.clientSecret ?? '',
          }
        : f.metadataUrl
          ? { ...base, type, metadataUrl: f.metadataUrl }
          : { ...base, type, metadataXml: f.metadataXml };
    create.mutate(body, { onSuccess: () => (e.target as HTMLFormElement).reset() });
  };
  return (
    <form onSubmit={onSubmit} className="card stack" aria-label={t('form.title')}>
      <h2>{t('form.title')}</h2>
      <label>
        {t('form.protocol')}
        <select value={type} onChange={(e) => setType(e.target.value as 'oidc' | 'saml')}>
          <option value="oidc">OpenID Connect</option>
          <option value="saml">SAML 2.0</option>
        </select>
      </label>
      <label>
        {t('form.name')}
        <input name="name" required maxLength={100} />
      </label>
      {type === 'oidc' ? (
        <>
          <label>
            {t('form.issuer')}
            <input name="issuer" type="url" required placeholder="https://acme.okta.com" />
          </label>
          <label>
            {t('form.clientId')}
            <input name="clientId" required />
          </label>
          <label>
            {t('form.clientSecret')}
            <input name="clientSecret" type="password" required autoComplete="off" />
          </label>
        </>
      ) : (
        <>
          <label>
            {t('form.metadataUrl')}
            <input name="metadataUrl" type="url" />
          </label>
          <label>
            {t('form.metadataXml')}
            <textarea name="metadataXml" rows={4} />
          </label>
        </>
      )}
      <label>
        {t('form.domains')}
        <input name="domains" required placeholder="acme.com" />
      </label>
      <label>
        {t('form.defaultRole')}
        <select name="defaultRole" defaultValue="member">
          <option value="member">{t('form.roles.member')}</option>
          <option value="admin">{t('form.roles.admin')}</option>
          <option value="guest">{t('form.roles.guest')}</option>
        </select>
      </label>
      <ErrorText error={create.error} />
      <button type="submit" className="primary" disabled={create.isPending}>
        {t('form.add')}
      </button>
    </form>
  );
}
