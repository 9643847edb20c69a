import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ssoConnections } from '../../src/db/schema/index.ts';
import { signupUser, type TestUser } from '../support/factories.ts';
import { expectNothingStored } from '../support/stored-rows.ts';
import { insertWorkspace } from '../support/world.ts';
import { makeEnterprise, newDomain, oidcBody, type SsoWorld, ssoApp, verifiedConnection } from './helpers.ts';

/** SSO connections (docs/sso.md, docs/sso.md "Connections"): OIDC create, read, patch, delete, domains. */
let w: SsoWorld;
let owner: TestUser;
let ws: string;
beforeAll(async () => {
  w = await ssoApp();
  owner = await signupUser(w.t, { name: 'Owner' });
  ws = await insertWorkspace(w.t, owner);
  await makeEnterprise(w.t, ws);
});
afterAll(() => w.close());

const url = () => `/api/workspaces/${ws}/sso/connections`;
const post = (payload: unknown) =>
  w.t.request({ method: 'POST', url: url(), headers: owner.headers, payload: payload as object });

describe('OIDC connections', () => {
  it('creates one: discovered, secret sealed and never returned, domains with their TXT record', async () => {
    const domain = newDomain();
    const res = await post(oidcBody(w.idp, [domain.toUpperCase()]));
    expect(res.statusCode, res.body).toBe(201);
    const data = res.json().data;
    expect(data).toMatchObject({
      type: 'oidc',
      name: 'Acme IdP',
      issuer: w.idp.issuer,
      clientId: w.idp.clientId,
      redirectUri: 'http://parley.test/api/auth/sso/oidc/callback',
      defaultRole: 'member',
      requireSso: false,
    });
    expect(data.id).toMatch(/^sso_/);
    expect(JSON.stringify(data)).not.toContain(w.idp.clientSecret);
    expect(data.domains).toEqual([
      {
        domain,
        verified: false,
        verificationRecord: {
          name: `_parley-verification.${domain}`,
          value: expect.stringMatching(/^parley-verification=.+/),
        },
      },
    ]);
    const [row] = await w.t.ctx.db.select().from(ssoConnections).where(eq(ssoConnections.id, data.id));
    expect(row!.clientSecretSealed).toBeTruthy();
    expect(row!.clientSecretSealed).not.toContain(w.idp.clientSecret);
    expect(row!.oidcMetadata).toMatchObject({ issuer: w.idp.issuer });

    const list = await w.t.request({ method: 'GET', url: url(), headers: owner.headers });
    expect(list.json().data.map((c: { id: string }) => c.id)).toContain(data.id);
    const one = await w.t.request({ method: 'GET', url: `${url()}/${data.id}`, headers: owner.headers });
    expect(one.json().data).toEqual(data);
  });

  it('400 with the reason when discovery fails, and on a non-https issuer without private networks', async () => {
    const res = await post(oidcBody(w.idp, [newDomain()], { issuer: 'http://127.0.0.1:9/nothing' }));
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('bad_request:api');
    expect(res.json().error).toMatch(/Discovery/);
  });

  it('verifies a domain by its DNS TXT record; says what it found otherwise', async () => {
    const domain = newDomain();
    const created = (await post(oidcBody(w.idp, [domain]))).json().data;
    const verify = () =>
      w.t.request({
        method: 'POST',
        url: `${url()}/${created.id}/domains/${domain}/verify`,
        headers: owner.headers,
      });
    let res = await verify();
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/no TXT record/);
    const record = created.domains[0].verificationRecord;
    w.dns.records.set(record.name, ['parley-verification=wrong']);
    res = await verify();
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain('parley-verification=wrong');
    w.dns.records.set(record.name, ['v=spf1 -all', record.value]);
    res = await verify();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ data: { domain, verified: true } });
    const one = await w.t.request({ method: 'GET', url: `${url()}/${created.id}`, headers: owner.headers });
    expect(one.json().data.domains[0].verified).toBe(true);
    const unknown = await w.t.request({
      method: 'POST',
      url: `${url()}/${created.id}/domains/other.test/verify`,
      headers: owner.headers,
    });
    expect(unknown.statusCode).toBe(400);
  });

  it('409 for a domain verified by another workspace, on create and on verify', async () => {
    const domain = newDomain();
    await verifiedConnection(w, owner, ws, oidcBody(w.idp, [domain]));
    const other = await signupUser(w.t);
    const ws2 = await insertWorkspace(w.t, other);
    await makeEnterprise(w.t, ws2);
    const res = await w.t.request({
      method: 'POST',
      url: `/api/workspaces/${ws2}/sso/connections`,
      headers: other.headers,
      payload: oidcBody(w.idp, [domain]),
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('conflict:api');

    const late = newDomain();
    const a = (await post(oidcBody(w.idp, [late]))).json().data;
    const b = (
      await w.t.request({
        method: 'POST',
        url: `/api/workspaces/${ws2}/sso/connections`,
        headers: other.headers,
        payload: oidcBody(w.idp, [late]),
      })
    ).json().data;
    w.dns.records.set(`_parley-verification.${late}`, [
      a.domains[0].verificationRecord.value,
      b.domains[0].verificationRecord.value,
    ]);
    const first = await w.t.request({
      method: 'POST',
      url: `${url()}/${a.id}/domains/${late}/verify`,
      headers: owner.headers,
    });
    expect(first.statusCode).toBe(200);
    const second = await w.t.request({
      method: 'POST',
      url: `/api/workspaces/${ws2}/sso/connections/${b.id}/domains/${late}/verify`,
      headers: other.headers,
    });
    expect(second.statusCode).toBe(409);
  });

  it('PATCH: name, role, requireSso, domains (kept ones stay verified), secret; type-foreign fields 400', async () => {
    const keep = newDomain();
    const { id } = await verifiedConnection(w, owner, ws, oidcBody(w.idp, [keep]));
    const added = newDomain();
    const res = await w.t.request({
      method: 'PATCH',
      url: `${url()}/${id}`,
      headers: owner.headers,
      payload: {
        name: 'Renamed',
        defaultRole: 'guest',
        requireSso: true,
        domains: [keep, added],
        clientSecret: 'new-secret',
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ name: 'Renamed', defaultRole: 'guest', requireSso: true });
    expect(
      data.domains.map((d: { domain: string; verified: boolean }) => [d.domain, d.verified]).sort(),
    ).toEqual(
      [
        [keep, true],
        [added, false],
      ].sort(),
    );
    const bad = await w.t.request({
      method: 'PATCH',
      url: `${url()}/${id}`,
      headers: owner.headers,
      payload: { metadataXml: '<x/>' },
    });
    expect(bad.statusCode).toBe(400);
    const del = await w.t.request({ method: 'DELETE', url: `${url()}/${id}`, headers: owner.headers });
    expect(del.statusCode).toBe(204);
    const gone = await w.t.request({ method: 'GET', url: `${url()}/${id}`, headers: owner.headers });
    expect(gone.statusCode).toBe(404);
  });
});

describe('hostile input', () => {
  it('wrong types, unknown fields, bad domains, huge and unicode bodies are 400 or 413, never 500, and store nothing', async () => {
    const base = oidcBody(w.idp, [newDomain()]);
    const cases: unknown[] = [
      { ...base, type: 'ldap' },
      { ...base, name: 42 },
      { ...base, domains: 'acme.test' },
      { ...base, domains: [] },
      { ...base, domains: ['not a domain'] },
      { ...base, domains: ['localhost'] },
      { ...base, domains: ['a.test', 'a.test'] },
      { ...base, defaultRole: 'owner' },
      { ...base, issuer: 'ftp://idp.test' },
      { ...base, unknown: true },
      { ...base, name: '\u202e\u0000' },
      { type: 'saml', name: 'x', domains: ['a.test'] },
      {
        type: 'saml',
        name: 'x',
        domains: ['a.test'],
        metadataXml: '<x/>',
        metadataUrl: 'https://idp.test/m',
      },
      { type: 'saml', name: 'x', domains: ['a.test'], metadataXml: '<<<not xml' },
      [],
      'x',
    ];
    // Refused, and nothing stored: no connection, domain or event row (support/stored-rows.ts).
    for (const payload of cases) {
      const res = await expectNothingStored(w.t, () => post(payload), JSON.stringify(payload));
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
    const huge = await expectNothingStored(w.t, () => post({ ...base, name: 'x'.repeat(3 * 1024 * 1024) }));
    expect(huge.statusCode).toBe(413);
    const verifyBad = await expectNothingStored(w.t, () =>
      w.t.request({
        method: 'POST',
        url: `${url()}/sso_nothing/domains/${'x'.repeat(300)}/verify`,
        headers: owner.headers,
      }),
    );
    expect([400, 404]).toContain(verifyBad.statusCode);
  });
});
