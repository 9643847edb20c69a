import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signupUser, type TestUser } from '../support/factories.ts';
import { followToCallback } from '../support/oidc-provider.ts';
import { expectNothingStored } from '../support/stored-rows.ts';
import { addMember, insertWorkspace } from '../support/world.ts';
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
 * Sign-in through a real OpenID Connect provider (`oidc-provider` on a local port): start by email
 * domain, the provider's redirects followed as a browser would, the callback into Parley
 * (docs/sso.md "Signing in"), and each refusal: 302 to /sign-in?error=sso_failed.
 */
let w: SsoWorld;
let owner: TestUser;
let ws: string;
let domain: string;
let connectionId: string;
beforeAll(async () => {
  w = await ssoApp();
  owner = await signupUser(w.t, { name: 'Owner' });
  ws = await insertWorkspace(w.t, owner);
  await makeEnterprise(w.t, ws);
  domain = newDomain();
  ({ id: connectionId } = await verifiedConnection(w, owner, ws, oidcBody(w.idp, [domain])));
});
afterAll(() => w.close());

const FAILED = 'http://parley.test/sign-in?error=sso_failed';

async function start(email: string) {
  const res = await w.t.request({ method: 'POST', url: '/api/auth/sso/start', payload: { email } });
  expect(res.statusCode, res.body).toBe(200);
  const flow = res.cookies.find((c) => c.name === 'parley.sso-flow');
  return { url: res.json().data.url as string, browser: flow?.value ?? '' };
}

/** The callback as Parley sees it, from the browser that holds `browser`. */
async function callback(url: URL, browser: string) {
  return w.t.request({
    method: 'GET',
    url: `${url.pathname}${url.search}`,
    headers: browser ? { cookie: `parley.sso-flow=${browser}` } : {},
  });
}

async function signIn(email: string, edit?: (authorizeUrl: URL) => void) {
  w.idp.addAccount({ email });
  w.idp.loginAs = email;
  const { url, browser } = await start(email);
  const authorize = new URL(url);
  edit?.(authorize);
  const back = await followToCallback(authorize.href, CALLBACK);
  return { back, browser, res: await callback(back, browser) };
}

const sessionOf = (res: { cookies: Array<{ name: string; value: string }> }) =>
  res.cookies.find((c) => c.name === 'parley.session-token' && c.value)?.value;

async function membersOf() {
  const res = await w.t.request({
    method: 'GET',
    url: `/api/workspaces/${ws}/members?limit=100`,
    headers: owner.headers,
  });
  return res.json().data as Array<{ email: string; role: string; userId: string }>;
}

