import { eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { widgetSessions } from '../../src/db/schema/index.ts';
import { signupUser, type TestUser } from '../support/factories.ts';
import type { TestApp } from '../support/harness.ts';
import { addMember, insertWorkspace } from '../support/world.ts';
import { fromSite, initWidget, sessionUrl, widgetAssistant, widgetChat } from '../widget/helpers.ts';
import { checkPage, startDashboard } from './dashboard-helpers.ts';
import { hasChromium, pageErrors, type Site, startSite } from './helpers.ts';

/**
 * Canned responses in the dashboard (docs/canned-responses.md; docs/dashboard.md "Inbox") in
 * Chromium against the real server: the settings page (add, a taken shortcut's 409 and an unknown
 * variable's 400 at their fields, search, edit, delete; a member reads only), then the reply box's
 * `/` picker with the keyboard only (ArrowDown, Enter puts the response in rendered for the
 * conversation, Escape closes and leaves the text, two in one message, a click picks too), sent:
 * a contact named `<img src=x onerror=alert(1)>` is shown as those characters in the dashboard and
 * in the widget, and nothing runs. axe in light and dark.
 */

if (!hasChromium) console.warn('Canned responses browser tests skipped: /usr/bin/chromium is missing.');

const HOSTILE = '<img src=x onerror=alert(1)>';

let t: TestApp;
let base: string;
let browser: Browser;
let site: Site;
let owner: TestUser;
let member: TestUser;
let ws: string;

beforeAll(async () => {
  if (!hasChromium) return;
  ({ t, base, browser } = await startDashboard({ WIDGET_RATE_LIMIT_PER_MINUTE: '100000' }));
  site = await startSite(base);
  owner = await signupUser(t, { name: 'Ada Owner' });
  member = await signupUser(t, { name: 'Max Member' });
  ws = await insertWorkspace(t, owner, { name: 'Kettle Co.' });
  await addMember(t, ws, member, 'member');
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
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

/** A widget conversation whose contact is named HOSTILE (as test/canned/canned.test.ts makes one). */
async function hostileConversation() {
  const assistantId = await widgetAssistant(t, owner, ws, {
    allowedDomains: ['shop.example.com', '127.0.0.1'],
  });
  const s = await initWidget(t, assistantId);
  const lead = await fromSite(t, {
    method: 'POST',
    url: sessionUrl(assistantId, s, 'lead'),
    token: s.token,
    payload: { name: HOSTILE, email: 'ana@example.com' },
  });
  expect(lead.statusCode, lead.body).toBe(201);
  await widgetChat(t, assistantId, s, 'Where is my order?');
  const [row] = await t.ctx.db.select().from(widgetSessions).where(eq(widgetSessions.id, s.sessionId));
  return { assistantId, session: s, conversationId: row!.conversationId! };
}

describe.skipIf(!hasChromium)('canned responses in the dashboard', () => {
  it('the settings page: add, 409 and 400 at their fields, search, edit, delete; a member reads', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = pageErrors(page);
    const axe: string[] = [];
    await signIn(page, owner);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Canned responses' })
      .click();
    await heading(page, 'Canned responses').waitFor();
    await page.getByText('No canned responses yet').waitFor();
    expect(await page.title()).toBe('Canned responses · Kettle Co. · Parley');

    const form = page.getByRole('form', { name: 'Add a canned response' });
    // The hint names the variables.
    await form.getByText('{{contact.name}}, {{contact.email}}').waitFor();
    const add = async (shortcut: string, title: string, content: string) => {
      await form.getByLabel('Shortcut').fill(shortcut);
      await form.getByLabel('Title').fill(title);
      await form.getByLabel('Content').fill(content);
      await form.getByRole('button', { name: 'Add canned response' }).click();
    };
    const list = page.getByRole('list', { name: 'Canned responses' });
    await add('greet', 'Greeting', 'Hello {{contact.name}}, thanks for writing to {{ workspace.name }}.');
    await list.getByText('/greet').waitFor();
    expect(await form.getByLabel('Shortcut').inputValue()).toBe('');

    // A taken shortcut: the 409 in words at the shortcut.
    await add('greet', 'Another greeting', 'Hi.');
    const shortcutError = form.getByText('Another canned response already has this shortcut');
    await shortcutError.waitFor();
    expect(await form.getByLabel('Shortcut').getAttribute('aria-invalid')).toBe('true');
    axe.push(...(await checkPage(page, 'canned-409')));

    // An unknown variable: the 400 at the content.
    await add('sign-off', 'Signing off', 'Regards, {{contact.nickname}}');
    await form.locator('#canned-content-error', { hasText: 'Unknown variable' }).waitFor();
    expect(await form.getByLabel('Content').getAttribute('aria-invalid')).toBe('true');
    expect(await shortcutError.count()).toBe(0);
    await form.getByLabel('Content').fill('Best wishes, {{agent.name}}');
    await form.getByRole('button', { name: 'Add canned response' }).click();
    await list.getByText('/sign-off').waitFor();
    await add('temp', 'Temporary', 'Soon gone.');
    await list.getByText('/temp').waitFor();
    axe.push(...(await checkPage(page, 'canned-list')));

    // Search, kept in the address.
    await page.getByRole('searchbox', { name: 'Search canned responses' }).fill('SIGN');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForURL(/\?q=SIGN$/);
    await page.getByRole('heading', { name: 'Matching “SIGN” (1)' }).waitFor();
    expect(await list.getByRole('listitem').count()).toBe(1);
    await page.getByRole('searchbox', { name: 'Search canned responses' }).fill('');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('heading', { name: 'All canned responses (3)' }).waitFor();

    // Edit, delete.
    await page.getByRole('button', { name: 'Edit /greet' }).click();
    const edit = page.getByRole('form', { name: 'Edit /greet' });
    await edit.getByLabel('Title').fill('Greeting the customer');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await list.getByText('Greeting the customer').waitFor();
    await page.getByRole('button', { name: 'Delete /temp' }).click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('heading', { name: 'All canned responses (2)' }).waitFor();

    // A member reads them, with no form and no buttons.
    const other = await browser.newContext();
    const memberPage = await other.newPage();
    await signIn(memberPage, member);
    await memberPage.goto(`${base}/w/${ws}/canned-responses`);
    await memberPage.getByRole('list', { name: 'Canned responses' }).getByText('/greet').waitFor();
    expect(await memberPage.getByRole('form', { name: 'Add a canned response' }).count()).toBe(0);
    expect(await memberPage.getByRole('button', { name: /Edit|Delete/ }).count()).toBe(0);
    await other.close();

    expect(axe).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  it('the / picker: keyboard only, Escape, two in one message, sent as text in the dashboard and the widget', async () => {
    const { assistantId, session, conversationId } = await hostileConversation();
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = pageErrors(page);
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    const axe: string[] = [];
    await signIn(page, owner);
    await page.goto(`${base}/w/${ws}/inbox/${conversationId}`);
    // The combobox is the box around the textarea (a textarea may not be one itself).
    const combo = page.getByRole('combobox', { name: 'Your reply' });
    const box = combo.getByRole('textbox', { name: 'Your reply' });
    await box.waitFor();
    expect(await combo.getAttribute('aria-expanded')).toBe('false');
    const options = page.getByRole('listbox', { name: 'Canned responses' });

    // `/` and part of the shortcut: the list, filtered; ArrowDown makes the first active.
    await box.focus();
    await page.keyboard.type('/GRE');
    await options.getByRole('option', { name: /\/greet/ }).waitFor();
    expect(await options.getByRole('option').count()).toBe(1);
    expect(await combo.getAttribute('aria-expanded')).toBe('true');
    expect(await box.getAttribute('aria-controls')).toBe(await options.getAttribute('id'));
    await page.keyboard.press('ArrowDown');
    const option = options.getByRole('option', { name: /\/greet/ });
    await expect.poll(() => option.getAttribute('aria-selected')).toBe('true');
    expect(await box.getAttribute('aria-activedescendant')).toBe(await option.getAttribute('id'));
    axe.push(...(await checkPage(page, 'canned-picker')));

    // Enter picks (the form is not sent): the text rendered for this conversation, to edit.
    await page.keyboard.press('Enter');
    const greeting = `Hello ${HOSTILE}, thanks for writing to Kettle Co..`;
    await expect.poll(() => box.inputValue()).toBe(greeting);
    await options.waitFor({ state: 'detached' });
    expect(await page.locator('li.msg.agent').count()).toBe(0);

    // Escape closes the list and leaves the text as typed.
    await page.keyboard.type(' /sig');
    await options.getByRole('option', { name: /\/sign-off/ }).waitFor();
    await page.keyboard.press('Escape');
    await options.waitFor({ state: 'detached' });
    expect(await box.inputValue()).toBe(`${greeting} /sig`);
    expect(await combo.getAttribute('aria-expanded')).toBe('false');

    // A second one in the same message, again by keyboard.
    for (let i = 0; i < 4; i++) await page.keyboard.press('Backspace');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('/sign');
    await options.getByRole('option', { name: /\/sign-off/ }).waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const message = `${greeting} \nBest wishes, Ada Owner`;
    await expect.poll(() => box.inputValue()).toBe(message);

    // A click picks too.
    await page.keyboard.type(' /gre');
    await options.getByRole('option', { name: /\/greet/ }).click();
    await expect.poll(() => box.inputValue()).toBe(`${message} ${greeting}`);
    await box.fill(message);

    await page.getByRole('button', { name: 'Send reply' }).click();
    const sent = page.locator('li.msg.agent');
    await sent.waitFor();
    expect(await sent.textContent()).toContain(`Hello ${HOSTILE}, thanks`);
    expect(await sent.textContent()).toContain('Best wishes, Ada Owner');
    expect(await page.getByRole('list', { name: 'Messages' }).locator('img').count()).toBe(0);
    expect(await box.inputValue()).toBe('');

    // The widget shows the reply as text: the visitor's session, resumed on the customer's page.
    const visitor = await browser.newContext();
    const customer = await visitor.newPage();
    customer.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await customer.addInitScript(
      ([key, value]) => localStorage.setItem(key as string, value as string),
      [
        `parley:widget:${assistantId}`,
        JSON.stringify({
          session: { sessionId: session.sessionId, sessionToken: session.token },
          leadDone: true,
          open: true,
        }),
      ],
    );
    await customer.goto(site.url(assistantId));
    await customer.locator('[data-parley-widget] .msg.bot', { hasText: 'Best wishes, Ada Owner' }).waitFor();
    const shown = await customer.evaluate(() => {
      const root = document.querySelector('[data-parley-widget]')!.shadowRoot!;
      return {
        pwned: (window as unknown as { pwned: number }).pwned,
        injected: root.querySelectorAll('img, script, [onerror]').length,
        texts: [...root.querySelectorAll('.msg.bot')].map((m) => m.textContent ?? ''),
      };
    });
    expect(shown.pwned).toBe(0);
    expect(shown.injected).toBe(0);
    expect(shown.texts.some((text) => text.includes(`Hello ${HOSTILE}, thanks`))).toBe(true);
    await visitor.close();

    expect(dialogs).toEqual([]);
    expect(axe).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);
});
