import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signupUser, type TestUser } from '../support/factories.ts';
import type { TestApp } from '../support/harness.ts';
import { addMember, insertWorkspace } from '../support/world.ts';
import { checkPage, startDashboard } from './dashboard-helpers.ts';
import { hasChromium, pageErrors } from './helpers.ts';

/**
 * The Business hours page (docs/business-hours.md "In the dashboard") in Chromium against the real
 * server: always open at first; an owner sets a week (a time zone, a second range on Friday, a
 * closed Monday, a holiday, the message) and saves it; a range that closes before it opens is
 * refused at its day; a member reads the week without a save button; "Always open" removes the
 * hours. axe in light and dark.
 */

if (!hasChromium) console.warn('Business hours browser tests skipped: /usr/bin/chromium is missing.');

let t: TestApp;
let base: string;
let browser: Browser;
let owner: TestUser;
let member: TestUser;
let ws: string;

beforeAll(async () => {
  if (!hasChromium) return;
  ({ t, base, browser } = await startDashboard());
  owner = await signupUser(t, { name: 'Ada Owner' });
  member = await signupUser(t, { name: 'Max Member' });
  ws = await insertWorkspace(t, owner, { name: 'Kettle Co.' });
  await addMember(t, ws, member, 'member');
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name });

async function signIn(page: Page, user: TestUser) {
  await page.goto(`${base}/signin`);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await heading(page, 'Kettle Co.').waitFor();
}

const stored = async () =>
  (await t.request({ url: `/api/workspaces/${ws}/business-hours`, headers: owner.headers })).json().data;

describe.skipIf(!hasChromium)('business hours in the dashboard', { timeout: 180_000 }, () => {
  it('an owner saves a week; a broken range is said at its day; a member reads; Always open clears', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = pageErrors(page);
    const axe: string[] = [];
    await signIn(page, owner);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Business hours' })
      .click();
    await heading(page, 'Business hours').waitFor();
    expect(await page.title()).toBe('Business hours · Kettle Co. · Parley');
    await page.getByText('Always open.', { exact: true }).waitFor();
    axe.push(...(await checkPage(page, 'business-hours-none')));

    await page.getByRole('button', { name: 'Set business hours' }).click();
    const form = page.getByRole('form', { name: 'Business hours' });
    await form.getByLabel('Time zone').selectOption('Europe/Paris');
    // Monday closed, Friday with an evening shift until midnight.
    await form.getByRole('button', { name: 'Remove Monday range 1' }).click();
    await form.getByRole('group', { name: 'Monday' }).getByText('Closed').waitFor();
    await form.getByRole('button', { name: 'Add a range on Friday' }).click();
    await form.getByLabel('Friday range 2 opens').fill('20:00');
    await form.getByLabel('Friday range 2 closes').fill('24:00');
    await form.getByLabel('Add a holiday').fill('2026-12-25');
    await form.getByRole('button', { name: 'Add', exact: true }).click();
    await form.getByRole('list', { name: 'Holidays' }).getByRole('listitem').first().waitFor();
    await form.getByLabel('Message outside business hours').fill('We are away — à bientôt!');

    // A range that closes before it opens: the API's 400 at that day, nothing stored.
    await form.getByLabel('Tuesday range 1 closes').fill('08:00');
    await form.getByRole('button', { name: 'Save business hours' }).click();
    await form.getByRole('group', { name: 'Tuesday' }).getByText('A range closes after it opens').waitFor();
    expect(await form.getByLabel('Tuesday range 1 closes').getAttribute('aria-invalid')).toBe('true');
    expect(await stored()).toBeNull();

    await form.getByLabel('Tuesday range 1 closes').fill('17:00');
    await form.getByRole('button', { name: 'Save business hours' }).click();
    await page.getByRole('status').getByText('Business hours saved.').waitFor();
    expect(await stored()).toMatchObject({
      timezone: 'Europe/Paris',
      week: {
        mon: [],
        tue: [{ open: '09:00', close: '17:00' }],
        fri: [
          { open: '09:00', close: '17:00' },
          { open: '20:00', close: '24:00' },
        ],
        sat: [],
        sun: [],
      },
      holidays: ['2026-12-25'],
      outsideHoursMessage: 'We are away — à bientôt!',
    });
    axe.push(...(await checkPage(page, 'business-hours-week')));

    // A member reads the week, with nothing to save.
    const other = await browser.newContext();
    const memberPage = await other.newPage();
    await signIn(memberPage, member);
    await memberPage.goto(`${base}/w/${ws}/business-hours`);
    const read = memberPage.getByRole('form', { name: 'Business hours' });
    expect(await read.getByLabel('Friday range 2 opens').inputValue()).toBe('20:00');
    expect(await read.getByRole('button', { name: /Save|Always open|Remove|Add/ }).count()).toBe(0);
    await other.close();

    // Back to always open.
    await form.getByRole('button', { name: 'Always open' }).click();
    await page.getByRole('button', { name: 'Remove business hours' }).click();
    await page.getByRole('status').getByText('Always open: business hours removed.').waitFor();
    await page.getByText('Always open.', { exact: true }).waitFor();
    expect(await stored()).toBeNull();

    expect(axe).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
