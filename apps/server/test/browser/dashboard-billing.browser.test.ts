import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chat } from '../chat/helpers.ts';
import { createAssistant, signupUser, type TestUser } from '../support/factories.ts';
import type { TestApp } from '../support/harness.ts';
import { type StripeStandIn, startStripeStandIn } from '../support/stripe-server.ts';
import { addMember, insertWorkspace, setUsed } from '../support/world.ts';
import { checkPage, startDashboard } from './dashboard-helpers.ts';
import { hasChromium, pageErrors, shot, startApp } from './helpers.ts';

/**
 * The dashboard's billing page and notifications menu in Chromium against the real server
 * (docs/dashboard.md "Billing", "Notifications"). Without Stripe: the plan, the trial's countdown
 * and the credits meter; the owner gets the operator's command instead of buttons. With the local Stripe
 * stand-in (test/support/stripe-server.ts) as STRIPE_API_BASE: "Upgrade to Pro" and "Manage
 * billing" lead the browser to the Checkout and portal URLs Stripe returned. A credit alert and an
 * invitation raise the bell's unread count; marking read clears it; the preferences page turns a
 * kind off. An admin and a member read the page without any action.
 */

if (!hasChromium) console.warn('Dashboard billing browser tests skipped: /usr/bin/chromium is missing.');

let t: TestApp;
let base: string;
let browser: Browser;

beforeAll(async () => {
  if (!hasChromium) return;
  ({ t, base, browser } = await startDashboard());
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name });

/** A browser context signed in as `user` on the app at `at`, and its page. */
async function signedIn(user: TestUser, at = base): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, colorScheme: 'light' });
  const value = user.cookie.slice(user.cookie.indexOf('=') + 1);
  await context.addCookies([{ name: 'parley.session-token', value, url: at }]);
  return { context, page: await context.newPage() };
}

