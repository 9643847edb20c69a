import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
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
  const { ws = '' } = useParams();
  const workspaces = useWorkspaces();
  const workspace = workspaces.data?.data.find((w) => w.id === ws);
  if (workspaces.isPending) return <Loading />;
  if (workspace?.role !== 'owner') {
    return (
      <section>
        <h1>Single sign-on</h1>
        <p>Only the owner of this workspace sets up single sign-on.</p>
      </section>
    );
  }
  if (workspace.plan !== 'enterprise') {
    return (
      <section>
        <h1>Single sign-on</h1>
        <p>Single sign-on (OpenID Connect and SAML) is part of the Enterprise plan.</p>
      </section>
    );
  }
  return <Connections ws={ws} />;
}

const path = (ws: string) => `/api/workspaces/${ws}/sso/connections`;

function Connections({ ws }: { ws: string }) {
  const list = useQuery({ queryKey: ['sso', ws], queryFn: () => get<{ data: SsoConnection[] }>(path(ws)) });
  return (
    <section className="sso">
      <h1>Single sign-on</h1>
      <p className="muted">
        People whose email is in a verified domain sign in through your identity provider and join this
        workspace with the connection's default role.
      </p>
      <div className="grid">
        <div>
          <h2>Connections</h2>
          {list.isPending && <Loading />}
          <ErrorText error={list.error} />
          {list.data && list.data.data.length === 0 && (
            <Empty title="No connection yet">
              <p>Add your identity provider with the form.</p>
            </Empty>
          )}
          <ul className="list" aria-label="SSO connections">
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
      setTest(
        e.data.result === 'ok'
          ? `Test sign-in worked: ${e.data.email}`
          : 'The test sign-in did not complete.',
      );
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, []);
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
    <li className="card stack" aria-label={`Connection ${c.name}`}>
      <p>
        <strong>{c.name}</strong>{' '}
        <span className="badge">{c.type === 'oidc' ? 'OpenID Connect' : 'SAML'}</span>{' '}
        <span className="muted">default role {c.defaultRole}</span>
      </p>
      {c.type === 'oidc' ? (
        <p className="muted">
          Issuer <code>{c.issuer}</code> · Redirect URI <code>{c.redirectUri}</code>
        </p>
      ) : (
        <p className="muted">
          IdP <code>{c.idpEntityId}</code> · Entity ID <code>{c.entityId}</code> · ACS URL{' '}
          <code>{c.acsUrl}</code>
        </p>
      )}
      <ul aria-label={`Domains of ${c.name}`}>
        {c.domains.map((d) => (
          <li key={d.domain}>
            <strong>{d.domain}</strong>{' '}
            {d.verified ? (
              <span className="badge">verified</span>
            ) : (
              <>
                <span className="muted">
                  TXT <code>{d.verificationRecord.name}</code> = <code>{d.verificationRecord.value}</code>
                </span>{' '}
                <button type="button" onClick={() => verify.mutate(d.domain)} disabled={verify.isPending}>
                  Verify {d.domain}
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
        Require SSO for members of these domains (you, the owner, keep your password)
      </label>
      <ErrorText error={requireSso.error ?? start.error ?? remove.error} />
      <div className="actions">
        <button type="button" onClick={runTest} disabled={start.isPending}>
          Test sign-in
        </button>
        <button type="button" onClick={() => remove.mutate()} disabled={remove.isPending}>
          Delete {c.name}
        </button>
      </div>
      {test && <p role="status">{test}</p>}
    </li>
  );
}

function CreateConnection({ ws }: { ws: string }) {
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
    <form onSubmit={onSubmit} className="card stack" aria-label="New connection">
      <h2>New connection</h2>
      <label>
        Protocol
        <select value={type} onChange={(e) => setType(e.target.value as 'oidc' | 'saml')}>
          <option value="oidc">OpenID Connect</option>
          <option value="saml">SAML 2.0</option>
        </select>
      </label>
      <label>
        Name
        <input name="name" required maxLength={100} />
      </label>
      {type === 'oidc' ? (
        <>
          <label>
            Issuer
            <input name="issuer" type="url" required placeholder="https://acme.okta.com" />
          </label>
          <label>
            Client ID
            <input name="clientId" required />
          </label>
          <label>
            Client secret
            <input name="clientSecret" type="password" required autoComplete="off" />
          </label>
        </>
      ) : (
        <>
          <label>
            Metadata URL
            <input name="metadataUrl" type="url" />
          </label>
          <label>
            or metadata XML
            <textarea name="metadataXml" rows={4} />
          </label>
        </>
      )}
      <label>
        Email domains (comma separated)
        <input name="domains" required placeholder="acme.com" />
      </label>
      <label>
        Default role
        <select name="defaultRole" defaultValue="member">
          <option value="member">Member</option>
          <option value="admin">Admin</option>
          <option value="guest">Guest</option>
        </select>
      </label>
      <ErrorText error={create.error} />
      <button type="submit" className="primary" disabled={create.isPending}>
        Add connection
      </button>
    </form>
  );
}
