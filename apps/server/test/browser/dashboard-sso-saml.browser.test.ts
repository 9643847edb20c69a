import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyPlan } from '../../src/features/billing/plan-change.ts';
import { startDns, type TestDns } from '../sso/dns-server.ts';
import { signupUser, type TestUser } from '../support/factories.ts';
import type { TestApp } from '../support/harness.ts';
import { startSamlIdp, type TestSamlIdp } from '../support/saml-idp.ts';
import { insertWorkspace } from '../support/world.ts';
import { reserveAddress, startDashboardAt } from './dashboard-helpers.ts';
import { hasChromium, pageErrors, shot } from './helpers.ts';

/**
 * SAML single sign-on in Chromium against the real server and the local SAML IdP
 * (test/support/saml-idp.ts), which is another site (`localhost`) than the app (127.0.0.1), as a
 * company's IdP is (docs/sso.md): the owner adds a SAML connection on the settings page from the
 * IdP's metadata XML (its signing certificate inside), verifies the domain, runs the test sign-in
 * in a popup (one the IdP signs, one it refuses); then a new person signs in with "Continue with SSO": the browser goes to the IdP
 * with the AuthnRequest, the IdP's page posts the signed assertion to the ACS URL, and the person
 * lands in the workspace with the connection's default role. A refusal at the IdP, or of an email
 * that is not one valid address, comes back to the sign-in page in words.
 */

if (!hasChromium) console.warn('Dashboard SAML SSO tests skipped: /usr/bin/chromium is missing.');

let t: TestApp;
let base: string;
let browser: Browser;
let idp: TestSamlIdp;
let dns: TestDns;
let owner: TestUser;
let ws: string;
let connectionId: string;
const domain = `globex${process.pid}.test`;

beforeAll(async () => {
  if (!hasChromium) return;
  // The app's public address is where the browser reaches it: the ACS URL is built from it.
  const address = await reserveAddress();
  base = address.base;
  dns = await startDns();
  idp = await startSamlIdp({ host: 'localhost' });
  ({ t, browser } = await startDashboardAt(address, { SSO_DNS_SERVERS: dns.server }));
  owner = await signupUser(t, { name: 'Gina Owner' });
  ws = await insertWorkspace(t, owner, { name: 'Globex Enterprise' });
  await applyPlan(t.ctx, ws, 'enterprise');
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
  await idp?.close();
  await dns?.close();
});

async function memberRole(email: string): Promise<string | undefined> {
  const members = await t.request({
    method: 'GET',
    url: `/api/workspaces/${ws}/members?limit=100`,
    headers: owner.headers,
  });
  return members.json().data.find((m: { email: string }) => m.email === email)?.role;
}

