import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signupUser, type TestUser } from '../support/factories.ts';
import type { TestApp } from '../support/harness.ts';
import { addMember, setPlan } from '../support/world.ts';
import { checkPage, fitsWidth, openMenu, startDashboard } from './dashboard-helpers.ts';
import { hasChromium, pageErrors } from './helpers.ts';

/**
 * The dashboard's team and account pages in Chromium (docs/dashboard.md) against the real server: members
 * and invitations (an invitee signs up from the link and joins; the owner promotes them), what a
 * member is not offered, API keys (shown once, working on /api/v1, refused once revoked), and the
 * account page (name, password, theme, personal tokens, export, deletion). Each page: no serious
 * or critical axe-core violation in light and dark.
 */

if (!hasChromium) console.warn('Dashboard team browser tests skipped: /usr/bin/chromium is missing.');

const INVITEE = { name: 'Ivy Invitee', email: 'ivy@example.com', password: 'ivy has a long password' };

let t: TestApp;
let base: string;
let browser: Browser;
let owner: TestUser;
let ws: string;

beforeAll(async () => {
  if (!hasChromium) return;
  ({ t, base, browser } = await startDashboard());
  owner = await signupUser(t, { name: 'Olive Owner', email: 'olive@example.com' });
  const res = await t.request({
    method: 'POST',
    url: '/api/workspaces',
    headers: owner.headers,
    payload: { name: 'Team Co.' },
  });
  expect(res.statusCode).toBe(201);
  ws = res.json().data.id;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name });

/** A browser context signed in as `user` (the API's session cookie), and its page. */
async function signedIn(user: TestUser, width = 1280): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width, height: 860 }, colorScheme: 'light' });
  const value = user.cookie.slice(user.cookie.indexOf('=') + 1);
  await context.addCookies([{ name: 'parley.session-token', value, url: base }]);
  return { context, page: await context.newPage() };
}

async function membersOf(workspaceId: string) {
  const res = await t.request({
    method: 'GET',
    url: `/api/workspaces/${workspaceId}/members`,
    headers: owner.headers,
  });
  return res.json().data as Array<{ email: string; role: string; userId: string }>;
}

const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

