import type { ConnectionOut, CreateBody, PatchBody } from '@parley/contract/sso';
import type { AppContext } from '../../context.ts';
import { isUniqueViolation } from '../../db/client.ts';
import { iso } from '../../http/envelope.ts';
import { badRequest, conflict } from '../../http/errors.ts';
import { now } from '../../lib/clock.ts';
import { encrypt, randomToken } from '../../lib/crypto.ts';
import { newId } from '../../lib/ids.ts';
import { fetchOutbound } from '../../lib/outbound/fetch.ts';
import { txtRecords } from '../../providers/identity/dns.ts';
import { IdentityError } from '../../providers/identity/errors.ts';
import { discover } from '../../providers/identity/oidc.ts';
import { type IdpMetadata, parseIdpMetadata } from '../../providers/identity/saml.ts';
import { clientSecretOf } from './secrets.ts';
import * as repo from './sso.repo.ts';

/**
 * SSO connections (docs/sso.md "Connections"): owners of Enterprise workspaces
 * (the tenant guard checks both). Discovery or metadata parsing runs on create and on a changed
 * issuer or metadata, before the transaction; the client secret is stored sealed (AES-256-GCM).
 */

const guard = (ctx: AppContext) => ({ allowPrivateNetworks: ctx.config.webhooks.allowPrivateNetworks });
export const VERIFY_NAME = (domain: string) => `_parley-verification.${domain}`;
const VERIFY_VALUE = (token: string) => `parley-verification=${token}`;

export const spUrls = (base: string, id: string) => ({
  entityId: `${base}/api/auth/sso/saml/${id}`,
  acsUrl: `${base}/api/auth/sso/saml/${id}/acs`,
  metadataUrl: `${base}/api/auth/sso/saml/${id}/metadata`,
});
export const oidcRedirectUri = (base: string) => `${base}/api/auth/sso/oidc/callback`;

export function toConnection(
  row: repo.ConnectionRow,
  domains: repo.DomainRow[],
  base: string,
): ConnectionOut {
  const out: ConnectionOut = {
    id: row.id,
    type: row.type,
    name: row.name,
    domains: domains
      .filter((d) => d.connectionId === row.id)
      .map((d) => ({
        domain: d.domain,
        verified: d.verifiedAt !== null,
        verificationRecord: { name: VERIFY_NAME(d.domain), value: VERIFY_VALUE(d.token) },
      })),
    defaultRole: row.defaultRole,
    requireSso: row.requireSso,
    createdAt: iso(row.createdAt),
  };
  if (row.type === 'oidc') {
    return {
      ...out,
      issuer: row.issuer ?? '',
      clientId: row.clientId ?? '',
      redirectUri: oidcRedirectUri(base),
    };
  }
  const { entityId, acsUrl, metadataUrl } = spUrls(base, row.id);
  return { ...out, idpEntityId: row.idpEntityId ?? '', entityId, acsUrl, metadataUrl };
}

async function oidcMetadata(ctx: AppContext, issuer: string, clientId: string, clientSecret: string) {
  try {
    return await discover(issuer, clientId, clientSecret, guard(ctx));
  } catch (err) {
    if (err instanceof IdentityError) throw badRequest(err.message, { issuer: err.message });
    throw err;
  }
}

async function samlMetadata(ctx: AppContext, input: { metadataXml?: string; metadataUrl?: string }) {
  let xml = input.metadataXml;
  const field = xml !== undefined ? 'metadataXml' : 'metadataUrl';
  try {
    if (xml === undefined && input.metadataUrl) {
      const url = new URL(input.metadataUrl);
      if (url.protocol !== 'https:' && !guard(ctx).allowPrivateNetworks) {
        throw new IdentityError('The metadata URL must be https://');
      }
      const res = await fetchOutbound(input.metadataUrl, {
        ...guard(ctx),
        timeoutMs: 10_000,
        maxBytes: 1_000_000,
      });
      if (res.status !== 200) throw new IdentityError(`The metadata URL answered HTTP ${res.status}`);
      xml = res.body.toString('utf8');
    }
    return { xml: xml ?? '', idp: parseIdpMetadata(xml ?? '') };
  } catch (err) {
    if (err instanceof IdentityError) throw badRequest(err.message, { [field]: err.message });
    if (err instanceof Error && err.name !== 'TypeError') {
      throw badRequest(`The metadata URL could not be read: ${err.message}`, { metadataUrl: err.message });
    }
    throw err;
  }
}

const samlColumns = (xml: string, url: string | undefined, idp: IdpMetadata) => ({
  metadataXml: xml,
  metadataUrl: url ?? null,
  idpEntityId: idp.entityId,
  idpSsoUrl: idp.ssoUrl,
  idpCerts: idp.certs,
});

/** A domain verified by another workspace's connection is that workspace's (409). */
async function assertDomainsFree(ctx: AppContext, workspaceId: string, domains: string[]) {
  for (const domain of domains) {
    const owner = await repo.connectionForDomain(ctx.db, domain);
    if (owner && owner.workspaceId !== workspaceId) {
      throw conflict(`${domain} is verified by another workspace`, { domains: `${domain} is taken` });
    }
  }
}

