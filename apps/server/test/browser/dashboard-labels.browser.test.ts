import { eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { widgetSessions } from '../../src/db/schema/index.ts';
import { signupUser, type TestUser } from '../support/factories.ts';
import type { TestApp } from '../support/harness.ts';
import { addMember, insertWorkspace } from '../support/world.ts';
import { initWidget, widgetAssistant, widgetChat } from '../widget/helpers.ts';
import { checkPage, startDashboard } from './dashboard-helpers.ts';
import { hasChromium, pageErrors } from './helpers.ts';

/**
 * Labels in the dashboard (docs/labels.md; docs/dashboard.md "Inbox", "Contacts and tickets") in
 * Chromium against the real server: the Labels page (add two, a taken name's 409 in words at the
 * name, edit, delete; a member reads only), a label set on a widget conversation from its page,
 * its chip in the inbox list, the inbox filtered by it (kept in the address), a contact's label
 * and the contacts filtered by it, and a set made through the API by another member reaching an
 * open inbox without a reload; a guest sees the chips and no checkbox. axe in light and dark.
 */

if (!hasChromium) console.warn('Labels browser tests skipped: /usr/bin/chromium is missing.');

let t: TestApp;
let base: string;
let browser: Browser;
let owner: TestUser;
let member: TestUser;
let guest: TestUser;
let ws: string;

beforeAll(async () => {
  if (!hasChromium) return;
  ({ t, base, browser } = await startDashboard({ WIDGET_RATE_LIMIT_PER_MINUTE: '100000' }));
  owner = await signupUser(t, { name: 'Ada Owner' });
  member = await signupUser(t, { name: 'Max Member' });
  ws = await insertWorkspace(t, owner, { name: 'Kettle Co.' });
  guest = await signupUser(t, { name: 'Gus Guest' });
  await addMember(t, ws, member, 'member');
  await addMember(t, ws, guest, 'guest');
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

let assistantId = '';
/** A widget conversation with one visitor message (as dashboard-canned.browser.test.ts makes one). */
async function widgetConversation(text: string) {
  if (!assistantId) {
    assistantId = await widgetAssistant(t, owner, ws, { allowedDomains: ['shop.example.com', '127.0.0.1'] });
  }
  const s = await initWidget(t, assistantId);
  await widgetChat(t, assistantId, s, text);
  const [row] = await t.ctx.db.select().from(widgetSessions).where(eq(widgetSessions.id, s.sessionId));
  return row!.conversationId!;
}

async function createLabel(name: string, color: string): Promise<string> {
  const res = await t.request({
    method: 'POST',
    url: `/api/workspaces/${ws}/labels`,
    headers: owner.headers,
    payload: { name, color },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.id;
}

describe.skipIf(!hasChromium)('labels in the dashboard', { timeout: 180_000 }, () => {
  it('the Labels page: add two, a taken name in words at the name, edit, delete; a member reads', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = pageErrors(page);
    const axe: string[] = [];
    await signIn(page, owner);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Labels' }).click();
    await heading(page, 'Labels').waitFor();
    await page.getByText('No labels yet').waitFor();
    expect(await page.title()).toBe('Labels · Kettle Co. · Parley');

    const form = page.getByRole('form', { name: 'Add a label' });
    const add = async (name: string, color: string, description = '') => {
      await form.getByLabel('Name').fill(name);
      await form.getByLabel('Color').fill(color);
      await form.getByLabel('Description').fill(description);
      await form.getByRole('button', { name: 'Add label' }).click();
    };
    const list = page.getByRole('list', { name: 'Labels' });
    await form.getByLabel('Color').fill('#ffd700');
    expect(await form.getByTestId('label-hex').textContent()).toBe('#ffd700');
    await add('Billing', '#ffd700', 'Money questions');
    await list.getByText('Billing').waitFor();
    await list.getByText('#ffd700').waitFor();
    await add('VIP', '#1e3a8a');
    await list.getByText('VIP').waitFor();
    expect(await form.getByLabel('Name').inputValue()).toBe('');
    axe.push(...(await checkPage(page, 'labels-list')));

    // A taken name in another case: the 409 in words at the name.
    await add('billing', '#00ff00');
    const nameError = form.getByText('Another label already has this name');
    await nameError.waitFor();
    expect(await form.getByLabel('Name').getAttribute('aria-invalid')).toBe('true');
    axe.push(...(await checkPage(page, 'labels-409')));

    // Edit, delete.
    await form.getByLabel('Name').fill('Temporary');
    await form.getByRole('button', { name: 'Add label' }).click();
    await list.getByText('Temporary').waitFor();
    await page.getByRole('button', { name: 'Edit VIP' }).click();
    const edit = page.getByRole('form', { name: 'Edit VIP' });
    await edit.getByLabel('Description').fill('Our biggest customers');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await list.getByText('Our biggest customers').waitFor();
    await page.getByRole('button', { name: 'Delete Temporary' }).click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('heading', { name: 'All labels (2)' }).waitFor();

    // A member reads them, with no form and no buttons.
    const other = await browser.newContext();
    const memberPage = await other.newPage();
    await signIn(memberPage, member);
    await memberPage.goto(`${base}/w/${ws}/labels`);
    await memberPage.getByRole('list', { name: 'Labels' }).getByText('Billing').waitFor();
    expect(await memberPage.getByRole('form', { name: 'Add a label' }).count()).toBe(0);
    expect(await memberPage.getByRole('button', { name: /Edit|Delete/ }).count()).toBe(0);
    await other.close();

    expect(axe).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a conversation: set from its page, the chip in the inbox, the inbox filtered by it; live from the API', async () => {
    const labels = (await t.request({ url: `/api/workspaces/${ws}/labels`, headers: owner.headers })).json()
      .data as Array<{ id: string; name: string }>;
    const billing = labels.find((l) => l.name === 'Billing')?.id ?? (await createLabel('Billing', '#ffd700'));
    const vip = labels.find((l) => l.name === 'VIP')?.id ?? (await createLabel('VIP', '#1e3a8a'));
    const first = await widgetConversation('My invoice is wrong');
    const second = await widgetConversation('Where is my order?');
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = pageErrors(page);
    const axe: string[] = [];
    await signIn(page, owner);

    // Set Billing on the first from its page: the chip in the header at once.
    await page.goto(`${base}/w/${ws}/inbox/${first}`);
    const picker = page.getByRole('group', { name: 'Labels of this conversation' });
    await picker.getByRole('checkbox', { name: 'Billing' }).check();
    await page.locator('.conv-facts').getByRole('list', { name: 'Labels' }).getByText('Billing').waitFor();
    await expect.poll(() => picker.getByRole('checkbox', { name: 'Billing' }).isChecked()).toBe(true);
    axe.push(...(await checkPage(page, 'labels-conversation')));

    // The chip in the inbox list, on that row only.
    await page.goto(`${base}/w/${ws}/inbox`);
    const row = (id: string) => page.locator(`[data-conversation="${id}"]`);
    await row(first).getByRole('list', { name: 'Labels' }).getByText('Billing').waitFor();
    expect(await row(second).getByRole('list', { name: 'Labels' }).count()).toBe(0);
    axe.push(...(await checkPage(page, 'labels-inbox')));

    // Filtered by the label: only that conversation; the address holds the filter.
    await page.getByRole('form', { name: 'Filters' }).getByLabel('Label').selectOption({ label: 'Billing' });
    await page.waitForURL(new RegExp(`[?&]label=${billing}`));
    await expect.poll(() => page.locator('[data-conversation]').count()).toBe(1);
    await row(first).waitFor();
    await page.reload();
    await row(first).waitFor();
    expect(await page.locator('[data-conversation]').count()).toBe(1);

    // Another member sets VIP on the second through the API: it appears in the open inbox, live.
    await page.goto(`${base}/w/${ws}/inbox`);
    await row(second).waitFor();
    const put = await t.request({
      method: 'PUT',
      url: `/api/inbox/conversations/${second}/labels?workspaceId=${ws}`,
      headers: member.headers,
      payload: { labelIds: [vip] },
    });
    expect(put.statusCode, put.body).toBe(200);
    await row(second).getByRole('list', { name: 'Labels' }).getByText('VIP').waitFor({ timeout: 15_000 });

    // A guest sees the conversation's chips, and no checkbox.
    const other = await browser.newContext();
    const guestPage = await other.newPage();
    await signIn(guestPage, guest);
    await guestPage.goto(`${base}/w/${ws}/inbox/${first}`);
    await guestPage.getByRole('list', { name: 'Labels of this conversation' }).getByText('Billing').waitFor();
    expect(await guestPage.getByRole('checkbox').count()).toBe(0);
    await other.close();

    expect(axe).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a contact: set its labels, the chips, the contacts filtered by a label', async () => {
    const labels = (await t.request({ url: `/api/workspaces/${ws}/labels`, headers: owner.headers })).json()
      .data as Array<{ id: string; name: string }>;
    const vip = labels.find((l) => l.name === 'VIP')?.id ?? (await createLabel('VIP', '#1e3a8a'));
    for (const name of ['Ana Lima', 'Bo Chen']) {
      const res = await t.request({
        method: 'POST',
        url: `/api/workspaces/${ws}/contacts`,
        headers: owner.headers,
        payload: { name },
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = pageErrors(page);
    await signIn(page, owner);
    await page.goto(`${base}/w/${ws}/contacts`);
    const list = page.getByRole('list', { name: 'Contacts' });
    const ana = list.getByRole('listitem').filter({ hasText: 'Ana Lima' });
    await ana.waitFor();
    await ana.getByText('Set labels').click();
    await ana
      .getByRole('group', { name: 'Labels of Ana Lima' })
      .getByRole('checkbox', { name: 'VIP' })
      .check();
    await ana.getByRole('list', { name: 'Labels of Ana Lima' }).getByText('VIP').waitFor();
    const axe = await checkPage(page, 'labels-contacts');

    await page.getByRole('combobox', { name: /^Label/ }).selectOption({ label: 'VIP' });
    await page.waitForURL(new RegExp(`[?&]label=${vip}`));
    await expect.poll(() => list.getByRole('listitem').filter({ hasText: 'Bo Chen' }).count()).toBe(0);
    await ana.waitFor();
    await page.getByRole('heading', { name: 'All contacts labeled VIP (1)' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'All contacts labeled VIP (1)' }).waitFor();

    // A guest sees the chips and is offered no change.
    const other = await browser.newContext();
    const guestPage = await other.newPage();
    await signIn(guestPage, guest);
    await guestPage.goto(`${base}/w/${ws}/contacts`);
    await guestPage.getByRole('list', { name: 'Labels of Ana Lima' }).getByText('VIP').waitFor();
    expect(await guestPage.getByText('Set labels').count()).toBe(0);
    await other.close();

    expect(axe).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
