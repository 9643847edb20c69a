import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signupUser, type TestUser } from '../support/factories.ts';
import { rsaKeyPair, startSamlIdp, type TestSamlIdp } from '../support/saml-idp.ts';
import { expectNothingStored } from '../support/stored-rows.ts';
import { insertWorkspace } from '../support/world.ts';
import { makeEnterprise, newDomain, type SsoWorld, ssoApp, verifiedConnection } from './helpers.ts';

/**
 * SAML sign-in (docs/sso.md "Signing in"): SP-initiated against a local IdP that signs its
 * assertions with xml-crypto; every refusal is a 302 to /sign-in?error=sso_failed and no session.
 */
let w: SsoWorld;
let idp: TestSamlIdp;
let owner: TestUser;
let ws: string;
let domain: string;
let connection: Record<string, unknown> & { id: string };
beforeAll(async () => {
  w = await ssoApp();
  idp = await startSamlIdp();
  owner = await signupUser(w.t, { name: 'Owner' });
  ws = await insertWorkspace(w.t, owner);
  await makeEnterprise(w.t, ws);
  domain = newDomain();
  const made = await verifiedConnection(w, owner, ws, {
    type: 'saml',
    name: 'Acme SAML',
    metadataUrl: idp.metadataUrl,
    domains: [domain],
    defaultRole: 'guest',
  });
  connection = { ...made.data, id: made.id };
});
afterAll(async () => {
  await w.close();
  await idp.close();
});

const FAILED = 'http://parley.test/sign-in?error=sso_failed';
const sessionOf = (res: { cookies: Array<{ name: string; value: string }> }) =>
  res.cookies.find((c) => c.name === 'parley.session-token' && c.value)?.value;

async function start(email: string) {
  const res = await w.t.request({ method: 'POST', url: '/api/auth/sso/start', payload: { email } });
  expect(res.statusCode, res.body).toBe(200);
  return idp.readRequest(res.json().data.url);
}

/** The browser's form post of the IdP's answer to the ACS URL (cross-site: no Origin of ours). */
function post(samlResponse: string) {
  return w.t.app.inject({
    method: 'POST',
    url: `/api/auth/sso/saml/${connection.id}/acs`,
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://127.0.0.1' },
    payload: new URLSearchParams({ SAMLResponse: samlResponse, RelayState: '' }).toString(),
  });
}