export async function createConnection(ctx: AppContext, workspaceId: string, body: CreateBody) {
  await assertDomainsFree(ctx, workspaceId, body.domains);
  const id = newId('sso');
  const at = now();
  const common = {
    id,
    workspaceId,
    type: body.type,
    name: body.name,
    defaultRole: body.defaultRole ?? 'member',
    createdAt: at,
    updatedAt: at,
  };
  let row: typeof common & Record<string, unknown>;
  if (body.type === 'oidc') {
    const metadata = await oidcMetadata(ctx, body.issuer, body.clientId, body.clientSecret);
    row = {
      ...common,
      issuer: body.issuer,
      clientId: body.clientId,
      clientSecretSealed: encrypt(ctx.config.encryptionKey, body.clientSecret),
      oidcMetadata: metadata,
    };
  } else {
    const { xml, idp } = await samlMetadata(ctx, body);
    row = { ...common, ...samlColumns(xml, body.metadataUrl, idp) };
  }
  return ctx.db.transaction(async (tx) => {
    const saved = await repo.insertConnection(tx, row as Parameters<typeof repo.insertConnection>[1]);
    await repo.insertDomains(
      tx,
      body.domains.map((domain) => ({ connectionId: id, workspaceId, domain, token: randomToken('', 18) })),
    );
    return saved;
  });
}

export async function patchConnection(ctx: AppContext, row: repo.ConnectionRow, body: PatchBody) {
  const oidcOnly = ['issuer', 'clientId', 'clientSecret'] as const;
  const samlOnly = ['metadataXml', 'metadataUrl'] as const;
  const foreign = (row.type === 'oidc' ? samlOnly : oidcOnly).filter((k) => body[k] !== undefined);
  if (foreign.length > 0) {
    throw badRequest(
      'Not a field of this connection type',
      Object.fromEntries(foreign.map((k) => [k, `Not a ${row.type} field`])),
    );
  }
  if (body.metadataXml !== undefined && body.metadataUrl !== undefined) {
    throw badRequest('One of metadataXml and metadataUrl', {
      metadataXml: 'Exactly one of metadataXml and metadataUrl',
    });
  }
  if (body.domains) await assertDomainsFree(ctx, row.workspaceId, body.domains);
  const set: Partial<repo.ConnectionRow> = { updatedAt: now() };
  if (body.name !== undefined) set.name = body.name;
  if (body.defaultRole !== undefined) set.defaultRole = body.defaultRole;
  if (body.requireSso !== undefined) set.requireSso = body.requireSso;
  if (row.type === 'oidc' && (body.issuer || body.clientId || body.clientSecret)) {
    const secret = body.clientSecret ?? clientSecretOf(ctx, row);
    const issuer = body.issuer ?? row.issuer ?? '';
    const clientId = body.clientId ?? row.clientId ?? '';
    if (body.issuer !== undefined && body.issuer !== row.issuer) {
      set.oidcMetadata = await oidcMetadata(ctx, issuer, clientId, secret);
    }
    Object.assign(set, { issuer, clientId, clientSecretSealed: encrypt(ctx.config.encryptionKey, secret) });
  }
  if (row.type === 'saml' && (body.metadataXml !== undefined || body.metadataUrl !== undefined)) {
    const { xml, idp } = await samlMetadata(ctx, body);
    Object.assign(set, samlColumns(xml, body.metadataUrl, idp));
  }
  return ctx.db.transaction(async (tx) => {
    const saved = await repo.updateConnection(tx, row.workspaceId, row.id, set);
    if (body.domains) {
      await repo.deleteDomainsExcept(tx, row.workspaceId, row.id, body.domains);
      await repo.insertDomains(
        tx,
        body.domains.map((domain) => ({
          connectionId: row.id,
          workspaceId: row.workspaceId,
          domain,
          token: randomToken('', 18),
        })),
      );
    }
    return saved ?? row;
  });
}

export const deleteConnection = (ctx: AppContext, row: repo.ConnectionRow) =>
  repo.deleteConnection(ctx.db, row.workspaceId, row.id);

export const listConnections = (ctx: AppContext, workspaceId: string) =>
  repo.listConnections(ctx.db, workspaceId);
export const domainsOf = (ctx: AppContext, workspaceId: string, ids: string[]) =>
  repo.domainsOf(ctx.db, workspaceId, ids);

/**
 * Looks up `_parley-verification.{domain}` TXT; the record found marks the domain verified.
 * 400 says what was found instead; 409 when another workspace verified it first.
 */
export async function verifyDomain(ctx: AppContext, row: repo.ConnectionRow, domain: string) {
  const d = (await repo.domainsOf(ctx.db, row.workspaceId, [row.id])).find(
    (x) => x.domain === domain.toLowerCase(),
  );
  if (!d) throw badRequest('Not a domain of this connection', { domain: 'Not a domain of this connection' });
  if (d.verifiedAt) return { domain: d.domain, verified: true as const };
  const name = VERIFY_NAME(d.domain);
  const expected = VERIFY_VALUE(d.token);
  let found: string[];
  try {
    found = await txtRecords(name, ctx.config.sso.dnsServers);
  } catch (err) {
    const code = (err as { code?: string }).code ?? 'error';
    throw badRequest(`The DNS lookup of ${name} failed (${code})`, { domain: `DNS lookup failed (${code})` });
  }
  if (!found.includes(expected)) {
    const seen =
      found.length > 0
        ? `found ${found.map((f) => JSON.stringify(f.slice(0, 100))).join(', ')}`
        : 'no TXT record';
    throw badRequest(`The TXT record of ${name} is not ${expected}: ${seen}`, { domain: seen });
  }
  try {
    await repo.markVerified(ctx.db, row.workspaceId, row.id, d.domain, now());
  } catch (err) {
    if (isUniqueViolation(err))
      throw conflict(`${d.domain} is verified by another connection`, { domain: 'Taken' });
    throw err;
  }
  return { domain: d.domain, verified: true as const };
}