describe.skipIf(!hasChromium)('SAML single sign-on', { timeout: 180_000 }, () => {
  it('settings: add a SAML connection from the metadata XML, verify the domain, test sign-in in a popup', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const value = owner.cookie.slice(owner.cookie.indexOf('=') + 1);
    await context.addCookies([{ name: 'parley.session-token', value, url: base }]);
    const page = await context.newPage();
    const errors = pageErrors(page);
    await page.goto(`${base}/w/${ws}`);
    await page.getByRole('link', { name: 'Single sign-on' }).click();
    await page.getByRole('heading', { name: 'Single sign-on', level: 1 }).waitFor();
    const form = page.getByRole('form', { name: 'New connection' });
    await form.getByLabel('Protocol').selectOption('saml');
    await form.getByLabel('Name').fill('Globex SAML');
    await form.getByLabel('or metadata XML').fill(idp.metadataXml);
    await form.getByLabel('Email domains').fill(domain);
    await form.getByLabel('Default role').selectOption('admin');
    await form.getByRole('button', { name: 'Add connection' }).click();
    const card = page.getByRole('listitem', { name: 'Connection Globex SAML' });
    await card.waitFor();
    // What the IdP's administrator needs: our entity id and ACS URL, at the app's public address.
    await card.getByText(idp.entityId, { exact: true }).waitFor();
    const acs = await card.locator('code').filter({ hasText: '/acs' }).textContent();
    expect(acs).toMatch(new RegExp(`^${base}/api/auth/sso/saml/sso_[^/]+/acs$`));
    connectionId = /saml\/([^/]+)\/acs$/.exec(acs ?? '')?.[1] ?? '';
    const record = await card.locator('code').filter({ hasText: 'parley-verification=' }).textContent();
    dns.records.set(`_parley-verification.${domain}`, [record ?? '']);
    // Long URLs wrap inside the card: it keeps to its column, clear of the form beside it.
    const [cardBox, formBox] = [await card.boundingBox(), await form.boundingBox()];
    expect(cardBox!.x + cardBox!.width).toBeLessThanOrEqual(formBox!.x);
    await shot(page, 'dashboard-sso-saml-settings');
    await card.getByRole('button', { name: `Verify ${domain}` }).click();
    await card.getByText('verified', { exact: true }).waitFor();

    idp.loginAs = `tom@${domain}`;
    const popupOpened = context.waitForEvent('page');
    await card.getByRole('button', { name: 'Test sign-in' }).click();
    const popup = await popupOpened;
    await popup.getByText(`The identity provider signed in tom@${domain}`).waitFor();
    await card
      .getByRole('status')
      .filter({ hasText: `Test sign-in worked: tom@${domain}` })
      .waitFor();
    // The popup went through the IdP with our AuthnRequest.
    expect(idp.browserRequests.at(-1)).toMatchObject({
      issuer: `${base}/api/auth/sso/saml/${connectionId}`,
      acsUrl: `${base}/api/auth/sso/saml/${connectionId}/acs`,
    });
    // A test signs no one in and adds no member.
    expect(await memberRole(`tom@${domain}`)).toBeUndefined();

    await popup.close();

    // A test the IdP refuses says so, in the popup and on the card.
    idp.loginAs = undefined;
    const failedOpened = context.waitForEvent('page');
    await card.getByRole('button', { name: 'Test sign-in' }).click();
    const failed = await failedOpened;
    await failed.getByRole('alert').filter({ hasText: 'The test sign-in did not complete' }).waitFor();
    await card.getByRole('status').filter({ hasText: 'The test sign-in did not complete' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('sign-in page: Continue with SSO through the SAML IdP signs a new person in with the default role', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors = pageErrors(page);
    const email = `sam@${domain}`;
    idp.loginAs = email;
    const seen = idp.browserRequests.length;
    await page.goto(`${base}/signin`);
    await page.getByRole('button', { name: 'Continue with SSO' }).click();
    await page.getByLabel('Work email').fill(`Sam@${domain.toUpperCase()}`);
    await page
      .getByRole('form', { name: 'Single sign-on' })
      .getByRole('button', { name: 'Continue with SSO' })
      .click();
    // The app's root takes the new member to their only workspace.
    await page.waitForURL(`${base}/w/${ws}`);
    await page.getByRole('heading', { name: 'Globex Enterprise', level: 1 }).waitFor();
    await page.getByText('Your role: admin').waitFor();
    expect(idp.browserRequests.length).toBe(seen + 1);
    const session = await page.evaluate(() => fetch('/api/auth/session').then((r) => r.json()));
    expect(session.data.user.email).toBe(email);
    expect(await memberRole(email)).toBe('admin');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('an assertion whose email has two @ is refused, and the sign-in page says why in words', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = pageErrors(page);
    // Signed by the IdP, and ending in our verified domain: still not one address.
    const hostile = `bob@bob-corp.test@${domain}`;
    idp.loginAs = hostile;
    await page.goto(`${base}/signin`);
    await page.getByRole('button', { name: 'Continue with SSO' }).click();
    await page.getByLabel('Work email').fill(`bob@${domain}`);
    await page
      .getByRole('form', { name: 'Single sign-on' })
      .getByRole('button', { name: 'Continue with SSO' })
      .click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'Your identity provider sent an email address that is not a valid address' })
      .waitFor();
    expect(page.url()).toContain('error=sso_failed&reason=email_invalid');
    const cookies = await context.cookies(base);
    expect(cookies.find((c) => c.name === 'parley.session-token')).toBeUndefined();
    expect(await memberRole(hostile)).toBeUndefined();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a sign-in the IdP refuses comes back to the sign-in page in words, with no session', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = pageErrors(page);
    idp.loginAs = undefined;
    const seen = idp.browserRequests.length;
    await page.goto(`${base}/signin`);
    await page.getByRole('button', { name: 'Continue with SSO' }).click();
    await page.getByLabel('Work email').fill(`ghost@${domain}`);
    await page
      .getByRole('form', { name: 'Single sign-on' })
      .getByRole('button', { name: 'Continue with SSO' })
      .click();
    await page.getByRole('alert').filter({ hasText: 'Single sign-on did not complete' }).waitFor();
    expect(page.url()).toContain('error=sso_failed');
    expect(idp.browserRequests.length).toBe(seen + 1);
    const cookies = await context.cookies(base);
    expect(cookies.find((c) => c.name === 'parley.session-token')).toBeUndefined();
    expect(await memberRole(`ghost@${domain}`)).toBeUndefined();
    expect(errors).toEqual([]);
    await context.close();
  });
});
