import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/harness.ts';
import { type LlmServer, startLlmServer } from '../support/llm-server.ts';
import { createWorld, type World } from '../support/world.ts';
import { initWidget, NO_RATE_LIMIT, widgetAssistant, widgetChat } from '../widget/helpers.ts';
import { checkPage, startDashboard } from './dashboard-helpers.ts';
import { hasChromium, startApp } from './helpers.ts';

/**
 * Translation in the inbox's conversation page (docs/languages.md "Translation"): with a remote
 * model (the OpenAI-compatible stand-in), Translate shows a customer's Spanish message in English
 * under it and "Send in Spanish" sends the reply translated, showing both; with the built-in
 * model only (a second server), both are disabled and say why.
 */
type Side = { t: TestApp; base: string; w: World; conversationId: string };

let llm: LlmServer;
let browser: Browser;
let remote: Side;
let offline: Side;

const SPANISH = '¿Dónde está mi pedido? Lo pedí hace una semana y todavía no ha llegado.';

async function side(t: TestApp, base: string): Promise<Side> {
  const w = await createWorld(t);
  const asst = await widgetAssistant(t, w.owner, w.ws);
  const s = await initWidget(t, asst);
  expect((await widgetChat(t, asst, s, SPANISH)).status).toBe(200);
  const listed = await t.request({
    method: 'GET',
    url: `/api/inbox/conversations?workspaceId=${w.ws}`,
    headers: w.owner.headers,
  });
  return { t, base, w, conversationId: listed.json().data[0].id as string };
}

beforeAll(async () => {
  if (!hasChromium) return;
  llm = await startLlmServer({ instant: true });
  const started = await startDashboard({
    ...NO_RATE_LIMIT,
    AI_PROVIDER: 'openai',
    AI_BASE_URL: `${llm.url}/v1`,
    AI_MODEL: 'stand-in',
  });
  browser = started.browser;
  remote = await side(started.t, started.base);
  const plain = await startApp(NO_RATE_LIMIT);
  offline = await side(plain.t, plain.base);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await remote?.t.close();
  await offline?.t.close();
  await llm?.close();
});

async function open(context: BrowserContext, s: Side): Promise<Page> {
  const value = s.w.owner.cookie.slice(s.w.owner.cookie.indexOf('=') + 1);
  await context.addCookies([{ name: 'parley.session-token', value, url: s.base }]);
  const page = await context.newPage();
  await page.goto(`${s.base}/w/${s.w.ws}/inbox/${s.conversationId}`);
  await page.locator('li.msg.customer').first().waitFor();
  return page;
}

describe.skipIf(!hasChromium)('translation in a conversation', { timeout: 90_000 }, () => {
  it('translates a message and sends a reply in the customer’s language; disabled with the reason without a model', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    const page = await open(context, remote);
    const customer = page.locator('li.msg.customer').first();

    llm.script([{ text: 'Where is my order? I ordered it a week ago and it has still not arrived.' }]);
    await customer.getByRole('button', { name: 'Translate' }).click();
    const translation = customer.getByTestId('translation');
    await expect.poll(() => translation.textContent()).toContain('I ordered it a week ago');
    expect(await translation.textContent()).toContain('Translated from Spanish');

    const toggle = page.getByLabel('Send in Spanish');
    expect(await toggle.isEnabled()).toBe(true);
    await toggle.check();
    await page.getByRole('textbox', { name: 'Your reply' }).fill('Your order ships tomorrow.');
    llm.script([{ text: 'Tu pedido sale mañana.' }]);
    await page.getByRole('button', { name: 'Send reply' }).click();
    const sent = page.locator('li.msg.agent').last();
    await expect.poll(() => sent.locator('.text').textContent()).toBe('Tu pedido sale mañana.');
    expect(await sent.getByTestId('original-content').textContent()).toContain('Your order ships tomorrow.');
    expect(await checkPage(page, 'inbox-translate')).toEqual([]);

    const off = await open(context, offline);
    const button = off.locator('li.msg.customer').first().getByRole('button', { name: 'Translate' });
    const reason = 'Translation needs a remote model';
    await expect.poll(() => off.locator('li.msg.customer').first().textContent()).toContain(reason);
    expect(await button.isDisabled()).toBe(true);
    expect(await off.getByLabel('Send in Spanish').isDisabled()).toBe(true);
    expect(await off.locator('.reply-translate').textContent()).toContain(reason);
    await context.close();
  });
});