describe('OIDC sign-in', () => {
  it('start: the authorization URL with PKCE S256, state and nonce; 404 for an unknown or unverified domain', async () => {
    const { url, browser } = await start(`Someone@${domain.toUpperCase()}`);
    const u = new URL(url);
    expect(u.origin).toBe(w.idp.issuer);
    expect(u.searchParams.get('code_challenge_method')).toBe('S256');
    expect(u.searchParams.get('code_challenge')).toBeTruthy();
    expect(u.searchParams.get('state')).toBeTruthy();
    expect(u.searchParams.get('nonce')).toBeTruthy();
    expect(u.searchParams.get('redirect_uri')).toBe(CALLBACK);
    expect(browser).toBeTruthy();
    const none = await w.t.request({
      method: 'POST',
      url: '/api/auth/sso/start',
      payload: { email: 'a@nowhere.test' },
    });
    expect(none.statusCode).toBe(404);
    expect(none.json().code).toBe('not_found:api');
    const bad = await w.t.request({
      method: 'POST',
      url: '/api/auth/sso/start',
      payload: { email: 'nope', x: 1 },
    });
    expect(bad.statusCode).toBe(400);
  });

  it('signs a new person in: user without a password, member with the default role, member.joined', async () => {
    const email = `new.person@${domain}`;
    const { res } = await signIn(email);
    expect(res.statusCode, res.body).toBe(302);
    expect(res.headers.location).toBe('http://parley.test/');
    const token = sessionOf(res);
    expect(token).toBeTruthy();
    const session = await w.t.request({
      method: 'GET',
      url: '/api/auth/session',
      headers: { cookie: `parley.session-token=${token}` },
    });
    expect(session.statusCode).toBe(200);
    expect(session.json().data.user).toMatchObject({ email, hasPassword: false });
    const member = (await membersOf()).find((m) => m.email === email);
    expect(member?.role).toBe('member');
    const events = await w.t.ctx.db.execute(
      `select data from events where workspace_id = '${ws}' and type = 'member.joined'` as never,
    );
    expect(JSON.stringify(events)).toContain(member!.userId);
    // A second sign-in: the same user, no second membership.
    const again = await signIn(email);
    expect(sessionOf(again.res)).toBeTruthy();
    expect((await membersOf()).filter((m) => m.email === email)).toHaveLength(1);
  });

  it('refuses a wrong state, a callback in another browser, and a replayed code', async () => {
    const email = `state@${domain}`;
    w.idp.addAccount({ email });
    w.idp.loginAs = email;
    const { url, browser } = await start(email);
    const back = await followToCallback(url, CALLBACK);
    const forged = new URL(back);
    forged.searchParams.set('state', 'forged-state');
    let res = await callback(forged, browser);
    expect(res.headers.location).toBe(FAILED);
    expect(sessionOf(res)).toBeUndefined();
    res = await callback(back, 'another-browser');
    expect(res.headers.location).toBe(FAILED);

    const second = await start(email);
    const ok = await followToCallback(second.url, CALLBACK);
    res = await callback(ok, second.browser);
    expect(sessionOf(res)).toBeTruthy();
    const replay = await callback(ok, second.browser);
    expect(replay.statusCode).toBe(302);
    expect(replay.headers.location).toBe(FAILED);
    expect(sessionOf(replay)).toBeUndefined();
  });

  it('race: one callback opened five times at once signs in exactly once', async () => {
    const email = `racer@${domain}`;
    w.idp.addAccount({ email });
    w.idp.loginAs = email;
    const { url, browser } = await start(email);
    const back = await followToCallback(url, CALLBACK);
    const results = await Promise.all(Array.from({ length: 5 }, () => callback(back, browser)));
    expect(results.filter((r) => sessionOf(r)).length).toBe(1);
    expect(results.filter((r) => r.headers.location === FAILED).length).toBe(4);
  });

  it('refuses a wrong nonce, an expired ID token, a forged signature, an unverified email', async () => {
    const email = `tokens@${domain}`;
    let r = await signIn(email, (u) => u.searchParams.set('nonce', 'another-nonce'));
    expect(r.res.headers.location).toBe(FAILED);

    w.idp.tamperIdToken = (c) => ({
      ...c,
      exp: Math.floor(Date.now() / 1000) - 600,
      iat: Math.floor(Date.now() / 1000) - 4000,
    });
    r = await signIn(email);
    expect(r.res.headers.location).toBe(FAILED);

    w.idp.tamperIdToken = (c) => c;
    w.idp.forgeWithOtherKey = true;
    r = await signIn(email);
    expect(r.res.headers.location).toBe(FAILED);

    w.idp.forgeWithOtherKey = false;
    w.idp.tamperIdToken = (c) => ({ ...c, aud: 'someone-else' });
    r = await signIn(email);
    expect(r.res.headers.location).toBe(FAILED);

    w.idp.tamperIdToken = undefined;
    w.idp.addAccount({ email: `unverified@${domain}`, emailVerified: false });
    w.idp.loginAs = `unverified@${domain}`;
    const s = await start(`unverified@${domain}`);
    const back = await followToCallback(s.url, CALLBACK);
    expect((await callback(back, s.browser)).headers.location).toBe(FAILED);

    // Control: untampered, the same person gets in.
    r = await signIn(email);
    expect(sessionOf(r.res)).toBeTruthy();
  });

  it('refuses an email outside the verified domains (the provider vouches for another domain)', async () => {
    const outsider = `someone@${newDomain('elsewhere')}`;
    w.idp.addAccount({ email: outsider });
    w.idp.loginAs = outsider;
    const { url, browser } = await start(`someone@${domain}`);
    const back = await followToCallback(url, CALLBACK);
    expect((await callback(back, browser)).headers.location).toBe(`${FAILED}&reason=email_domain`);
  });

  it("a removed member's next sign-in is refused, and so is an account closed at the provider", async () => {
    const email = `leaver@${domain}`;
    const first = await signIn(email);
    expect(sessionOf(first.res)).toBeTruthy();
    const member = (await membersOf()).find((m) => m.email === email)!;
    const del = await w.t.request({
      method: 'DELETE',
      url: `/api/workspaces/${ws}/members/${member.userId}`,
      headers: owner.headers,
    });
    expect(del.statusCode).toBe(204);
    const next = await signIn(email);
    expect(next.res.headers.location).toBe(FAILED);
    expect((await membersOf()).some((m) => m.email === email)).toBe(false);

    // Closed at the provider: the provider itself refuses, Parley signs no one in.
    w.idp.removeAccount(email);
    w.idp.loginAs = email;
    const { url, browser } = await start(email);
    const back = await followToCallback(url, CALLBACK);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect((await callback(back, browser)).headers.location).toBe(FAILED);
  });

  it('requireSso: password sign-in refused for members of its domains (details.sso), the owner keeps it', async () => {
    const member = await signupUser(w.t, { email: `pw.member@${domain}` });
    await addMember(w.t, ws, member, 'member');
    const ownerInDomain = await signupUser(w.t, { email: `boss@${domain}` });
    const ws2 = await insertWorkspace(w.t, ownerInDomain);
    const login = (u: TestUser) =>
      w.t.request({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: u.email, password: u.password },
      });
    expect((await login(member)).statusCode).toBe(200);
    const patch = await w.t.request({
      method: 'PATCH',
      url: `/api/workspaces/${ws}/sso/connections/${connectionId}`,
      headers: owner.headers,
      payload: { requireSso: true },
    });
    expect(patch.statusCode).toBe(200);
    const refused = await login(member);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ code: 'unauthorized:api', details: { sso: true } });
    const wrong = await w.t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: member.email, password: 'not the password' },
    });
    expect(wrong.json().details?.sso).toBeUndefined();
    // Someone of the domain who is not a member of the workspace, and the owner: still by password.
    expect((await login(ownerInDomain)).statusCode).toBe(200);
    expect(ws2).toBeTruthy();
    expect((await login(owner)).statusCode).toBe(200);
    await w.t.request({
      method: 'PATCH',
      url: `/api/workspaces/${ws}/sso/connections/${connectionId}`,
      headers: owner.headers,
      payload: { requireSso: false },
    });
    expect((await login(member)).statusCode).toBe(200);
  });

  it('the test button: a full sign-in that signs no one in and adds no member', async () => {
    const email = `tester@${domain}`;
    w.idp.addAccount({ email });
    w.idp.loginAs = email;
    const res = await w.t.request({
      method: 'POST',
      url: `/api/workspaces/${ws}/sso/connections/${connectionId}/test`,
      headers: owner.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    const browser = res.cookies.find((c) => c.name === 'parley.sso-flow')!.value;
    const back = await followToCallback(res.json().data.url, CALLBACK);
    const done = await callback(back, browser);
    expect(done.headers.location).toBe(
      `http://parley.test/sso/test-result?result=ok&email=${encodeURIComponent(email)}`,
    );
    expect(sessionOf(done)).toBeUndefined();
    expect((await membersOf()).some((m) => m.email === email)).toBe(false);
    // Refused at the provider: the popup still ends on the test's result page, which says so.
    w.idp.loginAs = undefined;
    const again = await w.t.request({
      method: 'POST',
      url: `/api/workspaces/${ws}/sso/connections/${connectionId}/test`,
      headers: owner.headers,
    });
    const refused = await callback(
      await followToCallback(again.json().data.url, CALLBACK),
      again.cookies.find((c) => c.name === 'parley.sso-flow')!.value,
    );
    expect(refused.headers.location).toBe('http://parley.test/sso/test-result?result=failed');
  });

  it('hostile input on the public routes: 400, 413 or 404, never 5xx; refused posts store nothing', async () => {
    for (const payload of [
      {},
      { email: 42 },
      { email: ['a@b.test'] },
      { email: `\u0000@${domain}` },
      { email: `é@${domain}`, extra: 1 },
    ]) {
      const res = await expectNothingStored(w.t, () =>
        w.t.request({ method: 'POST', url: '/api/auth/sso/start', payload }),
      );
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
    const huge = await expectNothingStored(w.t, () =>
      w.t.request({
        method: 'POST',
        url: '/api/auth/sso/start',
        payload: { email: `${'a'.repeat(3 * 1024 * 1024)}@${domain}` },
      }),
    );
    expect(huge.statusCode).toBe(413);
    const foreign = await expectNothingStored(w.t, () =>
      w.t.request({
        method: 'POST',
        url: '/api/auth/sso/start',
        headers: { origin: 'https://evil.test' },
        payload: { email: `x@${domain}` },
      }),
    );
    expect(foreign.statusCode).toBe(403);
    const md = await w.t.request({ method: 'GET', url: `/api/auth/sso/saml/${connectionId}/metadata` });
    expect(md.statusCode).toBe(404);
    const cb = await w.t.request({
      method: 'GET',
      url: `/api/auth/sso/oidc/callback?code=${'x'.repeat(5000)}&state=%00`,
    });
    expect([302, 400]).toContain(cb.statusCode);
    const bare = await w.t.request({ method: 'GET', url: '/api/auth/sso/oidc/callback' });
    expect(bare.headers.location).toBe(FAILED);
  });

  it('a workspace no longer on Enterprise signs no one in', async () => {
    const { applyPlan } = await import('../../src/features/billing/plan-change.ts');
    await applyPlan(w.t.ctx, ws, 'pro');
    const res = await w.t.request({
      method: 'POST',
      url: '/api/auth/sso/start',
      payload: { email: `x@${domain}` },
    });
    expect(res.statusCode).toBe(404);
    await makeEnterprise(w.t, ws);
  });
});
