import { randomBytes } from 'node:crypto';
import { applyPlan } from '../../src/features/billing/plan-change.ts';
import type { TestUser } from '../support/factories.ts';
import { createTestApp, ORIGIN, type TestApp } from '../support/harness.ts';
import { startOidcProvider, type TestOidcProvider } from '../support/oidc-provider.ts';
import { startDns, type TestDns } from './dns-server.ts';

export const CALLBACK = `${ORIGIN}/api/auth/sso/oidc/callback`;

export type SsoWorld = { t: TestApp; idp: TestOidcProvider; dns: TestDns; close(): Promise<void> };

/** The app with a local DNS server for domain verification and a local OpenID Connect provider. */
export async function ssoApp(): Promise<SsoWorld> {
  const dns = await startDns();
  const idp = await startOidcProvider([CALLBACK]);
  const t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', SSO_DNS_SERVERS: dns.server });
  return {
    t,
    idp,
    dns,
    close: async () => {
      await t.close();
      await idp.close();
      await dns.close();
    },
  };
}

/** Enterprise through the operator command's function (features/billing/plan-change.ts). */
export const makeEnterprise = (t: TestApp, workspaceId: string) =>
  applyPlan(t.ctx, workspaceId, 'enterprise');

export const oidcBody = (idp: TestOidcProvider, domains: string[], extra: Record<string, unknown> = {}) => ({
  type: 'oidc',
  name: 'Acme IdP',
  issuer: idp.issuer,
  clientId: idp.clientId,
  clientSecret: idp.clientSecret,
  domains,
  ...extra,
});

/** A domain nobody else in this run uses (verified domains are unique across workspaces). */
export const newDomain = (tag = 'acme') => `${tag}-${randomBytes(6).toString('hex')}.test`;

/** Creates a connection as `owner` and verifies each domain through the local DNS server. */
export async function verifiedConnection(
  w: SsoWorld,
  owner: TestUser,
  workspaceId: string,
  body: Record<string, unknown>,
): Promise<{ id: string; data: Record<string, unknown> }> {
  const res = await w.t.request({
    method: 'POST',
    url: `/api/workspaces/${workspaceId}/sso/connections`,
    headers: owner.headers,
    payload: body,
  });
  if (res.statusCode !== 201) throw new Error(`create failed: ${res.statusCode} ${res.body}`);
  const data = res.json().data;
  for (const d of data.domains as Array<{
    domain: string;
    verificationRecord: { name: string; value: string };
  }>) {
    w.dns.records.set(d.verificationRecord.name, [d.verificationRecord.value]);
    const v = await w.t.request({
      method: 'POST',
      url: `/api/workspaces/${workspaceId}/sso/connections/${data.id}/domains/${d.domain}/verify`,
      headers: owner.headers,
    });
    if (v.statusCode !== 200) throw new Error(`verify failed: ${v.statusCode} ${v.body}`);
  }
  return { id: data.id, data };
}
