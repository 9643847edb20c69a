import { eq } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contacts, messages, widgetFeedback, widgetSessions } from '../../src/db/schema/index.ts';
import { newId } from '../../src/lib/ids.ts';
import type { TestApp } from '../support/harness.ts';
import type { World } from '../support/world.ts';
import { answerTo, ask, focused, pageErrors, type Site, shot, storedSession, widget } from './helpers.ts';
import { HOSTILE, hasChromium, startWidgetPage, stopWidgetPage, type WidgetPage } from './widget-setup.ts';

/**
 * The widget on a customer's page in Chromium (docs/widget-script.md "Tests"), against the real server and
 * the built-in offline responder: open, welcome, ask, streamed answer with its source, lead form,
 * thumbs, reload and resume, end; keyboard; hostile answers rendered inert; a phone-sized screen.
 * Where the widget must not work: widget-availability.browser.test.ts. Screenshots go to
 * <repo>/test-results/.
 */

let t: TestApp;
let w: World;
let site: Site;
let browser: Browser;
let asst: string;
let env: Partial<WidgetPage> = {};

beforeAll(async () => {
  if (!hasChromium) return;
  env = await startWidgetPage();
  ({ t, w, site, browser, asst } = env as WidgetPage);
}, 120_000);

afterAll(() => stopWidgetPage(env));

