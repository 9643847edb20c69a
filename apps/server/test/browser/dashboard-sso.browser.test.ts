import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyPlan } from '../../src/features/billing/plan-change.ts';
import { startDns, type TestDns } from '../sso/dns-server.ts';
import { signupUser, type TestUser } from '../support/factories.ts';
import type { TestApp } from '../support/harness.ts';
import { startOidcProvider, type TestOidcProvider } from '../support/oidc-provider.ts';
import { insertWorkspace } from '../support/world.ts';
import { accountLanguage, reserveAddress, startDashboardAt } from './dashboard-helpers.ts';
import { hasChromium, pageErrors } from './helpers.ts';

/**
 * Single sign-on in Chromium against the real server and a real OpenID Connect provider on a local
 * port (docs/sso.md): the owner adds a connection on the settings page, verifies its domain, runs
 * the test sign-in in a popup; then a new person signs in with "Continue with SSO" and lands in
 * the app as a member; a refused sign-in comes back to the sign-in page in words. Both in Spanish.
 */

if (!hasChromium) console.warn('Dashboard SSO tests skipped: /usr/bin/chromium is missing.');

let t: TestApp;
let base: string;
let browser: Browser;
let idp: TestOidcProvider;
let dns: TestDns;
let owner: TestUser;
let ws: string;
const domain = `acme${process.pid}.test`;

beforeAll(async () => {
  if (!hasChromium) return;
  // The app's public address is where the browser reaches it: the provider returns there.
  const address = await reserveAddress();
  base = address.base;
  dns = await startDns();
  idp = await startOidcProvider([`${base}/api/auth/sso/oidc/callback`]);
  ({ t, browser } = await startDashboardAt(address, {
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    SSO_DNS_SERVERS: dns.server,
  }));
  owner = await signupUser(t, { name: 'Olivia Owner' });
  ws = await insertWorkspace(t, owner, { name: 'Acme Enterprise' });
  await applyPlan(t.ctx, ws, 'enterprise');
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
  await idp?.close();
  await dns?.close();
});

