import { eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaceCredits } from '../../src/db/schema/index.ts';
import { drainIngestion } from '../knowledge/helpers.ts';
import { signupUser } from '../support/factories.ts';
import type { TestApp } from '../support/harness.ts';
import { addMember } from '../support/world.ts';
import { checkPage, fitsWidth, openMenu, startDashboard } from './dashboard-helpers.ts';
import { hasChromium, pageErrors, shot } from './helpers.ts';

/**
 * The dashboard in Chromium (docs/dashboard.md) against the real server: sign up, create a
 * workspace, create an assistant, add Q&A knowledge and watch it become ready, search it, chat
 * with a streamed answer and its citation, see credits used and the 80%/100% warnings, the help
 * sheet and the shortcuts preference, the theme preference, sign out and sign in again, a phone.
 * Every main page: screenshots in light and dark under test-results/, no serious or critical
 * axe-core violation.
 */

if (!hasChromium) console.warn('Dashboard browser tests skipped: /usr/bin/chromium is missing.');

const USER = { name: 'Grace Hopper', email: 'grace@example.com', password: 'a long enough password' };
const ANSWER = 'Refunds reach your card within 5 business days.';

let t: TestApp;
let base: string;
let browser: Browser;
/** The workspace the first test creates; the later tests sign in to it. */
let ws: string;

beforeAll(async () => {
  if (!hasChromium) return;
  ({ t, base, browser } = await startDashboard());
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name });

