import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUsed } from '../credits/helpers.ts';
import type { TestApp } from '../support/harness.ts';
import { createWorld, type World } from '../support/world.ts';
import {
  answerTo,
  ask,
  hasChromium,
  launchBrowser,
  type Site,
  shot,
  startApp,
  startSite,
  widget,
  widgetAssistant,
} from './helpers.ts';

/**
 * The widget under hard conditions, in a real browser against the real server. What the visitor
 * reads when something fails (docs/widget-script.md "When things go wrong"): no credits left (403
 * `credits_limit_exceeded`) and the network gone; the per-IP rate limit is in
 * widget-budget.browser.test.ts. And a customer site with a strict Content-Security-Policy.
 */

const PAIRS = [
  { question: 'How long do refunds take?', answer: 'Refunds reach your card within 5 business days.' },
];

let browser: Browser;
beforeAll(async () => {
  if (hasChromium) browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe.skipIf(!hasChromium)('friendly failures', { timeout: 90_000 }, () => {
  let t: TestApp;
  let w: World;
  let site: Site;
  let asst: string;
  beforeAll(async () => {
    const started = await startApp({ WIDGET_RATE_LIMIT_PER_MINUTE: '10000' });
    t = started.t;
    w = await createWorld(t);
    asst = await widgetAssistant(t, w.owner, w.ws, PAIRS);
    site = await startSite(started.base);
  }, 120_000);
  afterAll(async () => {
    await site?.close();
    await t?.close();
  });

  it('says so, kindly, when the workspace has no credits left, and keeps the question', async () => {
    const broke = await widgetAssistant(t, w.outsider, w.otherWs, PAIRS);
    await setUsed(t, w.otherWs, 1_000_000);
    const context = await browser.newContext();
    const page = await context.newPage();
    const ui = widget(page);
    await page.goto(site.url(broke));
    await ui.launcher.click();
    const response = await ask(page, 'Are you there?');
    expect(response.status()).toBe(403);
    await ui.alert.getByText("Our assistant can't answer right now.").waitFor();
    expect(await ui.input.inputValue()).toBe('Are you there?');
    expect(await page.locator('[data-parley-widget] .msg.user').count()).toBe(0);
    await shot(page, 'widget-no-credits');
    await context.close();
  });

  it('works on a site whose Content-Security-Policy forbids inline styles and scripts', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const violations: string[] = [];
    page.on('console', (m) => {
      if (/content.security.policy/i.test(m.text())) violations.push(m.text());
    });
    const ui = widget(page);
    await page.goto(site.url(asst, '127.0.0.1', true));
    await ui.launcher.click();
    await ui.panel.waitFor();
    expect(await ui.toggle.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(79, 70, 229)');
    await ask(page, 'How long do refunds take?');
    await answerTo(page, 'Refunds reach your card').waitFor();
    expect(violations).toEqual([]);
    await shot(page, 'widget-strict-csp');
    await context.close();
  });

  it('tells the visitor the network is gone, keeps the message, and recovers when it is back', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const ui = widget(page);
    await page.goto(site.url(asst));
    await ui.launcher.click();
    await ui.panel.waitFor();
    await context.setOffline(true);
    await ui.alert.getByText('You seem to be offline.').waitFor();
    await ui.input.fill('How long do refunds take?');
    await ui.input.press('Enter');
    expect(await ui.input.inputValue()).toBe('How long do refunds take?');
    expect(await page.locator('[data-parley-widget] .msg.user').count()).toBe(0);
    await shot(page, 'widget-offline');
    await context.setOffline(false);
    await ui.alert.waitFor({ state: 'hidden' });
    await ui.input.press('Enter');
    await answerTo(page, 'Refunds reach your card').waitFor();
    await context.close();
  });
});
