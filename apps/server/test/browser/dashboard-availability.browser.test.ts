import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signupUser, type TestUser } from '../support/factories.ts';
import type { TestApp } from '../support/harness.ts';
import { addMember, insertWorkspace } from '../support/world.ts';
import { checkPage, fitsWidth, startDashboard } from './dashboard-helpers.ts';
import { hasChromium, pageErrors } from './helpers.ts';

/**
 * docs/workspaces.md "Availability" in Chromium: the header's switch sets the signed-in person's
 * availability through the API; a guest, who answers no conversation, gets no switch. axe in light
 * and dark; the header still fits a phone's width.
 */

if (!hasChromium) console.warn('Availability browser tests skipped: /usr/bin/chromium is missing.');

let t: TestApp;
let base: string;
let browser: Browser;
let owner: TestUser;
let guest: TestUser;
let ws: string;

beforeAll(async () => {
  if (!hasChromium) return;
  ({ t, base, browser } = await startDashboard());
  owner = await signupUser(t, { name: 'Ada Owner' });
  guest = await signupUser(t, { name: 'Gus Guest' });
  ws = await insertWorkspace(t, owner, { name: 'Kettle Co.' });
  await addMember(t, ws, guest, 'guest');
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

async function signIn(user: TestUser): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${base}/signin`);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Kettle Co.' }).waitFor();
  return page;
}

const availabilityOf = async (userId: string) =>
  (await t.request({ method: 'GET', url: `/api/workspaces/${ws}/members`, headers: owner.headers }))
    .json()
    .data.find((m: { userId: string }) => m.userId === userId)?.availability;

describe.skipIf(!hasChromium)('availability in the header', () => {
  it('the switch sets it; a guest has none', async () => {
    const page = await signIn(owner);
    const errors = pageErrors(page);
    const box = page.getByLabel('Your availability');
    await expect.poll(() => box.inputValue()).toBe('offline');
    await box.selectOption('online');
    await expect.poll(() => availabilityOf(owner.id)).toBe('online');
    await page.reload();
    await expect.poll(() => page.getByLabel('Your availability').inputValue()).toBe('online');
    expect(await checkPage(page, 'availability')).toEqual([]);
    await page.setViewportSize({ width: 375, height: 800 });
    expect(await fitsWidth(page)).toBe(true);
    expect(errors).toEqual([]);

    const guestPage = await signIn(guest);
    await guestPage.getByRole('link', { name: 'Inbox' }).waitFor();
    expect(await guestPage.getByLabel('Your availability').count()).toBe(0);
  }, 120_000);
});