/** A workspace created through the API: a 14-day Pro trial from now (docs/workspaces.md "Workspaces"). */
async function newWorkspace(app: TestApp, owner: TestUser, name: string): Promise<string> {
  const res = await app.request({
    method: 'POST',
    url: '/api/workspaces',
    headers: owner.headers,
    payload: { name },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.id;
}

const bell = (page: Page) => page.locator('details.bell');
const unread = (page: Page) => page.getByTestId('unread-count');

async function openBell(page: Page) {
  if (!(await bell(page).evaluate((el) => (el as HTMLDetailsElement).open))) {
    await bell(page).locator('summary').click();
  }
}

describe.skipIf(!hasChromium)('billing page and notifications, no Stripe', { timeout: 90_000 }, () => {
  it('shows the plan, the trial countdown and the meter; the operator command instead of buttons', async () => {
    const owner = await signupUser(t, { name: 'Olive Owner', email: 'olive@billing.example' });
    const ws = await newWorkspace(t, owner, 'Acme');
    await setUsed(t, ws, 1000); // of Pro's 1,200: 83%, past the 80% warning
    const { context, page } = await signedIn(owner);
    const errors = pageErrors(page);

    await page.goto(`${base}/w/${ws}`);
    // The overview names the plan as the billing page does.
    await page.getByText('Plan: Pro (trial) · Your role: owner').waitFor();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Billing' }).click();
    await heading(page, 'Billing').waitFor();
    await page.waitForFunction(() => document.title === 'Billing · Acme · Parley');
    expect(await page.getByTestId('current-plan').textContent()).toBe('Pro (trial)');
    expect(await page.getByTestId('trial-countdown').textContent()).toMatch(
      /^14 days left in your Pro trial \(ends /,
    );
    // Nobody can upgrade from this page without online billing: it does not say to.
    await expect
      .poll(() => page.getByTestId('trial-countdown').textContent())
      .toMatch(/Then the workspace moves to Free, unless the operator changes its plan\.$/);
    // Prices with their currency.
    await page.getByText('$29 a month', { exact: true }).waitFor();
    expect(await page.getByTestId('credits-used').textContent()).toBe('1,000 of 1,200 used');
    const meter = page.getByRole('meter', { name: 'Credits used' });
    expect(await meter.getAttribute('data-level')).toBe('high');
    expect(await meter.evaluate((m) => (m as HTMLMeterElement).value)).toBe(1000);
    await page.getByText("83% of this period's credits are used.").waitFor();
    await page.getByText('0 of 5,000').waitFor(); // contacts against the Pro quota

    // The summary says online billing is off (`subscription.provider` null): the note is there
    // from the start and no upgrade button ever was.
    const summary = (
      await t.request({ method: 'GET', url: `/api/workspaces/${ws}/billing`, headers: owner.headers })
    ).json().data;
    expect(summary.subscription?.provider).toBeNull();
    await page.getByRole('heading', { name: 'Billing is managed by the operator' }).waitFor();
    await page.getByText(`npm run plan -- ${ws} <free|pro|enterprise>`).waitFor();
    expect(await page.getByRole('button', { name: /^Upgrade to/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Manage billing' }).count()).toBe(0);
    expect(await page.url()).toBe(`${base}/w/${ws}/billing`);
    expect(await checkPage(page, 'billing-operator')).toEqual([]);

    // All credits used: the meter's last state.
    await setUsed(t, ws, 1200);
    await page.reload();
    await page.getByText('All credits are used: assistants stop answering until').waitFor();
    expect(await meter.getAttribute('data-level')).toBe('full');
    expect(errors.filter((e) => !e.includes('400'))).toEqual([]);
    await context.close();
  });

  it('a credit alert and an invitation raise the unread count; mark read clears it', async () => {
    const owner = await signupUser(t, { name: 'Nora Owner', email: 'nora@billing.example' });
    const ivy = await signupUser(t, { name: 'Ivy Invitee', email: 'ivy@billing.example' });
    const ws = await newWorkspace(t, owner, 'Kettle Co.');
    const assistantId = await createAssistant(t, owner, ws);
    const { context, page } = await signedIn(owner);

    await page.goto(`${base}/w/${ws}/billing`);
    await heading(page, 'Billing').waitFor();
    await bell(page).locator('summary[aria-label="Notifications"]').waitFor();
    expect(await unread(page).count()).toBe(0);

    // The 100% alert: the last credit is gone and a chat is refused (docs/credits.md "Alerts").
    await setUsed(t, ws, 1200);
    const refused = await chat(t, owner, { assistantId, content: 'hello' });
    expect(refused.status).toBe(403);
    // The count is asked again on the next page.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Overview' }).click();
    await expect
      .poll(() =>
        unread(page)
          .textContent()
          .catch(() => null),
      )
      .toBe('1');
    await bell(page).locator('summary[aria-label="Notifications, 1 unread"]').waitFor();
    await openBell(page);
    const list = page.getByRole('list', { name: 'Notifications' });
    const item = list.getByRole('listitem').first();
    expect(await item.textContent()).toMatch(/credit/i);
    await shot(page, 'readme-notifications');
    await item.getByRole('button', { name: /^Mark read: / }).click();
    await unread(page).waitFor({ state: 'detached' });
    await list.getByRole('button', { name: /^Mark read: / }).waitFor({ state: 'detached' });
    const api = await t.request({ method: 'GET', url: '/api/notifications', headers: owner.headers });
    expect(api.json().data.every((n: { readAt: string | null }) => n.readAt !== null)).toBe(true);

    // The notice's title leads to the billing page.
    await item.getByRole('button').first().click();
    await page.waitForURL(`${base}/w/${ws}/billing`);

    // An invitation, to someone who has an account: their bell shows it; "Mark all read" clears it.
    const invite = await t.request({
      method: 'POST',
      url: `/api/workspaces/${ws}/invitations`,
      headers: owner.headers,
      payload: { email: ivy.email, role: 'member' },
    });
    expect(invite.statusCode, invite.body).toBe(201);
    const other = await signedIn(ivy);
    await other.page.goto(`${base}/account`);
    await heading(other.page, 'Account settings').waitFor();
    await expect
      .poll(() =>
        unread(other.page)
          .textContent()
          .catch(() => null),
      )
      .toBe('1');
    await openBell(other.page);
    await other.page.getByRole('list', { name: 'Notifications' }).getByText('Kettle Co.').first().waitFor();
    await other.page.getByRole('button', { name: 'Mark all read' }).click();
    await unread(other.page).waitFor({ state: 'detached' });

    // Preferences: invitations off in the app; the next one does not reach the bell.
    await other.page.getByRole('link', { name: 'Notification settings' }).click();
    await heading(other.page, 'Notification settings').waitFor();
    await other.page.waitForFunction(() => document.title === 'Notification settings · Parley');
    const box = other.page.getByRole('checkbox', { name: 'An invitation to a workspace: in the app' });
    expect(await box.isChecked()).toBe(true);
    await box.uncheck();
    await expect
      .poll(
        async () =>
          (
            await t.request({
              method: 'GET',
              url: '/api/account/notification-preferences',
              headers: ivy.headers,
            })
          ).json().data.invitation,
      )
      .toEqual({ inApp: false, email: true });
    expect(await checkPage(other.page, 'notification-settings')).toEqual([]);
    const elsewhere = await insertWorkspace(t, owner, { name: 'Second Co.', plan: 'enterprise' });
    const again = await t.request({
      method: 'POST',
      url: `/api/workspaces/${elsewhere}/invitations`,
      headers: owner.headers,
      payload: { email: ivy.email, role: 'member' },
    });
    expect(again.statusCode, again.body).toBe(201);
    await other.page.reload();
    await heading(other.page, 'Notification settings').waitFor();
    await bell(other.page).locator('summary[aria-label="Notifications"]').waitFor();
    const unreadNow = await t.request({ method: 'GET', url: '/api/notifications', headers: ivy.headers });
    expect(unreadNow.json().data.filter((n: { readAt: string | null }) => !n.readAt)).toEqual([]);
    await other.context.close();
    await context.close();
  });

  it('an admin and a member read the plan and credits, with no action offered', async () => {
    const owner = await signupUser(t, { name: 'Owen Owner' });
    const admin = await signupUser(t, { name: 'Ada Admin' });
    const member = await signupUser(t, { name: 'Mo Member' });
    const ws = await newWorkspace(t, owner, 'Readers Ltd');
    await addMember(t, ws, admin, 'admin');
    await addMember(t, ws, member, 'member');
    for (const user of [admin, member]) {
      const { context, page } = await signedIn(user);
      await page.goto(`${base}/w/${ws}/billing`);
      await heading(page, 'Billing').waitFor();
      await page.getByTestId('trial-countdown').waitFor();
      await page.getByText('Only the workspace owner changes the plan').waitFor();
      await page.getByRole('list', { name: 'Plans' }).waitFor();
      expect(
        await page
          .getByRole('button')
          .filter({ hasText: /Upgrade|Manage billing|Cancel|Move to/ })
          .count(),
      ).toBe(0);
      // And the API agrees (docs/workspaces.md "Roles": billing is the owner's).
      const res = await t.request({
        method: 'POST',
        url: `/api/workspaces/${ws}/billing/checkout`,
        headers: user.headers,
        payload: { plan: 'pro' },
      });
      expect(res.statusCode).toBe(403);
      await context.close();
    }
  });
});

describe.skipIf(!hasChromium)('billing page with the Stripe stand-in', { timeout: 90_000 }, () => {
  let stripe: StripeStandIn;
  let s: TestApp;
  let sBase: string;

  beforeAll(async () => {
    stripe = await startStripeStandIn();
    ({ t: s, base: sBase } = await startApp({
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
      STRIPE_PRICE_PRO: stripe.prices.pro,
      STRIPE_PRICE_ENTERPRISE: stripe.prices.enterprise,
      STRIPE_API_BASE: stripe.url,
    }));
  }, 60_000);

  afterAll(async () => {
    await s?.close();
    await stripe?.close();
  });

  it("upgrade and Manage billing lead to Stripe's Checkout and portal pages", async () => {
    const owner = await signupUser(s, { name: 'Pia Payer', email: 'pia@billing.example' });
    const member = await signupUser(s, { name: 'Max Member' });
    const ws = await newWorkspace(s, owner, 'Paying Co.');
    await addMember(s, ws, member, 'member');
    await setUsed(s, ws, 1000);
    const { context, page } = await signedIn(owner, sBase);
    // Stripe's pages are not reachable from here: answer them with a stand-in page.
    await context.route(/^https:\/\/(checkout|billing)\.stripe\.test\//, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: '<!doctype html><title>Stripe</title><h1>Stripe</h1>',
      }),
    );

    await page.goto(`${sBase}/w/${ws}/billing`);
    await heading(page, 'Billing').waitFor();
    await page.getByTestId('trial-countdown').waitFor();
    // With online billing the owner is told to upgrade in time.
    expect(await page.getByTestId('trial-countdown').textContent()).toContain(
      'Upgrade before then to keep Pro; otherwise the workspace moves to Free.',
    );
    const plans = page.getByRole('list', { name: 'Plans' });
    await plans.getByRole('button', { name: 'Upgrade to Enterprise' }).waitFor();
    await page.getByRole('heading', { name: 'Invoices' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Billing is managed by the operator' }).count()).toBe(0);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await shot(page, 'readme-billing');
    expect(await checkPage(page, 'billing')).toEqual([]);

    await plans.getByRole('button', { name: 'Upgrade to Pro' }).click();
    await page.waitForURL(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_/);
    const session = [...stripe.sessions.values()].at(-1) as Record<string, unknown>;
    expect(page.url()).toBe(session.url);
    expect(session.metadata).toMatchObject({ workspaceId: ws, plan: 'pro' });
    expect(session.success_url).toContain(ws);

    await page.goto(`${sBase}/w/${ws}/billing`);
    await page.getByRole('button', { name: 'Manage billing' }).click();
    await page.waitForURL(/^https:\/\/billing\.stripe\.test\/p\/session\/bps_/);
    expect(stripe.requests.some((r) => r.path === '/v1/billing_portal/sessions')).toBe(true);

    // Back from Checkout at the success URL the server gave Stripe: the billing page says the
    // payment is being confirmed.
    const back = new URL(String(session.success_url));
    await page.goto(`${sBase}${back.pathname}${back.search}`);
    await page.waitForURL(`${sBase}/w/${ws}/billing?checkout=done`);
    await page.getByText('Your payment is being confirmed').waitFor();
    await context.close();

    // A member, with Stripe configured too, reads only.
    const other = await signedIn(member, sBase);
    await other.page.goto(`${sBase}/w/${ws}/billing`);
    await heading(other.page, 'Billing').waitFor();
    await other.page.getByText('Only the workspace owner changes the plan').waitFor();
    expect(await other.page.getByRole('button', { name: /Upgrade|Manage billing/ }).count()).toBe(0);
    await other.context.close();
  });
});
