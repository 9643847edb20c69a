import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/harness.ts';
import { createWorld } from '../support/world.ts';
import {
  answerTo,
  ask,
  hasChromium,
  launchBrowser,
  pageErrors,
  type Site,
  shot,
  startApp,
  startSite,
  storedSession,
  widget,
  widgetAssistant,
} from './helpers.ts';

/**
 * The widget keeps within the per-IP POST budget (docs/widget.md "Limits": every POST to a
 * public widget path counts, default 5 a minute): page loads resume the stored session with GETs
 * only, and a message the limit refuses waits on screen and goes by itself
 * (docs/widget-script.md "When things go wrong").
 */

const PAIRS = [
  { question: 'How long do refunds take?', answer: 'Refunds reach your card within 5 business days.' },
  { question: 'Do you ship abroad?', answer: 'We ship to every country in the EU.' },
  { question: 'Which kettle is the quietest?', answer: 'The Whisper 2 is our quietest kettle.' },
];

let browser: Browser;
beforeAll(async () => {
  if (hasChromium) browser = await launchBrowser();
});
afterAll(() => browser?.close());

/** Every request the page makes to the widget API, as `METHOD /last/path/part`. */
function widgetCalls(page: Page) {
  const calls: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith('/api/widget/') && r.method() !== 'OPTIONS') {
      calls.push(`${r.method()} ${url.pathname.split('/').slice(4).join('/')}`);
    }
  });
  return calls;
}

async function setup(env: Record<string, string>) {
  const started = await startApp(env);
  const w = await createWorld(started.t);
  const asst = await widgetAssistant(started.t, w.owner, w.ws, PAIRS);
  const site = await startSite(started.base);
  return { t: started.t, site, asst };
}

