import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chat } from '../chat/helpers.ts';
import { addSource, drainIngestion } from '../knowledge/helpers.ts';
import { createAssistant, signupUser, type TestUser } from '../support/factories.ts';
import type { TestApp } from '../support/harness.ts';
import { insertWorkspace } from '../support/world.ts';
import { checkPage, startDashboard } from './dashboard-helpers.ts';
import { hasChromium, pageErrors } from './helpers.ts';

/**
 * docs/measuring.md "Confidence" in Chromium against the real server and the offline responder:
 * the assistant form's Minimum confidence; a reply below it withheld, shown in the inbox as a
 * draft the customer did not see, with its confidence; "Edit before sending" puts it in the reply
 * box without its markers, "Send as is" sends it; the list's AI confidence filter. axe in light
 * and dark.
 */

if (!hasChromium) console.warn('Confidence browser tests skipped: /usr/bin/chromium is missing.');

let t: TestApp;
let base: string;
let browser: Browser;
let owner: TestUser;
let ws: string;
let assistant: string;

beforeAll(async () => {
  if (!hasChromium) return;
  ({ t, base, browser } = await startDashboard());
  owner = await signupUser(t, { name: 'Ada Owner' });
  ws = await insertWorkspace(t, owner, { name: 'Kettle Co.' });
  assistant = await createAssistant(t, owner, ws, { name: 'Kettle helper' });
  await addSource(t, owner, assistant, {
    type: 'text',
    name: 'Returns policy',
    text: 'Returns policy. Unused kettles can be returned within 30 days for a full refund.',
  });
  await drainIngestion(t);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name });

describe.skipIf(!hasChromium)('withheld drafts in the dashboard', () => {
  it('set the minimum, see the draft, edit it, send it as is, filter by it', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = pageErrors(page);
    const axe: string[] = [];
    await page.goto(`${base}/signin`);
    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Password').fill(owner.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await heading(page, 'Kettle Co.').waitFor();

    // The form's field, saved through the API.
    await page.goto(`${base}/w/${ws}/assistants/${assistant}`);
    await heading(page, 'Edit Kettle helper').waitFor();
    await page.getByLabel(/Minimum confidence/).fill('0.99');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL(`${base}/w/${ws}/assistants`);
    const saved = await t.request({
      method: 'GET',
      url: `/api/assistants/${assistant}`,
      headers: owner.headers,
    });
    expect(saved.json().data.minConfidence).toBe(0.99);

    const r = await chat(t, owner, { assistantId: assistant, content: 'Can I return a kettle?' });
    expect(r.text).toBe('Thanks for your message. A person from our team will answer you here shortly.');

    await page.goto(`${base}/w/${ws}/inbox/${r.conversationId}`);
    const draft = page.locator('li.msg.withheld');
    await draft.waitFor();
    await expect.poll(() => draft.textContent()).toContain('the customer did not see it');
    expect(await draft.locator('.confidence').textContent()).toMatch(/^Confidence 0\.\d\d/);
    const content = (await draft.locator('.text').textContent()) ?? '';
    expect(content).toMatch(/30 days.*\[1\]/);
    axe.push(...(await checkPage(page, 'inbox-withheld-draft')));

    await draft.getByRole('button', { name: 'Edit before sending' }).click();
    const box = page.getByRole('textbox', { name: 'Your reply' });
    await expect.poll(() => box.inputValue()).toContain('30 days');
    expect(await box.inputValue()).not.toContain('[1]');
    await box.fill('');

    await draft.getByRole('button', { name: 'Send as is' }).click();
    await page.locator('li.msg.agent').waitFor();
    const listed = await t.request({
      method: 'GET',
      url: `/api/inbox/conversations/${r.conversationId}/messages?workspaceId=${ws}`,
      headers: owner.headers,
    });
    const sent = listed.json().data.find((m: { role: string }) => m.role === 'agent');
    expect(sent.content).toContain('30 days');
    expect(sent.content).not.toContain('[1]');

    await page.goto(`${base}/w/${ws}/inbox`);
    await heading(page, 'Inbox').waitFor();
    await page.getByLabel('AI confidence').selectOption('low');
    await page.waitForURL(/confidence=low/);
    await page.getByRole('link', { name: /Can I return a kettle/ }).waitFor();

    expect(axe).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);
});
