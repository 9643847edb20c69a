import { and, eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberships, widgetSessions } from '../../src/db/schema/index.ts';
import { addRule } from '../steering/helpers.ts';
import { signupUser, type TestUser } from '../support/factories.ts';
import type { TestApp } from '../support/harness.ts';
import { addMember, insertWorkspace } from '../support/world.ts';
import { initWidget, widgetAssistant, widgetChat } from '../widget/helpers.ts';
import { checkPage, startDashboard } from './dashboard-helpers.ts';
import { hasChromium, pageErrors } from './helpers.ts';

/**
 * Auto-assignment in the dashboard (docs/inbox.md "Auto-assignment"; docs/dashboard.md "Pages",
 * "Inbox") in Chromium against the real server: an admin turns it on and sets the maximum on the
 * Auto-assignment page (a refused maximum said at its field), a member reads it; a member online
 * with the inbox open is given a handed-off conversation, shown in their inbox list without a
 * reload; the `conversation.assigned` notification leads to the conversation; another member's
 * availability and a reassignment, both through the API, reach the open conversation page live.
 */

if (!hasChromium) console.warn('Auto-assignment browser tests skipped: /usr/bin/chromium is missing.');

const TRIGGER = 'a human please';

let t: TestApp;
let base: string;
let browser: Browser;
let owner: TestUser;
let admin: TestUser;
let member: TestUser;
let other: TestUser;
let ws: string;
let assistantId: string;