describe.skipIf(!hasChromium)('the widget on a customer page', { timeout: 90_000 }, () => {
  it('opens, answers with a streamed reply and its source, takes the lead form and a rating, resumes after reload, ends', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const errors = pageErrors(page);
    const ui = widget(page);
    await page.goto(site.url(asst));
    await ui.launcher.waitFor();
    // Configured colour and corner; the page's own styles do not leak in.
    expect(await ui.toggle.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(14, 116, 144)');
    const box = await ui.toggle.boundingBox();
    expect(box!.x).toBeGreaterThan(1280 - 120);
    expect(box!.y).toBeGreaterThan(800 - 120);
    await shot(page, 'widget-launcher');

    await ui.launcher.click();
    await ui.panel.waitFor();
    const welcome = page.locator('[data-parley-widget] .msg.bot', { hasText: 'Ask me anything.' });
    expect(await welcome.locator('strong').textContent()).toBe('Kettle helper');

    // Required lead field checked in the page before any request.
    const lead = page.getByRole('form', { name: 'Leave your details' });
    await lead.getByRole('button', { name: 'Send' }).click();
    await page.getByText('Please enter your email.').waitFor();
    expect(await focused(page)).toMatch(/^input/);

    const response = await ask(page, 'How long do refunds take?');
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toMatch(/^text\/event-stream/);
    const answer = answerTo(page, 'Refunds reach your card within 5 business days.');
    await answer.waitFor();
    expect(await page.locator('[data-parley-widget] .typing').isVisible()).toBe(false);
    // The sources come with the stored message, read once the stream has ended.
    const source = answer.locator('.sources li');
    await source.first().waitFor();
    expect(await source.count()).toBe(1);
    expect(await source.first().textContent()).toMatch(/^\[1\] \S/);

    await lead.getByLabel('Name').fill('Ada Lovelace');
    await lead.getByLabel('Email *').fill('ada@example.com');
    await lead.getByLabel('Company').fill('Analytical Engines');
    await lead.getByRole('button', { name: 'Send' }).click();
    await page.getByText("Thanks, Ada Lovelace! We'll be in touch.").waitFor();

    // The note shows at once (optimistic); the rating is stored when its request has answered.
    const rated = page.waitForResponse((r) => r.url().endsWith('/feedback') && r.ok());
    await answer.getByRole('button', { name: 'Helpful', exact: true }).click();
    await answer.getByText('Thanks for your feedback!').waitFor();
    await rated;
    expect(
      await answer.getByRole('button', { name: 'Helpful', exact: true }).getAttribute('aria-pressed'),
    ).toBe('true');
    await shot(page, 'widget-answer');

    const sessionId = await storedSession(page, asst);
    const [session] = await t.ctx.db.select().from(widgetSessions).where(eq(widgetSessions.id, sessionId));
    expect(session?.contactId).toBeTruthy();
    const [contact] = await t.ctx.db.select().from(contacts).where(eq(contacts.id, session!.contactId!));
    expect(contact?.email).toBe('ada@example.com');
    const feedback = await t.ctx.db
      .select()
      .from(widgetFeedback)
      .where(eq(widgetFeedback.sessionId, sessionId));
    expect(feedback.map((f) => f.rating)).toEqual(['up']);

    // Reload: the same session, its history with sources and rating; the panel stays open.
    await page.reload();
    await ui.panel.waitFor();
    await answerTo(page, 'Refunds reach your card within 5 business days.').waitFor();
    expect(await storedSession(page, asst)).toBe(sessionId);
    expect(await page.locator('[data-parley-widget] .msg.user').allTextContents()).toEqual([
      'You: How long do refunds take?',
    ]);
    expect(await answer.locator('.sources li').count()).toBe(1);
    expect(
      await answer.getByRole('button', { name: 'Helpful', exact: true }).getAttribute('aria-pressed'),
    ).toBe('true');
    expect(await page.getByRole('form', { name: 'Leave your details' }).count()).toBe(0);
    await shot(page, 'widget-resumed');

    await page.getByRole('button', { name: 'End chat' }).click();
    await page.getByText('This chat has ended. Thank you!').waitFor();
    expect(await focused(page)).toBe('button:Start a new chat');
    const [ended] = await t.ctx.db.select().from(widgetSessions).where(eq(widgetSessions.id, sessionId));
    expect(ended?.status).toBe('ended');
    await shot(page, 'widget-ended');

    await page.getByRole('button', { name: 'Start a new chat' }).click();
    await ui.input.waitFor();
    expect(await page.locator('[data-parley-widget] .msg.user').count()).toBe(0);
    const next = await storedSession(page, asst);
    expect(next).toMatch(/^\S+$/);
    expect(next).not.toBe(sessionId);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('starts no session on load; the lead form, sent before any message, starts it', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const posts: string[] = [];
    page.on(
      'request',
      (r) => r.method() === 'POST' && posts.push(new URL(r.url()).pathname.split('/').pop()!),
    );
    const ui = widget(page);
    await page.goto(site.url(asst));
    await ui.launcher.click();
    const lead = page.getByRole('form', { name: 'Leave your details' });
    await lead.waitFor();
    expect(await storedSession(page, asst)).toBeUndefined();
    expect(posts).toEqual([]);
    await lead.getByLabel('Email *').fill('grace@example.com');
    await lead.getByRole('button', { name: 'Send' }).click();
    await page.getByText("Thanks! We'll be in touch.").waitFor();
    expect(posts).toEqual(['init', 'lead']);
    const sessionId = await storedSession(page, asst);
    const [session] = await t.ctx.db.select().from(widgetSessions).where(eq(widgetSessions.id, sessionId));
    const [contact] = await t.ctx.db.select().from(contacts).where(eq(contacts.id, session!.contactId!));
    expect(contact?.email).toBe('grace@example.com');
    // The first message goes into that same session.
    await ask(page, 'How long do refunds take?');
    await answerTo(page, 'Refunds reach your card').waitFor();
    expect(await storedSession(page, asst)).toBe(sessionId);
    expect(posts).toEqual(['init', 'lead', 'chat']);
    await context.close();
  });

  it('works from the keyboard: Tab reaches the launcher, Enter opens and sends, Shift+Enter breaks a line, Escape closes', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const ui = widget(page);
    await page.goto(site.url(asst));
    await ui.launcher.waitFor();
    await page.keyboard.press('Tab'); // the site's own button
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('button:Open chat with Kettle helper');
    await page.keyboard.press('Enter');
    await ui.panel.waitFor();
    expect(await focused(page)).toMatch(/^textarea/);
    await page.keyboard.type('first line');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('second line');
    expect(await ui.input.inputValue()).toBe('first line\nsecond line');
    await ui.input.fill('');
    await page.keyboard.type('hello');
    await page.keyboard.press('Enter');
    await page
      .locator('[data-parley-widget] .msg.bot', { hasText: 'How can I help you today?' })
      .last()
      .waitFor();
    expect(await ui.input.inputValue()).toBe('');
    await page.keyboard.press('Escape');
    await ui.panel.waitFor({ state: 'hidden' });
    expect(await focused(page)).toBe('button:Open chat with Kettle helper');
    await context.close();
  });

  it('renders hostile answers and agent replies as inert text: no script runs, no element or link is injected', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const ui = widget(page);
    await page.goto(site.url(asst));
    await ui.launcher.click();
    await ask(page, 'What is the secret test phrase?');
    const answer = answerTo(page, 'Here it is:');
    await answer.waitFor();

    // An agent's reply with the same payload, read back through history
    // (docs/widget.md "Form A: the init flow").
    const sessionId = await storedSession(page, asst);
    const [session] = await t.ctx.db.select().from(widgetSessions).where(eq(widgetSessions.id, sessionId));
    await t.ctx.db.insert(messages).values({
      id: newId('msg'),
      workspaceId: w.ws,
      conversationId: session!.conversationId!,
      role: 'agent',
      content: `Agent here. ${HOSTILE}`,
      authorId: w.admin.id,
    });
    await page.reload();
    await page.locator('[data-parley-widget] .msg.bot', { hasText: 'Agent here.' }).waitFor();

    const report = await page.evaluate(() => {
      const root = document.querySelector('[data-parley-widget]')!.shadowRoot!;
      return {
        pwned: (window as unknown as { pwned: number }).pwned,
        injected: root.querySelectorAll('img, script, iframe, object, embed, svg image, [onerror]').length,
        hrefs: [...root.querySelectorAll('a')].map((a) => a.getAttribute('href')),
        texts: [...root.querySelectorAll('.msg.bot')].map((m) => m.textContent ?? ''),
      };
    });
    expect(report.pwned).toBe(0);
    expect(report.injected).toBe(0);
    // Only the two real links of each message, to http(s) addresses.
    expect(report.hrefs).toEqual([
      'https://example.com/docs',
      'https://example.com/help',
      'https://example.com/docs',
      'https://example.com/help',
    ]);
    const hostile = report.texts.filter((text) => text.includes('Here it is:'));
    expect(hostile).toHaveLength(2);
    for (const text of hostile) {
      expect(text).toContain('<img src=x onerror="window.pwned=1">');
      expect(text).toContain('<script>window.pwned=2</script>');
      expect(text).toContain('click me');
    }
    expect(report.texts.some((text) => text.startsWith('Agent here.') || text.includes('Agent here.'))).toBe(
      true,
    );
    await shot(page, 'widget-hostile');
    await context.close();
  });

  it('fills a phone-sized screen and still chats', async () => {
    const context = await browser.newContext({
      viewport: { width: 375, height: 667 },
      hasTouch: true,
      isMobile: true,
    });
    const page = await context.newPage();
    const ui = widget(page);
    await page.goto(site.url(asst));
    await ui.launcher.click();
    await ui.panel.waitFor();
    expect(await ui.panel.boundingBox()).toEqual({ x: 0, y: 0, width: 375, height: 667 });
    await ask(page, 'How long do refunds take?');
    await answerTo(page, 'Refunds reach your card').waitFor();
    await shot(page, 'widget-phone');
    await page.getByRole('button', { name: 'Close chat' }).click();
    await ui.panel.waitFor({ state: 'hidden' });
    await ui.launcher.waitFor();
    await context.close();
  });
});