describe.skipIf(!hasChromium)('the dashboard', { timeout: 120_000 }, () => {
  it('walks sign up → workspace → assistant → knowledge → search → chat → credits → sign out → sign in', async () => {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 860 },
      colorScheme: 'light',
    });
    const page = await context.newPage();
    const errors = pageErrors(page);
    const a11y: string[] = [];

    // Signed out: any path shows the sign-in page; a wrong password is explained in words.
    await page.goto(`${base}/w/nowhere/assistants`);
    await heading(page, 'Sign in to Parley').waitFor();
    a11y.push(...(await checkPage(page, 'signin')));
    await page.getByLabel('Email').fill('nobody@example.com');
    await page.getByLabel('Password').fill('wrong password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    expect(await page.getByRole('alert').textContent()).toMatch(/\w+ \w+/);

    // Sign up, then the first workspace.
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByLabel('Name').fill(USER.name);
    await page.getByLabel('Email').fill(USER.email);
    await page.getByLabel('Password').fill(USER.password);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await heading(page, 'Create a workspace').waitFor();
    await page.getByLabel('Workspace name').fill('Kettle Co.');
    await page.getByRole('button', { name: 'Create workspace' }).click();
    await heading(page, 'Kettle Co.').waitFor();
    ws = /\/w\/([^/]+)$/.exec(page.url())?.[1] ?? '';
    expect(ws).toMatch(/^ws_/);
    await page.getByText(/^0 of [\d,]+ used$/).waitFor();
    a11y.push(...(await checkPage(page, 'overview')));

    // Assistants: the empty state says what to do; create one.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Assistants' }).click();
    await page.getByText('No assistants yet').waitFor();
    await page.getByRole('link', { name: 'New assistant' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Kettle helper');
    await page.getByLabel('Instructions').fill('Answer questions about kettles.');
    await page.getByRole('button', { name: 'Create assistant' }).click();

    // Knowledge: add a Q&A source, watch it go from pending to ready while the page polls.
    await heading(page, 'Knowledge of Kettle helper').waitFor();
    await page.getByText('No knowledge yet').waitFor();
    await page.getByLabel('Name (optional)').fill('Kettle FAQ');
    await page.getByLabel('Question', { exact: true }).fill('How long do refunds take?');
    await page.getByLabel('Answer', { exact: true }).fill(ANSWER);
    await page.getByRole('button', { name: 'Add source' }).click();
    const source = page.getByRole('list', { name: 'Sources' }).getByRole('listitem');
    await source.filter({ hasText: 'Kettle FAQ' }).waitFor();
    expect(await source.locator('.badge').textContent()).toMatch(/pending|processing/);
    await drainIngestion(t);
    await source.locator('.badge', { hasText: 'ready' }).waitFor();
    expect(await source.textContent()).toContain('1 passage');

    // Search as the chat would.
    await page.getByRole('searchbox', { name: 'Search question' }).fill('refunds');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('list', { name: 'Search results' }).getByText(ANSWER).waitFor();
    // The score as a bar (the list's numbers are the ranks), the number only in its tooltip.
    const hit = page.getByRole('list', { name: 'Search results' }).getByRole('listitem').first();
    const bar = hit.getByRole('meter', { name: 'Relevance: best match' });
    expect(await bar.getAttribute('title')).toMatch(/^Score \d+\.\d{3}$/);
    expect(await hit.textContent()).not.toMatch(/\d\.\d{3}/);
    // Why it ranked, in words a support manager reads (no "#1", no "Words:").
    expect(await hit.locator('.why').textContent()).toMatch(
      /^Most words in common with the question · (closest|\d+(st|nd|rd|th) closest|not close) in meaning · relevance to the question: \d+%$/,
    );
    a11y.push(...(await checkPage(page, 'knowledge')));

    // The assistants list now has it, with its links; edit it (stored, as the API shows).
    await page.getByRole('link', { name: 'Assistants' }).first().click();
    await page.getByRole('heading', { level: 2, name: 'Kettle helper' }).waitFor();
    a11y.push(...(await checkPage(page, 'assistants')));
    await page.getByRole('link', { name: 'Edit', exact: true }).first().click();
    await heading(page, 'Edit Kettle helper').waitFor();
    await page.getByLabel('Instructions').fill('Answer questions about kettles, briefly.');
    await page.getByLabel('Temperature (0 to 2)').fill('0.2');
    await page.getByLabel('Longest answer (tokens)').fill('400');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { level: 2, name: 'Kettle helper' }).waitFor();
    const assistantId = /assistants\/([^/]+)\/chat/.exec(
      (await page.getByRole('link', { name: 'Chat', exact: true }).first().getAttribute('href')) ?? '',
    )?.[1];
    const stored = await page.evaluate(
      async (id) => (await (await fetch(`/api/assistants/${id}`)).json()).data,
      assistantId,
    );
    expect(stored).toMatchObject({
      instructions: 'Answer questions about kettles, briefly.',
      temperature: 0.2,
      maxTokens: 400,
    });

    // Chat: a streamed answer, then the stored message with its citation.
    await page.getByRole('link', { name: 'Chat', exact: true }).click();
    await heading(page, 'Chat with Kettle helper').waitFor();
    // The page says the built-in offline model answers, and how to connect a real one.
    expect(await page.getByTestId('model-note').textContent()).toMatch(
      /^Answers come from the built-in offline model, which quotes your knowledge.* set AI_PROVIDER/,
    );
    const chatPath = new URL(page.url()).pathname;
    const stream = page.waitForResponse((r) => r.url().endsWith('/api/chat'));
    await page.getByRole('textbox', { name: 'Your message' }).fill('How long do refunds take?');
    await page.getByRole('textbox', { name: 'Your message' }).press('Enter');
    const response = await stream;
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toMatch(/^text\/event-stream/);
    const reply = page.getByRole('list', { name: 'Messages' }).locator('.msg.assistant');
    await reply.filter({ hasText: ANSWER }).waitFor();
    const citation = reply.getByRole('list', { name: 'Sources' }).getByRole('listitem');
    await citation.first().waitFor();
    expect(await citation.first().textContent()).toMatch(/^\[1\] \S/);
    expect(page.url()).toMatch(/\?c=conv_|\?c=\w+/);
    await page.getByRole('complementary', { name: 'Conversations' }).getByRole('link').first().waitFor();
    // Tool steps: asking for a person makes the assistant call its handoff tool, shown as a step
    // while it runs and kept on the stored message.
    await page.getByRole('textbox', { name: 'Your message' }).fill('I want to talk to a human, please');
    await page.getByRole('textbox', { name: 'Your message' }).press('Enter');
    const step = reply.getByRole('list', { name: 'Tool steps' }).getByRole('listitem');
    // In words; the code name only in the tooltip.
    await step.filter({ hasText: /^Asked for a person ✓$/ }).waitFor();
    expect(await step.filter({ hasText: 'Asked for a person' }).getAttribute('title')).toBe('request_human');
    expect(await reply.getByRole('list', { name: 'Tool steps' }).last().textContent()).not.toContain('_');
    expect(await reply.count()).toBe(2);
    a11y.push(...(await checkPage(page, 'chat')));

    // Credits: each of the two replies used one credit; then the 80% and 100% warnings.
    await page.getByRole('link', { name: 'Overview' }).click();
    await page.getByText(/^2 of [\d,]+ used$/).waitFor();
    const limit = Number(
      (await page.getByText(/^2 of [\d,]+ used$/).textContent())!.replace(/\D/g, '').slice(1),
    );
    await t.ctx.db
      .update(workspaceCredits)
      .set({ used: Math.ceil(limit * 0.85) })
      .where(eq(workspaceCredits.workspaceId, ws));
    await page.reload();
    await page.getByText(/You have used 8\d% of your credits/).waitFor();
    await t.ctx.db.update(workspaceCredits).set({ used: limit }).where(eq(workspaceCredits.workspaceId, ws));
    await page.reload();
    await page
      .getByRole('alert')
      .getByText(/You have used all your credits/)
      .waitFor();
    await shot(page, 'dashboard-credits-exhausted');
    // With no credits left the chat's refusal (403 before the stream) is shown in words.
    await page.goto(`${base}${chatPath}`);
    await page.getByRole('textbox', { name: 'Your message' }).fill('Are you there?');
    await page.getByRole('button', { name: 'Send' }).click();
    await page
      .getByRole('alert')
      .getByText(/credit/i)
      .waitFor();
    await page.getByRole('link', { name: 'Overview' }).click();

    // Help sheet on `?`; off when the preference turns shortcuts off (saved to the account).
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor();
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'hidden' });
    await page.keyboard.press('g');
    await page.keyboard.press('a');
    await heading(page, 'Assistants').waitFor();
    const menu = await openMenu(page, USER.name);
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/account') && r.ok());
    await menu.getByLabel('Keyboard shortcuts').uncheck();
    await saved;
    await page.locator('h1').click();
    await page.keyboard.press('?');
    expect(await help.isVisible()).toBe(false);

    // Theme preference: dark sticks regardless of the system setting, and across a reload.
    await openMenu(page, USER.name);
    const savedTheme = page.waitForResponse((r) => r.url().endsWith('/api/account') && r.ok());
    await menu.getByLabel('Theme').selectOption('dark');
    await savedTheme;
    await page.reload();
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');

    // Sign out, then sign in again.
    await openMenu(page, USER.name);
    await menu.getByRole('button', { name: 'Sign out' }).click();
    await heading(page, 'Sign in to Parley').waitFor();
    await page.goto(`${base}/`);
    await heading(page, 'Sign in to Parley').waitFor();
    await page.getByLabel('Email').fill(USER.email);
    await page.getByLabel('Password').fill(USER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await heading(page, 'Kettle Co.').waitFor();

    expect(a11y).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('fits a phone screen', async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 740 }, isMobile: true });
    const page = await context.newPage();
    await page.goto(`${base}/signin`);
    await page.getByLabel('Email').fill(USER.email);
    await page.getByLabel('Password').fill(USER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await heading(page, 'Kettle Co.').waitFor();
    expect(await fitsWidth(page)).toBe(true);
    await shot(page, 'dashboard-phone-overview');
    await page.getByRole('link', { name: 'Assistants' }).first().click();
    await page.getByRole('link', { name: 'Chat', exact: true }).click();
    await heading(page, 'Chat with Kettle helper').waitFor();
    expect(await fitsWidth(page)).toBe(true);
    await shot(page, 'dashboard-phone-chat');
    await context.close();
  });

  it('offers a member and a guest only what their role may do', async () => {
    for (const role of ['member', 'guest'] as const) {
      const user = await signupUser(t, { name: `A ${role}` });
      await addMember(t, ws, user, role);
      const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
      const page = await context.newPage();
      await page.goto(`${base}/signin`);
      await page.getByLabel('Email').fill(user.email);
      await page.getByLabel('Password').fill(user.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await heading(page, 'Kettle Co.').waitFor();
      expect(await page.getByRole('link', { name: 'Create an assistant' }).count()).toBe(0);
      await page.goto(`${base}/w/${ws}/assistants`);
      await page.getByRole('heading', { level: 2, name: 'Kettle helper' }).waitFor();
      expect(await page.getByRole('link', { name: 'New assistant' }).count()).toBe(0);
      expect(await page.getByRole('link', { name: 'Edit' }).count()).toBe(0);
      await page.getByRole('link', { name: 'Knowledge', exact: true }).click();
      await page.getByText('Kettle FAQ').waitFor();
      expect(await page.getByRole('heading', { name: 'Add knowledge' }).count()).toBe(0);
      await page.getByRole('link', { name: 'Chat', exact: true }).click();
      await heading(page, 'Chat with Kettle helper').waitFor();
      const box = page.getByRole('textbox', { name: 'Your message' });
      if (role === 'member') await box.waitFor();
      else {
        await page.getByText('Guests can read assistants but not chat with them.').waitFor();
        expect(await box.count()).toBe(0);
      }
      await context.close();
    }
  });
});