beforeAll(async () => {
  if (!hasChromium) return;
  ({ t, base, browser } = await startDashboard({ WIDGET_RATE_LIMIT_PER_MINUTE: '100000' }));
  owner = await signupUser(t, { name: 'Ada Owner' });
  admin = await signupUser(t, { name: 'Abe Admin' });
  member = await signupUser(t, { name: 'Max Member' });
  other = await signupUser(t, { name: 'Mia Other' });
  ws = await insertWorkspace(t, owner, { name: 'Kettle Co.' });
  await addMember(t, ws, admin, 'admin');
  await addMember(t, ws, member, 'member');
  await addMember(t, ws, other, 'member');
  assistantId = await widgetAssistant(t, owner, ws, { allowedDomains: ['shop.example.com', '127.0.0.1'] });
  await addRule(t, owner, assistantId, {
    name: 'people',
    kind: 'handoff',
    text: 'A person will answer.',
    triggers: [TRIGGER],
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name });

async function signIn(user: TestUser): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${base}/signin`);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await heading(page, 'Kettle Co.').waitFor();
  return page;
}

/** The settings as the API reports them (compared by the two fields this page sets). */
const settings = async () =>
  (await t.request({ url: `/api/workspaces/${ws}/inbox-settings`, headers: owner.headers })).json().data;

const setAvailability = async (user: TestUser, status: string) => {
  const res = await t.request({
    method: 'PUT',
    url: `/api/workspaces/${ws}/members/me/availability`,
    headers: user.headers,
    payload: { status },
  });
  expect(res.statusCode, res.body).toBe(200);
};

/** When `user`'s inbox stream last said they are present (null: never). */
async function seenAt(user: TestUser) {
  const [m] = await t.ctx.db
    .select({ at: memberships.inboxSeenAt })
    .from(memberships)
    .where(and(eq(memberships.workspaceId, ws), eq(memberships.userId, user.id)));
  return m?.at ?? null;
}

/** A widget visitor asks for a person (the handoff rule's trigger); returns the conversation's id. */
async function handoff(): Promise<string> {
  const s = await initWidget(t, assistantId);
  const r = await widgetChat(t, assistantId, s, TRIGGER);
  expect(r.status, r.res.body).toBe(200);
  const [row] = await t.ctx.db.select().from(widgetSessions).where(eq(widgetSessions.id, s.sessionId));
  return row!.conversationId!;
}

describe.skipIf(!hasChromium)('auto-assignment in the dashboard', { timeout: 180_000 }, () => {
  it('an admin turns it on and sets the maximum (a refused one in words at the field); a member reads it', async () => {
    const page = await signIn(admin);
    const errors = pageErrors(page);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Auto-assignment' })
      .click();
    await heading(page, 'Auto-assignment').waitFor();
    expect(await page.title()).toBe('Auto-assignment · Kettle Co. · Parley');
    const form = page.getByRole('form', { name: 'Inbox settings' });
    const toggle = form.getByRole('switch', { name: 'Assign conversations automatically' });
    const max = form.getByLabel('Most open conversations per person');
    await expect.poll(() => max.inputValue()).toBe('10');
    expect(await toggle.isChecked()).toBe(false);
    await form.getByText('online and has the inbox open').waitFor();

    // Over the limit: the server's refusal at the field, nothing saved.
    await toggle.check();
    await max.fill('101');
    await form.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(() => max.getAttribute('aria-invalid')).toBe('true');
    const fieldError = page.locator('#inbox-settings-maxOpenPerAgent-error');
    expect(await fieldError.textContent()).toMatch(/^Enter a whole number from 1 to 100\. \(.*100.*\)$/);
    expect(await max.getAttribute('aria-describedby')).toContain('inbox-settings-maxOpenPerAgent-error');
    expect(await settings()).toMatchObject({ autoAssign: false, maxOpenPerAgent: 10 });
    // An empty box is said here, before any request.
    await max.fill('');
    await form.getByRole('button', { name: 'Save settings' }).click();
    await form.getByText('Enter a whole number from 1 to 100.', { exact: true }).waitFor();
    const axe = await checkPage(page, 'auto-assign-error');

    await max.fill('3');
    expect(await max.getAttribute('aria-invalid')).toBeNull();
    await form.getByRole('button', { name: 'Save settings' }).click();
    await form.getByRole('status').getByText('Settings saved.').waitFor();
    await expect.poll(settings).toMatchObject({ autoAssign: true, maxOpenPerAgent: 3 });
    await page.reload();
    await expect.poll(() => page.getByLabel('Most open conversations per person').inputValue()).toBe('3');
    expect(await page.getByRole('switch', { name: 'Assign conversations automatically' }).isChecked()).toBe(
      true,
    );
    axe.push(...(await checkPage(page, 'auto-assign')));

    // A member reads them: no form, no switch.
    const memberPage = await signIn(member);
    await memberPage.goto(`${base}/w/${ws}/auto-assignment`);
    const read = memberPage.getByRole('definition');
    await expect.poll(() => read.allTextContents()).toEqual(['On', '3']);
    expect(await memberPage.getByRole('switch').count()).toBe(0);
    expect(await memberPage.getByRole('form', { name: 'Inbox settings' }).count()).toBe(0);
    await memberPage.getByText('Owners and admins change these settings.').waitFor();
    axe.push(...(await checkPage(memberPage, 'auto-assign-read')));
    await memberPage.context().close();

    expect(axe).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('a member online with the inbox open is given a handoff live; the notice leads to it; availability and a reassignment arrive live', async () => {
    const res = await t.request({
      method: 'PUT',
      url: `/api/workspaces/${ws}/inbox-settings`,
      headers: owner.headers,
      payload: { autoAssign: true, maxOpenPerAgent: 3 },
    });
    expect(res.statusCode, res.body).toBe(200);
    const page = await signIn(member);
    const errors = pageErrors(page);
    // Online from the header's switch, then the inbox open: present.
    await page.getByLabel('Your availability').selectOption('online');
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Inbox', exact: true })
      .click();
    await heading(page, 'Inbox').waitFor();
    await expect.poll(() => seenAt(member), { timeout: 10_000 }).not.toBeNull();
    // A mark on this page: still there after the conversation arrives means it was not reloaded.
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));

    // (b) A visitor asks for a person: the conversation shows up assigned to the member, no reload.
    const id = await handoff();
    const row = page.locator(`[data-conversation="${id}"]`);
    await row.waitFor({ timeout: 15_000 });
    await expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain('Assigned to you');
    expect(await row.textContent()).toContain('Person answering');
    expect(await page.evaluate(() => 'sameDocument' in window)).toBe(true);

    // (d) The notice in the bell leads to the conversation.
    const bell = page.locator('details.bell');
    await bell.locator('summary').click();
    const notices = page.getByRole('list', { name: 'Notifications' });
    const notice = notices.getByRole('button', { name: 'A conversation was assigned to you', exact: true });
    await notice.waitFor({ timeout: 15_000 });
    expect(await notices.getByRole('listitem').first().textContent()).toContain(id);
    await notice.click();
    await page.waitForURL(`${base}/w/${ws}/inbox/${id}`);
    await page.getByText('You are answering.').waitFor();
    const picker = page.getByRole('combobox', { name: 'Assignee' });
    await expect.poll(() => picker.inputValue()).toBe(member.id);

    // (c) Another member's availability, changed through the API, reaches the picker live.
    const team = page.getByRole('list', { name: 'Team availability' });
    const mia = team.getByRole('listitem').filter({ hasText: 'Mia Other' });
    await expect.poll(() => mia.textContent()).toContain('offline');
    // In the menu, each person sits in their availability's group (Online, Busy, Offline).
    const groupOf = () =>
      picker
        .locator(`option[value="${other.id}"]`)
        .evaluate((o) => `${o.textContent} in ${o.parentElement?.getAttribute('label')}`);
    expect(await groupOf()).toBe('Mia Other in Offline');
    await setAvailability(other, 'busy');
    await expect.poll(groupOf, { timeout: 10_000 }).toBe('Mia Other in Busy');
    await expect.poll(() => mia.textContent()).toContain('busy');
    await setAvailability(other, 'online');
    await expect.poll(groupOf, { timeout: 10_000 }).toBe('Mia Other in Online');
    expect(await team.getByRole('listitem').first().textContent()).toMatch(/online/);
    const axe = await checkPage(page, 'auto-assign-conversation');

    // A reassignment by the owner through the API reaches the open page.
    const patch = await t.request({
      method: 'PATCH',
      url: `/api/inbox/conversations/${id}?workspaceId=${ws}`,
      headers: owner.headers,
      payload: { assigneeId: other.id },
    });
    expect(patch.statusCode, patch.body).toBe(200);
    await expect.poll(() => picker.inputValue(), { timeout: 10_000 }).toBe(other.id);
    await page.getByText('Mia Other is answering.').waitFor();

    expect(axe).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