describe('SAML connection', () => {
  it('reads the metadata: idpEntityId, and the service provider entityId, acsUrl and public metadata', async () => {
    expect(connection).toMatchObject({
      type: 'saml',
      idpEntityId: idp.entityId,
      entityId: `http://parley.test/api/auth/sso/saml/${connection.id}`,
      acsUrl: `http://parley.test/api/auth/sso/saml/${connection.id}/acs`,
      metadataUrl: `http://parley.test/api/auth/sso/saml/${connection.id}/metadata`,
      defaultRole: 'guest',
    });
    const md = await w.t.request({ method: 'GET', url: `/api/auth/sso/saml/${connection.id}/metadata` });
    expect(md.statusCode).toBe(200);
    expect(md.body).toContain(String(connection.acsUrl));
    expect(md.body).toContain(`entityID="${connection.entityId}"`);
    const bad = await w.t.request({
      method: 'POST',
      url: `/api/workspaces/${ws}/sso/connections`,
      headers: owner.headers,
      payload: {
        type: 'saml',
        name: 'x',
        domains: [newDomain()],
        metadataXml: idp.metadataXml.replace(/<md:KeyDescriptor[\s\S]*?<\/md:KeyDescriptor>/, ''),
      },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatch(/signing certificate/);
    const noRedirect = idp.metadataXml.replace(
      /<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect"[^>]*>/,
      '',
    );
    const bad2 = await w.t.request({
      method: 'POST',
      url: `/api/workspaces/${ws}/sso/connections`,
      headers: owner.headers,
      payload: { type: 'saml', name: 'x', domains: [newDomain()], metadataXml: noRedirect },
    });
    expect(bad2.statusCode).toBe(400);
    expect(bad2.json().error).toMatch(/HTTP-Redirect/);
  });
});

describe('SAML sign-in', () => {
  it('the AuthnRequest: our entityId as Issuer, our acsUrl; a signed answer signs the person in as a guest', async () => {
    const email = `ann@${domain}`;
    const request = await start(email);
    expect(request.issuer).toBe(connection.entityId);
    expect(request.acsUrl).toBe(connection.acsUrl);
    const res = await post(idp.response({ request, email }));
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('http://parley.test/');
    const token = sessionOf(res);
    expect(token).toBeTruthy();
    const session = await w.t.request({
      method: 'GET',
      url: '/api/auth/session',
      headers: { cookie: `parley.session-token=${token}` },
    });
    expect(session.json().data.user.email).toBe(email);
    const members = await w.t.request({
      method: 'GET',
      url: `/api/workspaces/${ws}/members?limit=100`,
      headers: owner.headers,
    });
    expect(members.json().data.find((m: { email: string }) => m.email === email)?.role).toBe('guest');
  });

  it('refuses a replayed assertion (same response, and the same assertion id in a new response)', async () => {
    const email = `rita@${domain}`;
    const request = await start(email);
    const response = idp.response({ request, email, assertionId: '_fixed-assertion-id' });
    expect(sessionOf(await post(response))).toBeTruthy();
    const again = await post(response);
    expect(again.headers.location).toBe(FAILED);
    expect(sessionOf(again)).toBeUndefined();
    const second = await start(email);
    const reused = await post(idp.response({ request: second, email, assertionId: '_fixed-assertion-id' }));
    expect(reused.headers.location).toBe(FAILED);
  });

  it('race: the same response posted five times at once signs in exactly once', async () => {
    const email = `racer@${domain}`;
    const response = idp.response({ request: await start(email), email });
    const results = await Promise.all(Array.from({ length: 5 }, () => post(response)));
    expect(results.map((r) => r.statusCode)).toEqual([302, 302, 302, 302, 302]);
    expect(results.filter((r) => sessionOf(r)).length).toBe(1);
  });

  it('refuses expired, not yet valid, wrong audience, wrong recipient, unknown InResponseTo', async () => {
    const email = `eve@${domain}`;
    const cases: Array<(r: ReturnType<TestSamlIdp['readRequest']>) => string> = [
      (request) =>
        idp.response({
          request,
          email,
          notOnOrAfter: new Date(Date.now() - 10 * 60_000),
          notBefore: new Date(Date.now() - 20 * 60_000),
        }),
      (request) =>
        idp.response({
          request,
          email,
          notBefore: new Date(Date.now() + 10 * 60_000),
          notOnOrAfter: new Date(Date.now() + 20 * 60_000),
        }),
      (request) => idp.response({ request, email, audience: 'https://someone-else.test/sp' }),
      (request) => idp.response({ request, email, recipient: 'https://someone-else.test/acs' }),
      (request) => idp.response({ request: { ...request, id: '_never-issued' }, email }),
    ];
    for (const make of cases) {
      const res = await post(make(await start(email)));
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe(FAILED);
      expect(sessionOf(res)).toBeUndefined();
    }
  });

  it('refuses forged, unsigned and altered responses, and an email outside the domains', async () => {
    const other = rsaKeyPair('Forger');
    const email = `mallory@${domain}`;
    const cases: Array<(r: ReturnType<TestSamlIdp['readRequest']>) => string> = [
      (request) => idp.response({ request, email, signWith: other }),
      (request) => idp.response({ request, email, unsigned: true }),
      (request) => idp.response({ request, email, tamper: (xml) => xml.replace(email, `ceo@${domain}`) }),
    ];
    for (const make of cases) {
      const res = await post(make(await start(email)));
      expect(res.headers.location).toBe(FAILED);
      expect(sessionOf(res)).toBeUndefined();
    }
    // Signed, but for another domain: the sign-in page can say why (asserted-email.test.ts).
    const outside = await post(
      idp.response({ request: await start(email), email: `x@${newDomain('elsewhere')}` }),
    );
    expect(outside.headers.location).toBe(`${FAILED}&reason=email_domain`);
    expect(sessionOf(outside)).toBeUndefined();
  });

  it('the test button: a signed answer ends on the test result and adds no member; a refused one says failed', async () => {
    const test = async () => {
      const res = await w.t.request({
        method: 'POST',
        url: `/api/workspaces/${ws}/sso/connections/${connection.id}/test`,
        headers: owner.headers,
      });
      expect(res.statusCode, res.body).toBe(200);
      return idp.readRequest(res.json().data.url);
    };
    const email = `tina@${domain}`;
    const ok = await post(idp.response({ request: await test(), email }));
    expect(ok.headers.location).toBe(
      `http://parley.test/sso/test-result?result=ok&email=${encodeURIComponent(email)}`,
    );
    expect(sessionOf(ok)).toBeUndefined();
    const failed = await post(idp.response({ request: await test(), email, unsigned: true }));
    expect(failed.headers.location).toBe('http://parley.test/sso/test-result?result=failed');
    expect(sessionOf(failed)).toBeUndefined();
    const members = await w.t.request({
      method: 'GET',
      url: `/api/workspaces/${ws}/members?limit=100`,
      headers: owner.headers,
    });
    expect(members.json().data.some((m: { email: string }) => m.email === email)).toBe(false);
  });

  it('hostile posts: no SAMLResponse, garbage, JSON, a huge form: 302 sso_failed or 4xx, never 5xx, nothing stored', async () => {
    for (const body of [
      '',
      'SAMLResponse=',
      'SAMLResponse=%%%',
      `SAMLResponse=${Buffer.from('<x>').toString('base64')}`,
    ]) {
      const res = await expectNothingStored(w.t, () =>
        w.t.app.inject({
          method: 'POST',
          url: `/api/auth/sso/saml/${connection.id}/acs`,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: body,
        }),
      );
      expect(res.statusCode, body).toBe(302);
      expect(res.headers.location).toBe(FAILED);
    }
    const unknown = await expectNothingStored(w.t, () =>
      w.t.app.inject({
        method: 'POST',
        url: '/api/auth/sso/saml/sso_unknown/acs',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'SAMLResponse=abc',
      }),
    );
    expect(unknown.headers.location).toBe(FAILED);
    const huge = await expectNothingStored(w.t, () =>
      w.t.app.inject({
        method: 'POST',
        url: `/api/auth/sso/saml/${connection.id}/acs`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `SAMLResponse=${'A'.repeat(2 * 1024 * 1024)}`,
      }),
    );
    expect(huge.statusCode).toBe(413);
  });
});