describe.skipIf(!hasChromium)('the dashboard: team, API keys, account', { timeout: 120_000 }, () => {
  it('invites by email; the invitee signs up from the link, joins, and is promoted', async () => {
    const { context, page } = await signedIn(owner);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    const errors = pageErrors(page);
    const a11y: string[] = [];

    await page.goto(`${base}/w/${ws}/members`);
    await heading(page, 'Members').waitFor();
    await page.getByRole('list', { name: 'Members' }).getByText(owner.email).waitFor();
    await page.getByText('No pending invitations').waitFor();

    // Invite: the link is shown once, copied, and listed as pending.
    await page.getByLabel('Email').fill(INVITEE.email);
    await page.locator('select[name="role"]').selectOption('member');
    await page.getByRole('button', { name: 'Send invitation' }).click();
    const link = await page.getByLabel('Invitation link').inputValue();
    expect(link).toMatch(/\/invite\/[\w-]{20,}$/);
    await page.getByText(/shown only this once/).waitFor();
    await page.getByRole('button', { name: 'Copy link' }).click();
    await page.getByText('Copied', { exact: true }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    await page.getByRole('list', { name: 'Pending invitations' }).getByText(INVITEE.email).waitFor();
    a11y.push(...(await checkPage(page, 'members')));

    // The two 409s in words.
    await page.getByLabel('Email').fill(INVITEE.email);
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByRole('alert').getByText(`${INVITEE.email} already has a pending invitation`).waitFor();
    await page.getByLabel('Email').fill(owner.email);
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await page
      .getByRole('alert')
      .getByText(`${owner.email} is already a member of this workspace.`)
      .waitFor();

    // The invitee, signed out, opens the link, signs up, comes back and joins.
    const invitee = await browser.newContext({
      viewport: { width: 1280, height: 860 },
      colorScheme: 'light',
    });
    const ipage = await invitee.newPage();
    const ierrors = pageErrors(ipage);
    const invitePath = new URL(link).pathname;
    await ipage.goto(`${base}${invitePath}`);
    await heading(ipage, 'You are invited to a Parley workspace').waitFor();
    await ipage.getByText('Sign in or create an account with the invited email to join.').waitFor();
    a11y.push(...(await checkPage(ipage, 'invite-signed-out')));
    await ipage.getByRole('link', { name: 'Create an account' }).click();
    await heading(ipage, 'Create your Parley account').waitFor();
    await ipage.getByLabel('Name').fill(INVITEE.name);
    await ipage.getByLabel('Email').fill(INVITEE.email);
    await ipage.getByLabel('Password').fill(INVITEE.password);
    await ipage.getByRole('button', { name: 'Sign up' }).click();
    await heading(ipage, 'Join a workspace').waitFor();
    expect(new URL(ipage.url()).pathname).toBe(invitePath);
    await ipage.getByText(`You are signed in as ${INVITEE.email}.`).waitFor();
    a11y.push(...(await checkPage(ipage, 'invite-signed-in')));
    await ipage.getByRole('button', { name: 'Join workspace' }).click();
    await heading(ipage, 'Team Co.').waitFor();
    expect(new URL(ipage.url()).pathname).toBe(`/w/${ws}`);
    expect((await membersOf(ws)).find((m) => m.email === INVITEE.email)?.role).toBe('member');
    const nav = ipage.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('link', { name: 'API keys' }).count()).toBe(0);

    // The owner sees them joined (no longer pending) and makes them an admin.
    await page.reload();
    await page.getByRole('list', { name: 'Members' }).getByText(INVITEE.email).waitFor();
    await page.getByText('No pending invitations').waitFor();
    await page.getByLabel(`Role of ${INVITEE.name}`).selectOption('admin');
    await page.getByText(`${INVITEE.name} is now admin.`).waitFor();
    expect((await membersOf(ws)).find((m) => m.email === INVITEE.email)?.role).toBe('admin');
    await ipage.reload();
    await nav.getByRole('link', { name: 'API keys' }).waitFor();

    // A link for another address: the invitee is told which email they are using; once the
    // owner revokes it, the link is explained as no longer working.
    const other = await t.request({
      method: 'POST',
      url: `/api/workspaces/${ws}/invitations`,
      headers: owner.headers,
      payload: { email: 'someone.else@example.com', role: 'guest' },
    });
    expect(other.statusCode).toBe(201);
    await ipage.goto(`${base}${new URL(other.json().data.inviteUrl).pathname}`);
    await ipage.getByRole('button', { name: 'Join workspace' }).click();
    await ipage
      .getByRole('alert')
      .getByText(`sent to a different email address, not to ${INVITEE.email}`)
      .waitFor();
    await page.reload();
    await page.getByRole('button', { name: 'Revoke the invitation of someone.else@example.com' }).click();
    await page.getByText('No pending invitations').waitFor();
    await ipage.getByRole('button', { name: 'Join workspace' }).click();
    await ipage
      .getByRole('alert')
      .getByText(/This invitation link no longer works/)
      .waitFor();

    expect(a11y).toEqual([]);
    expect([...errors, ...ierrors]).toEqual([]);
    await invitee.close();
    await context.close();
  });

  it('shows a member the list only, no API keys, and lets them leave (on a phone)', async () => {
    const member = await signupUser(t, { name: 'Mo Member' });
    await addMember(t, ws, member, 'member');
    const { context, page } = await signedIn(member, 375);
    const errors = pageErrors(page);
    await page.goto(`${base}/w/${ws}/members`);
    await heading(page, 'Members').waitFor();
    await page.getByRole('list', { name: 'Members' }).getByText(owner.email).waitFor();
    const main = page.getByRole('main');
    expect(await main.getByRole('heading', { name: 'Invite someone' }).count()).toBe(0);
    expect(await main.getByRole('heading', { name: 'Pending invitations' }).count()).toBe(0);
    expect(await main.getByRole('combobox').count()).toBe(0);
    expect(await main.getByRole('button', { name: /^Remove/ }).count()).toBe(0);
    expect(
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys' }).count(),
    ).toBe(0);
    expect(await fitsWidth(page)).toBe(true);

    await page.goto(`${base}/w/${ws}/api-keys`);
    await page.getByText('Only owners and admins of this workspace manage its API keys.').waitFor();
    expect(await page.getByRole('button', { name: 'Create key' }).count()).toBe(0);

    await page.goto(`${base}/w/${ws}/members`);
    await page.getByRole('button', { name: 'Leave workspace' }).click();
    await page.getByRole('button', { name: 'Leave', exact: true }).click();
    await heading(page, 'Create a workspace').waitFor();
    expect((await membersOf(ws)).some((m) => m.email === member.email)).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('creates an API key shown once that works on /api/v1, then revokes it', async () => {
    const { context, page } = await signedIn(owner);
    const errors = pageErrors(page);
    await page.goto(`${base}/w/${ws}/api-keys`);
    await heading(page, 'API keys').waitFor();
    await page.getByText('No API keys yet').waitFor();

    await page.getByLabel('Key name').fill('Zapier');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('alert').getByText('Choose at least one scope.').waitFor();
    await page.getByLabel(/chat:write/).check();
    await page.getByLabel(/events:read/).check();
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = await page.getByLabel('API key', { exact: true }).inputValue();
    expect(key).toMatch(/^wsk_live_[\w-]{43}$/);
    await page.getByText('Copy it now: you will not see it again.').waitFor();
    const row = page
      .getByRole('list', { name: 'API keys' })
      .getByRole('listitem')
      .filter({ hasText: 'Zapier' });
    await row.getByText(`…${key.slice(-4)}`).waitFor();
    expect(await row.getByRole('list', { name: 'Scopes of Zapier' }).textContent()).toBe(
      'chat:writeevents:read',
    );
    expect(await checkPage(page, 'api-keys')).toEqual([]);

    // The key works on the /api/v1 surface, with its scope: a message write gets past the
    // scope check to the unknown conversation (404, not 403 missing_scope).
    const who = await fetch(`${base}/api/v1/workspace`, bearer(key));
    expect(who.status).toBe(200);
    expect((await who.json()).data).toMatchObject({ id: ws, scopes: ['chat:write', 'events:read'] });
    const write = () =>
      fetch(`${base}/api/v1/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ conversationId: 'conv_nowhere', content: 'Hello' }),
      });
    expect((await write()).status).toBe(404);

    // Hidden for good once dismissed; the list keeps only its last four characters.
    await page.getByRole('button', { name: 'Done, hide the key' }).click();
    // (The query library re-renders on its next tick, not within the click.)
    await page.getByLabel('API key', { exact: true }).waitFor({ state: 'detached' });
    expect(await page.content()).not.toContain(key);

    // Revoke, confirmed: the very next request with it is refused.
    await page.getByRole('button', { name: 'Revoke Zapier' }).click();
    await page.getByRole('button', { name: 'Revoke key' }).click();
    await page.getByText('No API keys yet').waitFor();
    expect((await fetch(`${base}/api/v1/workspace`, bearer(key))).status).toBe(401);
    expect((await write()).status).toBe(401);

    // On Free, a write scope is refused in words.
    await setPlan(t, ws, 'free');
    await page.reload();
    await page.getByLabel('Key name').fill('CRM sync');
    await page.getByLabel(/contacts:write/).check();
    await page.getByRole('button', { name: 'Create key' }).click();
    await page
      .getByRole('alert')
      .getByText(/Write scopes need the Pro or Enterprise plan/)
      .waitFor();
    await setPlan(t, ws, 'pro');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('edits the profile, changes the password, the theme, tokens, exports and deletes', async () => {
    const user = await signupUser(t, { name: 'Ada Account' });
    const NEW_PASSWORD = 'a brand new long password';
    const context = await browser.newContext({
      viewport: { width: 1280, height: 860 },
      colorScheme: 'light',
    });
    const page = await context.newPage();
    const errors = pageErrors(page);
    // Sign in through the UI: the browser's session is then "this one", the API's another.
    const signIn = async (password: string) => {
      await page.getByLabel('Email').fill(user.email);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
    };
    await page.goto(`${base}/signin`);
    await signIn(user.password);
    await heading(page, 'Create a workspace').waitFor();
    const menu = await openMenu(page, 'Ada Account');
    await menu.getByRole('link', { name: 'Account settings' }).click();
    await heading(page, 'Account settings').waitFor();
    await menu.locator('summary').click(); // close the menu
    const main = page.getByRole('main');
    expect(await checkPage(page, 'account')).toEqual([]);

    // Profile: the new name shows in the menu at once; the email is read-only.
    expect(await main.getByLabel('Email').getAttribute('readonly')).not.toBeNull();
    await main.getByLabel('Name', { exact: true }).fill('Ada Lovelace');
    await main.getByRole('button', { name: 'Save profile' }).click();
    await main.getByText('Profile saved.').waitFor();
    await page.locator('details.menu summary', { hasText: 'Ada Lovelace' }).waitFor();
    const account = await t.request({ method: 'GET', url: '/api/account', headers: user.headers });
    expect(account.json().data.name).toBe('Ada Lovelace');

    // Password: a wrong current one in words; then the change signs out the other session.
    await main.getByLabel('Current password').fill('not my password');
    await main.getByLabel('New password').fill(NEW_PASSWORD);
    await main.getByRole('button', { name: 'Change password' }).click();
    await main.getByRole('alert').getByText('The current password is incorrect.').waitFor();
    await main.getByLabel('Current password').fill(user.password);
    await main.getByLabel('New password').fill(NEW_PASSWORD);
    await main.getByRole('button', { name: 'Change password' }).click();
    await main.getByText(/Your other sessions were signed out; this one stays signed in/).waitFor();
    expect(
      (await t.request({ method: 'GET', url: '/api/auth/session', headers: user.headers })).statusCode,
    ).toBe(401);

    // Theme: dark applies at once and is saved to the account.
    await main.getByLabel('Dark', { exact: true }).check();
    await main.getByRole('button', { name: 'Save preferences' }).click();
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    await main.getByText('Preferences saved.').waitFor();
    const prefs = await page.evaluate(
      async () => (await (await fetch('/api/account')).json()).data.preferences,
    );
    expect(prefs.theme).toBe('dark');

    // A personal access token: shown once, works on the workspace API, refused once revoked.
    await main.getByLabel('Token name').fill('CLI');
    await main.getByRole('button', { name: 'Create token' }).click();
    const token = await main.getByLabel('New token').inputValue();
    expect(token).toMatch(/^pat_/);
    expect((await fetch(`${base}/api/workspaces`, bearer(token))).status).toBe(200);
    await main.getByRole('button', { name: 'Revoke CLI' }).click();
    await main.getByRole('button', { name: 'Revoke token' }).click();
    await main.getByText('No tokens yet.', { exact: false }).waitFor();
    expect((await fetch(`${base}/api/workspaces`, bearer(token))).status).toBe(401);

    // Export: the link is emailed.
    await main.getByRole('button', { name: 'Email me my data' }).click();
    await main.getByText(`the link is on its way to ${user.email}`, { exact: false }).waitFor();

    // Sign out; the old password is refused, the new one works.
    await openMenu(page, 'Ada Lovelace');
    await menu.getByRole('button', { name: 'Sign out' }).click();
    await heading(page, 'Sign in to Parley').waitFor();
    await signIn(user.password);
    await page.getByRole('alert').waitFor();
    await signIn(NEW_PASSWORD);
    await heading(page, 'Create a workspace').waitFor();

    // Deletion needs DELETE typed out; afterwards the account is gone.
    await page.goto(`${base}/account`);
    const del = main.getByRole('button', { name: 'Delete my account' });
    await main.getByLabel('Type DELETE to confirm').fill('delete');
    expect(await del.isDisabled()).toBe(true);
    await main.getByLabel('Type DELETE to confirm').fill('DELETE');
    await del.click();
    await heading(page, 'Sign in to Parley').waitFor();
    const login = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: NEW_PASSWORD },
    });
    expect(login.statusCode).toBe(401);
    expect(errors).toEqual([]);
    await context.close();
  });
});
