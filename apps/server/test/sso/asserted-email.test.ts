import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberships, sessions, users } from '../../src/db/schema/index.ts';
import { signupUser, type TestUser } from '../support/factories.ts';
import { followToCallback } from '../support/oidc-provider.ts';
import { startSamlIdp, type TestSamlIdp } from '../support/saml-idp.ts';
import { insertWorkspace } from '../support/world.ts';
import {
  CALLBACK,
  makeEnterprise,
  newDomain,
  oidcBody,
  type SsoWorld,
  ssoApp,
  verifiedConnection,
} from './helpers.ts';

/**
 * The email an identity provider asserts (docs/sso.md "Signing in"): one address by sign-up's
 * rules (features/auth/auth.schemas.ts), whose domain, after its single `@`, is exactly a verified
 * domain of the connection. Anything else: no user, no session, no membership, and the sign-in
 * page's `reason` says which (apps/web SsoFailed). Both protocols, through the real stand-ins.
 */
let w: SsoWorld;
let samlIdp: TestSamlIdp;
let owner: TestUser;
let oidcDomain: string;
let samlDomain: string;
let samlConnection: string;
/** A domain another workspace has verified: what the attacker's string starts with. */
let bobDomain: string;

beforeAll(async () => {
  w = await ssoApp();
  samlIdp = await startSamlIdp();
  owner = await signupUser(w.t, { name: 'Alice' });
  const alice = await insertWorkspace(w.t, owner, { name: 'Alice Corp' });
  await makeEnterprise(w.t, alice);
  oidcDomain = newDomain('alice-corp');
  samlDomain = newDomain('alice-saml');
  await verifiedConnection(w, owner, alice, oidcBody(w.idp, [oidcDomain]));
  ({ id: samlConnection } = await verifiedConnection(w, owner, alice, {
    type: 'saml',
    name: 'Alice SAML',
    metadataUrl: samlIdp.metadataUrl,
    domains: [samlDomain],
  }));
  const bobOwner = await signupUser(w.t, { name: 'Bob' });
  const bob = await insertWorkspace(w.t, bobOwner, { name: 'Bob Corp' });
  await makeEnterprise(w.t, bob);
  bobDomain = newDomain('bob-corp');
  await verifiedConnection(w, bobOwner, bob, oidcBody(w.idp, [bobDomain]));
});
afterAll(async () => {
  await w.close();
  await samlIdp.close();
});

const FAILED = 'http://parley.test/sign-in?error=sso_failed';
const sessionOf = (res: { cookies: Array<{ name: string; value: string }> }) =>
  res.cookies.find((c) => c.name === 'parley.session-token' && c.value)?.value;

async function rows() {
  const n = async (table: typeof users | typeof sessions | typeof memberships) =>
    (await w.t.ctx.db.select({ n: count() }).from(table))[0]?.n ?? 0;
  return { users: await n(users), sessions: await n(sessions), memberships: await n(memberships) };
}

async function start(email: string) {
  const res = await w.t.request({ method: 'POST', url: '/api/auth/sso/start', payload: { email } });
  expect(res.statusCode, res.body).toBe(200);
  return res;
}

/** An OIDC sign-in whose ID token (signed by the provider's own key) carries `asserted`. */
async function oidcSignIn(asserted: string) {
  const account = `someone@${oidcDomain}`;
  w.idp.addAccount({ email: account });
  w.idp.loginAs = account;
  w.idp.tamperIdToken = (claims) => ({ ...claims, email: asserted, email_verified: true });
  try {
    const started = await start(account);
    const browser = started.cookies.find((c) => c.name === 'parley.sso-flow')?.value ?? '';
    const back = await followToCallback(started.json().data.url, CALLBACK);
    return await w.t.request({
      method: 'GET',
      url: `${back.pathname}${back.search}`,
      headers: { cookie: `parley.sso-flow=${browser}` },
    });
  } finally {
    w.idp.tamperIdToken = undefined;
  }
}

/** A SAML sign-in whose signed assertion's NameID is `asserted`. */
async function samlSignIn(asserted: string) {
  const request = samlIdp.readRequest((await start(`someone@${samlDomain}`)).json().data.url);
  return w.t.app.inject({
    method: 'POST',
    url: `/api/auth/sso/saml/${samlConnection}/acs`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      SAMLResponse: samlIdp.response({ request, email: asserted }),
      RelayState: '',
    }).toString(),
  });
}

const protocols = [
  { name: 'OIDC', signIn: oidcSignIn, domain: () => oidcDomain },
  { name: 'SAML', signIn: samlSignIn, domain: () => samlDomain },
];

describe.each(protocols)('$name: the asserted email', ({ signIn, domain }) => {
  it('two @, markup or quotes in the address: refused as not valid, nothing created', async () => {
    for (const asserted of [
      `bob@${bobDomain}@${domain()}`,
      `<script>x</script>"@${domain()}`,
      `"bob@${bobDomain}"@${domain()}`,
      `bob@${domain()} `.repeat(2).trim(),
      `@${domain()}`,
    ]) {
      const before = await rows();
      const res = await signIn(asserted);
      expect(res.statusCode, asserted).toBe(302);
      expect(res.headers.location, asserted).toBe(`${FAILED}&reason=email_invalid`);
      expect(sessionOf(res)).toBeUndefined();
      expect(await rows(), asserted).toEqual(before);
    }
  });

  it('a domain that is not exactly a verified one (another, a subdomain, a longer name): refused, nothing created', async () => {
    for (const asserted of [
      `bob@${bobDomain}`,
      `bob@mail.${domain()}`,
      `bob@x${domain()}`,
      `bob@${domain()}.evil.test`,
    ]) {
      const before = await rows();
      const res = await signIn(asserted);
      expect(res.headers.location, asserted).toBe(`${FAILED}&reason=email_domain`);
      expect(sessionOf(res)).toBeUndefined();
      expect(await rows(), asserted).toEqual(before);
    }
  });

  it('control: a valid address at the verified domain, any case, signs in as that lowercased address', async () => {
    const res = await signIn(`Good.Person+sso@${domain().toUpperCase()}`);
    expect(res.headers.location).toBe('http://parley.test/');
    const token = sessionOf(res);
    expect(token).toBeTruthy();
    const session = await w.t.request({
      method: 'GET',
      url: '/api/auth/session',
      headers: { cookie: `parley.session-token=${token}` },
    });
    expect(session.json().data.user.email).toBe(`good.person+sso@${domain()}`);
  });
});

describe('Continue with SSO', () => {
  it('takes the email by sign-up’s rules: an address with two @ is a 400, not a start at its last domain', async () => {
    for (const email of [`bob@${bobDomain}@${oidcDomain}`, `<script>x</script>"@${oidcDomain}`]) {
      const res = await w.t.request({ method: 'POST', url: '/api/auth/sso/start', payload: { email } });
      expect(res.statusCode, email).toBe(400);
      expect(res.json().code).toBe('bad_request:api');
    }
  });
});