describe.skipIf(!hasChromium)('single sign-on', { timeout: 180_000 }, () => {
  it('settings: add an OIDC connection, verify the domain, test sign-in in a popup', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const value = owner.cookie.slice(owner.cookie.indexOf('=') + 1);
    await context.addCookies([{ name: 'parley.session-token', value, url: base }]);
    const page = await context.newPage();
    const errors = pageErrors(page);
    await page.goto(`${base}/w/${ws}`);
    await page.getByRole('link', { name: 'Single sign-on' }).click();
    await page.getByRole('heading', { name: 'Single sign-on', level: 1 }).waitFor();
    const form = page.getByRole('form', { name: 'New connection' });
    await form.getByLabel('Name').fill('Acme IdP');
    await form.getByLabel('Issuer').fill(idp.issuer);
    await form.getByLabel('Client ID').fill(idp.clientId);
    await form.getByLabel('Client secret').fill(idp.clientSecret);
    await form.getByLabel('Email domains').fill(domain);
    await form.getByRole('button', { name: 'Add connection' }).click();
    const card = page.getByRole('listitem', { name: 'Connection Acme IdP' });
    await card.waitFor();
    const record = await card.locator('code').filter({ hasText: 'parley-verification=' }).textContent();
    dns.records.set(`_parley-verification.${domain}`, [record ?? '']);
    await card.getByRole('button', { name: `Verify ${domain}` }).click();
    await card.getByText('verified', { exact: true }).waitFor();

    idp.addAccount({ email: `tess@${domain}`, name: 'Tess Tester' });
    idp.loginAs = `tess@${domain}`;
    const popupOpened = context.waitForEvent('page');
    await card.getByRole('button', { name: 'Test sign-in' }).click();
    const popup = await popupOpened;
    await popup.getByText(`The identity provider signed in tess@${domain}`).waitFor();
    await card
      .getByRole('status')
      .filter({ hasText: `Test sign-in worked: tess@${domain}` })
      .waitFor();
    // A test signs no one in and adds no member.
    const members = await t.request({
      method: 'GET',
      url: `/api/workspaces/${ws}/members`,
      headers: owner.headers,
    });
    expect(JSON.stringify(members.json())).not.toContain(`tess@${domain}`);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('sign-in page: Continue with SSO signs a new person in as a member; a refusal is said in words', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors = pageErrors(page);
    idp.addAccount({ email: `nina@${domain}`, name: 'Nina New' });
    idp.loginAs = `nina@${domain}`;
    await page.goto(`${base}/signin`);
    await page.getByRole('button', { name: 'Continue with SSO' }).click();
    await page.getByLabel('Work email').fill(`Nina@${domain.toUpperCase()}`);
    await page
      .getByRole('form', { name: 'Single sign-on' })
      .getByRole('button', { name: 'Continue with SSO' })
      .click();
    await page.getByText('Acme Enterprise').filter({ visible: true }).first().waitFor();
    const session = await page.evaluate(() => fetch('/api/auth/session').then((r) => r.json()));
    expect(session.data.user.email).toBe(`nina@${domain}`);
    const members = await t.request({
      method: 'GET',
      url: `/api/workspaces/${ws}/members`,
      headers: owner.headers,
    });
    const nina = members.json().data.find((m: { email: string }) => m.email === `nina@${domain}`);
    expect(nina.role).toBe('member');

    const other = await browser.newContext();
    const refused = await other.newPage();
    idp.loginAs = undefined;
    await refused.goto(`${base}/signin`);
    await refused.getByRole('button', { name: 'Continue with SSO' }).click();
    await refused.getByLabel('Work email').fill(`ghost@${domain}`);
    await refused
      .getByRole('form', { name: 'Single sign-on' })
      .getByRole('button', { name: 'Continue with SSO' })
      .click();
    await refused.getByRole('alert').filter({ hasText: 'Single sign-on did not complete' }).waitFor();
    expect(refused.url()).toContain('error=sso_failed');
    await refused.getByRole('button', { name: 'Continue with SSO' }).click();
    await refused.getByLabel('Work email').fill('someone@nowhere.test');
    await refused
      .getByRole('form', { name: 'Single sign-on' })
      .getByRole('button', { name: 'Continue with SSO' })
      .click();
    await refused.getByText('No single sign-on is set up for this email domain').waitFor();
    expect(errors).toEqual([]);
    await other.close();
    await context.close();
  });

  it('in Spanish: the settings page (the account language) and a refusal (the browser language)', async () => {
    const language = accountLanguage(t, owner);
    expect((await language('es')).statusCode).toBe(200);
    const context = await browser.newContext({ locale: 'es-ES' });
    const value = owner.cookie.slice(owner.cookie.indexOf('=') + 1);
    await context.addCookies([{ name: 'parley.session-token', value, url: base }]);
    const page = await context.newPage();
    const errors = pageErrors(page);
    await page.goto(`${base}/w/${ws}/sso`);
    await page.getByRole('heading', { name: 'Inicio de sesión único', level: 1 }).waitFor();
    const card = page.getByRole('listitem', { name: 'Conexión Acme IdP' });
    await card.getByText('rol predeterminado: miembro').waitFor();
    await card.getByText('verificado', { exact: true }).waitFor();
    await card.getByRole('button', { name: 'Probar el inicio de sesión' }).waitFor();
    await page.getByRole('form', { name: 'Nueva conexión' }).getByLabel('Dominios de correo').waitFor();
    expect((await language(null)).statusCode).toBe(200);

    const signedOut = await browser.newContext({ locale: 'es-ES' });
    const refused = await signedOut.newPage();
    await refused.goto(`${base}/signin?error=sso_failed&reason=email_domain`);
    await refused
      .getByRole('alert')
      .filter({ hasText: /^Tu proveedor de identidad envió una dirección/ })
      .waitFor();
    await refused.getByRole('button', { name: 'Continuar con SSO' }).click();
    await refused
      .getByRole('form', { name: 'Inicio de sesión único' })
      .getByLabel('Correo del trabajo')
      .waitFor();
    expect(errors).toEqual([]);
    await signedOut.close();
    await context.close();
  });
});