describe.skipIf(!hasChromium)('the default budget (5 POSTs a minute)', { timeout: 90_000 }, () => {
  let t: TestApp;
  let site: Site;
  let asst: string;
  beforeAll(async () => {
    ({ t, site, asst } = await setup({}));
  }, 120_000);
  afterAll(async () => {
    await site?.close();
    await t?.close();
  });

  it('answers a visitor who opens three pages and writes four messages within a minute', async () => {
    expect(t.ctx.config.widget.rateLimitPerMinute).toBe(5);
    expect(t.ctx.config.widget.rateLimitWindowSeconds).toBe(60);
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = pageErrors(page);
    const calls = widgetCalls(page);
    const ui = widget(page);
    const refused: number[] = [];
    page.on('response', (r) => r.status() === 429 && refused.push(r.status()));

    // Page 1: the config is a GET; no session until the first message.
    await page.goto(site.url(asst));
    await ui.launcher.click();
    expect(await storedSession(page, asst)).toBeUndefined();
    await ask(page, 'How long do refunds take?');
    await answerTo(page, 'Refunds reach your card').waitFor();
    const sessionId = await storedSession(page, asst);

    // Page 2 and 3: the stored session resumes with GETs (its history proves the token good).
    await page.goto(`${site.url(asst)}?page=2`);
    await answerTo(page, 'Refunds reach your card').waitFor();
    await ask(page, 'Do you ship abroad?');
    await answerTo(page, 'We ship to every country in the EU.').waitFor();
    await page.goto(`${site.url(asst)}?page=3`);
    await answerTo(page, 'We ship to every country in the EU.').waitFor();
    await ask(page, 'Which kettle is the quietest?');
    await answerTo(page, 'The Whisper 2 is our quietest kettle.').waitFor();
    await ask(page, 'How long do refunds take?');
    await page.locator('[data-parley-widget] .msg.bot .rate').nth(3).waitFor();

    expect(await storedSession(page, asst)).toBe(sessionId);
    expect(refused).toEqual([]);
    expect(calls.filter((c) => c.startsWith('POST'))).toEqual([
      'POST init',
      'POST chat',
      'POST chat',
      'POST chat',
      'POST chat',
    ]);
    expect(calls).toContain(`GET sessions/${sessionId}/messages`);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('starts a new session quietly when the stored token is refused, still without a POST on load', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const calls = widgetCalls(page);
    const ui = widget(page);
    await page.goto(site.url(asst));
    // A token the server never issued (or one that expired): the history answers 401.
    await page.evaluate((key) => {
      const token = 'x'.repeat(40);
      localStorage.setItem(
        key,
        JSON.stringify({ session: { sessionId: 'wsess_gone', sessionToken: token } }),
      );
    }, `parley:widget:${asst}`);
    const history = page.waitForResponse((r) => r.url().endsWith('/sessions/wsess_gone/messages'));
    await page.reload();
    expect((await history).status()).toBe(401);
    await ui.launcher.waitFor();
    await page.waitForFunction(
      (key) => !JSON.parse(localStorage.getItem(key) ?? '{}').session,
      `parley:widget:${asst}`,
    );
    expect(calls.filter((c) => c.startsWith('POST'))).toEqual([]);
    await context.close();
  });
});

/**
 * Two POSTs in a window of 20 s instead of a minute (`WIDGET_RATE_WINDOW_SECONDS`): the refusal,
 * its countdown and the resend are the same, and the test waits a third of the time.
 */
const WINDOW_SECONDS = 20;

describe.skipIf(!hasChromium)('over the budget', { timeout: 90_000 }, () => {
  let t: TestApp;
  let site: Site;
  let asst: string;
  beforeAll(async () => {
    ({ t, site, asst } = await setup({
      WIDGET_RATE_LIMIT_PER_MINUTE: '2',
      WIDGET_RATE_WINDOW_SECONDS: String(WINDOW_SECONDS),
    }));
  }, 120_000);
  afterAll(async () => {
    await site?.close();
    await t?.close();
  });

  it('shows how long to wait, keeps the message across a reload, and sends it when the wait ends', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = pageErrors(page);
    const calls = widgetCalls(page);
    const ui = widget(page);
    await page.goto(site.url(asst));
    await ui.launcher.click();
    await ask(page, 'How long do refunds take?');
    await answerTo(page, 'Refunds reach your card').waitFor();

    const refused = await ask(page, 'Do you ship abroad?');
    expect(refused.status()).toBe(429);
    expect(Number(await refused.headerValue('retry-after'))).toBeLessThanOrEqual(WINDOW_SECONDS);
    const waiting = page.locator('[data-parley-widget] .msg.user', { hasText: 'Do you ship abroad?' });
    await waiting.getByText(/^Sending in \d+ s…$/).waitFor();
    await ui.alert
      .getByText(
        /^You're sending messages a little fast\. Your message will be sent by itself in (\d+ seconds?|1 minute)\.$/,
      )
      .waitFor();
    expect(await page.getByRole('button', { name: 'Send message' }).isDisabled()).toBe(true);
    await shot(page, 'widget-rate-limited');

    // Reload while waiting: no POST on load; the message is still there, still counting down.
    const before = calls.length;
    await page.reload();
    await answerTo(page, 'Refunds reach your card').waitFor();
    await waiting.getByText(/^Sending in \d+ s…$/).waitFor();
    expect(calls.slice(before).filter((c) => c.startsWith('POST'))).toEqual([]);

    // The wait ends (Retry-After, up to the window): the message goes by itself and is answered.
    const sent = page.waitForResponse((r) => r.url().endsWith('/chat') && r.status() === 200, {
      timeout: (WINDOW_SECONDS + 15) * 1000,
    });
    await sent;
    await answerTo(page, 'We ship to every country in the EU.').waitFor();
    expect(await waiting.getByText(/Sending in/).count()).toBe(0);
    expect(await page.locator('[data-parley-widget] .msg.user').allTextContents()).toEqual([
      'You: How long do refunds take?',
      'You: Do you ship abroad?',
    ]);
    expect(
      await page.evaluate(
        (key) => JSON.parse(localStorage.getItem(key) ?? '{}').queued,
        `parley:widget:${asst}`,
      ),
    ).toBeUndefined();
    expect(errors).toEqual([]);
    await context.close();
  });
});
