import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signupUser, type TestUser } from '../support/factories.ts';
import type { TestApp } from '../support/harness.ts';
import { addMember, insertWorkspace } from '../support/world.ts';
import { checkPage, startDashboard } from './dashboard-helpers.ts';
import { hasChromium, pageErrors } from './helpers.ts';

/**
 * The SLA policies page (docs/sla.md "Policies"; docs/dashboard.md "Pages") in Chromium against
 * the real server: add a policy for a label, its targets in words; a second one; edit; delete
 * after the confirmation; a member reads with no form or button; a Free workspace's owner sees
 * the upgrade note instead of the form. axe in light and dark.
 */

if (!hasChromium) console.warn('SLA policies browser tests skipped: /usr/bin/chromium is missing.');

let t: TestApp;
let base: string;
let browser: Browser;
let owner: TestUser;
let member: TestUser;
let freeOwner: TestUser;
let ws: string;
let freeWs: string;

beforeAll(async () => {
  if (!hasChromium) return;
  ({ t, base, browser } = await startDashboard());
  owner = await signupUser(t, { name: 'Ada Owner' });
  member = await signupUser(t, { name: 'Max Member' });
  freeOwner = await signupUser(t, { name: 'Fay Free' });
  ws = await insertWorkspace(t, owner, { name: 'Kettle Co.' });
  freeWs = await insertWorkspace(t, freeOwner, { name: 'Small Shop', plan: 'free' });
  await addMember(t, ws, member, 'member');
  const label = await t.request({
    method: 'POST',
    url: `/api/workspaces/${ws}/labels`,
    headers: owner.headers,
    payload: { name: 'VIP', color: '#1e3a8a' },
  });
  expect(label.statusCode, label.body).toBe(201);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name });

async function signIn(page: Page, user: TestUser, workspace: string) {
  await page.goto(`${base}/signin`);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await heading(page, workspace).waitFor();
}

describe.skipIf(!hasChromium)('SLA policies in the dashboard', { timeout: 180_000 }, () => {
  it('add a policy for a label, edit it, delete one; a member reads; a Free workspace sees the upgrade note', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = pageErrors(page);
    const axe: string[] = [];
    await signIn(page, owner, 'Kettle Co.');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'SLA policies' }).click();
    await heading(page, 'SLA policies').waitFor();
    await page.getByText('No SLA policies yet').waitFor();
    expect(await page.title()).toBe('SLA policies · Kettle Co. · Parley');

    const form = page.getByRole('form', { name: 'Add a policy' });
    const list = page.getByRole('list', { name: /SLA policies/ });
    // No target at all: the API's 400 at First response.
    await form.getByLabel('Name', { exact: true }).fill('VIP customers');
    await form.getByRole('button', { name: 'Add policy' }).click();
    await form.getByText('Set at least one of').waitFor();
    expect(await form.getByLabel('First response', { exact: true }).getAttribute('aria-invalid')).toBe(
      'true',
    );
    axe.push(...(await checkPage(page, 'sla-error')));

    await form.getByLabel('First response', { exact: true }).fill('30');
    await form.getByLabel('Resolution', { exact: true }).fill('8');
    await form.getByLabel('Resolution unit').selectOption('h');
    await form.getByRole('group', { name: 'Channels' }).getByLabel('Website widget').check();
    await form.getByRole('group', { name: 'Labels' }).getByLabel('VIP').check();
    await form.getByLabel('Priority').fill('5');
    await form.getByRole('button', { name: 'Add policy' }).click();
    await list.getByText('First response 30 min · Resolution 8 h').waitFor();
    await list.getByRole('list', { name: 'Labels of VIP customers' }).getByText('VIP').waitFor();
    await list.getByText('Website widget').waitFor();
    await list.getByText('Business hours only').waitFor();
    expect(await form.getByLabel('Name', { exact: true }).inputValue()).toBe('');

    await form.getByLabel('Name', { exact: true }).fill('Everyone else');
    await form.getByLabel('Next response', { exact: true }).fill('2');
    await form.getByLabel('Next response unit').selectOption('d');
    await form.getByLabel('Count business hours only').uncheck();
    await form.getByLabel('Priority').fill('50');
    await form.getByRole('button', { name: 'Add policy' }).click();
    await list.getByText('Next response 2 d').waitFor();
    await list.getByText('Around the clock').waitFor();
    await list.getByText('every conversation').waitFor();
    await page.getByRole('heading', { name: 'All policies (2)' }).waitFor();
    axe.push(...(await checkPage(page, 'sla-list')));

    // Edit: the form shows 8 hours as it was saved, and the change reaches the list.
    await page.getByRole('button', { name: 'Edit VIP customers' }).click();
    const edit = page.getByRole('form', { name: 'Edit VIP customers' });
    expect(await edit.getByLabel('Resolution', { exact: true }).inputValue()).toBe('8');
    expect(await edit.getByLabel('Resolution unit').inputValue()).toBe('h');
    expect(await edit.getByRole('group', { name: 'Labels' }).getByLabel('VIP').isChecked()).toBe(true);
    await edit.getByLabel('First response', { exact: true }).fill('');
    await edit.getByLabel('Resolution', { exact: true }).fill('90');
    await edit.getByLabel('Resolution unit').selectOption('min');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await list.getByText('Resolution 1 h 30 min', { exact: true }).waitFor();
    await page.getByRole('form', { name: 'Add a policy' }).waitFor();

    // Delete after the confirmation in place.
    await page.getByRole('button', { name: 'Delete Everyone else' }).click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('heading', { name: 'All policies (1)' }).waitFor();
    expect(await list.getByText('Everyone else').count()).toBe(0);

    // A member reads, with no form and no buttons.
    const other = await browser.newContext();
    const memberPage = await other.newPage();
    await signIn(memberPage, member, 'Kettle Co.');
    await memberPage.goto(`${base}/w/${ws}/sla-policies`);
    await memberPage
      .getByRole('list', { name: /SLA policies/ })
      .getByText('VIP customers')
      .waitFor();
    expect(await memberPage.getByRole('form', { name: 'Add a policy' }).count()).toBe(0);
    expect(await memberPage.getByRole('button', { name: /Edit|Delete/ }).count()).toBe(0);
    await other.close();

    // A Free workspace: the upgrade note where the form would be.
    const free = await browser.newContext();
    const freePage = await free.newPage();
    await signIn(freePage, freeOwner, 'Small Shop');
    await freePage.goto(`${base}/w/${freeWs}/sla-policies`);
    await freePage.getByRole('heading', { name: 'SLA policies need the Pro or Enterprise plan' }).waitFor();
    await freePage.getByRole('link', { name: 'Upgrade on the Billing page' }).waitFor();
    expect(await freePage.getByRole('form', { name: 'Add a policy' }).count()).toBe(0);
    axe.push(...(await checkPage(freePage, 'sla-free')));
    await free.close();

    expect(axe).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
