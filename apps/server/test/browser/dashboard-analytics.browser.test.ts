import { sql } from 'drizzle-orm';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleDue } from '../../src/features/analytics/ai-resolution.ts';
import { daysAgo, seedConversation } from '../analytics/helpers.ts';
import { createAssistant, type TestUser } from '../support/factories.ts';
import type { TestApp } from '../support/harness.ts';
import { createWorld, type World } from '../support/world.ts';
import { accountLanguage, checkPage, startDashboard } from './dashboard-helpers.ts';
import { hasChromium, pageErrors } from './helpers.ts';

/**
 * The analytics page (docs/analytics.md "The dashboard page") in Chromium against the real server, over
 * seeded conversations: the figures, the stacked chart per channel and the credits chart, the
 * knowledge gaps table, messages by channel; the period switch (in the address); a guest reads it
 * all, as the role table lets every role view the workspace. The AI section, in a workspace of its
 * own: its figures, handoffs by reason, its charts, and the assistant picker (in the address).
 */

if (!hasChromium) console.warn('Dashboard analytics tests skipped: /usr/bin/chromium is missing.');

let t: TestApp;
let base: string;
let browser: Browser;
let w: World;
let ai: World;

beforeAll(async () => {
  if (!hasChromium) return;
  ({ t, base, browser } = await startDashboard());
  w = await createWorld(t);
  const assistantId = await createAssistant(t, w.owner, w.ws);
  const seed = (channel: string, days: number, question: string, handedOff = false) =>
    seedConversation(t, w.ws, assistantId, {
      channel,
      at: daysAgo(days),
      handedOff,
      turns: [{ question, reply: {} }],
    });
  // 7 days: 3 widget and 2 chat today, 1 SMS 3 days ago (handed off): 6 conversations, 6 credits.
  for (let i = 0; i < 3; i++) await seed('widget', 0, 'Do you ship to Mars?');
  await seed('chat', 0, 'What is the VAT number?');
  await seed('chat', 0, 'What is the VAT number?');
  await seed('sms', 3, 'Can I pay in bitcoin?', true);
  // 20 days ago: 4 more widget conversations, seen only from 30 days up.
  for (let i = 0; i < 4; i++) await seed('widget', 20, 'Is there a student discount?');
  await seedAi();
}, 120_000);

/**
 * The AI section's workspace: "Help desk" answered one conversation today, which ended (pending),
 * and handed one over; "Billing bot" answered one 10 days ago that ended 9 days ago, settled as
 * resolved by the job's own step.
 */
async function seedAi() {
  ai = await createWorld(t);
  const desk = await createAssistant(t, ai.owner, ai.ws, { name: 'Help desk' });
  const billing = await createAssistant(t, ai.owner, ai.ws, { name: 'Billing bot' });
  const turns = [{ question: 'When do you open?', reply: {} }];
  const pending = await seedConversation(t, ai.ws, desk, { channel: 'widget', at: daysAgo(0), turns });
  await seedConversation(t, ai.ws, desk, { channel: 'widget', at: daysAgo(0), turns, handedOff: true });
  const resolved = await seedConversation(t, ai.ws, billing, { channel: 'widget', at: daysAgo(10), turns });
  await t.ctx.db.execute(
    sql`update messages set outcome = 'answered' where workspace_id = ${ai.ws} and role = 'assistant'`,
  );
  for (const [id, at] of [
    [pending, new Date()],
    [resolved, daysAgo(9)],
  ] as const) {
    await t.ctx.db.execute(
      sql`update conversations set status = 'closed', ended_at = ${at.toISOString()}::timestamptz where id = ${id}`,
    );
  }
  await settleDue(t.ctx);
}

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

async function signedIn(user: TestUser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
  const value = user.cookie.slice(user.cookie.indexOf('=') + 1);
  await context.addCookies([{ name: 'parley.session-token', value, url: base }]);
  return { context, page: await context.newPage() };
}

/** The value shown under a figure's name. */
const figure = (page: Page, term: string) => page.locator(`dt:text-is("${term}") + dd`).first().textContent();

/** Waits until the figure `term` shows `value` (after a period switch the old one shows meanwhile). */
const shows = (page: Page, term: string, value: string) =>
  page.waitForFunction(
    ([tm, v]) =>
      [...document.querySelectorAll('dt')].some(
        (dt) => dt.textContent === tm && dt.nextElementSibling?.textContent === v,
      ),
    [term, value],
  );

/** The bars drawn in the conversations chart (recharts draws one per non-zero value). */
const bars = (page: Page) =>
  page
    .getByRole('figure', { name: 'Conversations per day by channel' })
    .locator('.recharts-bar-rectangle path');

describe.skipIf(!hasChromium)('analytics page', { timeout: 120_000 }, () => {
  it('shows the seeded figures, charts and tables; the period switch changes them', async () => {
    const { context, page } = await signedIn(w.owner);
    const errors = pageErrors(page);
    await page.goto(`${base}/w/${w.ws}`);
    await page.getByRole('link', { name: 'Analytics' }).click();
    await page.getByRole('heading', { name: 'Analytics', level: 1 }).waitFor();
    expect(await page.title()).toBe('Analytics · Acme · Parley');
    // 30 days by default.
    expect(await page.getByRole('radio', { name: '30 days' }).isChecked()).toBe(true);
    await shows(page, 'Conversations', '10');

    await page.getByRole('radio', { name: '7 days' }).click();
    await page.waitForURL(/period=7d/);
    await shows(page, 'Conversations', '6');
    expect(await figure(page, 'Credits used')).toBe('6');
    expect(await figure(page, 'Handoff rate')).toBe('16.7%');
    expect(await figure(page, 'Resolved without a person')).toBe('83.3%');
    expect(await figure(page, 'Positive feedback')).toBe('–');

    // The stacked chart: widget and chat today, SMS 3 days ago; its legend names the channels.
    const chart = page.getByRole('figure', { name: 'Conversations per day by channel' });
    await bars(page).first().waitFor();
    expect(await bars(page).count()).toBe(3);
    for (const name of ['Website widget', 'Internal chat', 'SMS'])
      await chart.getByText(name).first().waitFor();
    expect(await chart.locator('figcaption').textContent()).toContain('the busiest day was');
    expect(await chart.locator('figcaption').textContent()).toContain('with 5');
    const credits = page.getByRole('figure', { name: 'Credits used per day' });
    expect(await credits.locator('figcaption').textContent()).toContain(
      '6 credits used over the last 7 days',
    );
    await credits.locator('.recharts-line-curve').waitFor();

    // Knowledge gaps, most frequent first, each as the customer asked it; messages by channel.
    const gaps = page.getByRole('table').filter({ hasText: 'Times asked' });
    const rows = gaps.getByRole('row');
    // Each table has its own request: after a period switch the previous period's rows show until it answers.
    await expect.poll(() => rows.nth(1).textContent()).toContain('Do you ship to Mars?3');
    expect(await rows.nth(2).textContent()).toContain('What is the VAT number?2');
    expect(await rows.nth(3).textContent()).toContain('Can I pay in bitcoin?1');
    const channels = page.getByRole('table').filter({ hasText: 'Received' });
    await expect
      .poll(() => channels.getByRole('row', { name: /^Website widget/ }).textContent())
      .toBe('Website widget333');
    expect(await channels.getByRole('row', { name: /^SMS/ }).textContent()).toBe('SMS111');

    // 90 days: the 20-day-old conversations are back, with a bar of their own.
    await page.getByRole('radio', { name: '90 days' }).click();
    await page.waitForURL(/period=90d/);
    await shows(page, 'Conversations', '10');
    expect(await bars(page).count()).toBe(4);
    await expect.poll(() => gaps.textContent()).toContain('Is there a student discount?');

    expect(await checkPage(page, 'analytics')).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a guest reads the same page (every role may view the workspace)', async () => {
    const { context, page } = await signedIn(w.guest);
    const errors = pageErrors(page);
    await page.goto(`${base}/w/${w.ws}/analytics?period=7d`);
    await page.getByRole('heading', { name: 'Analytics', level: 1 }).waitFor();
    await shows(page, 'Conversations', '6');
    await bars(page).first().waitFor();
    await page.getByRole('cell', { name: 'Do you ship to Mars?' }).waitFor();
    await page.getByRole('link', { name: 'Analytics' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the AI section: involvement, resolution (verified and pending), handoffs by reason, per assistant', async () => {
    const { context, page } = await signedIn(ai.owner);
    const errors = pageErrors(page);
    await page.goto(`${base}/w/${ai.ws}/analytics`);
    const section = page.getByRole('region', { name: 'AI', exact: true });
    await section.waitFor();
    await shows(page, 'AI involvement', '100%');
    expect(await figure(page, 'AI resolution rate')).toBe('100%');
    expect(await figure(page, 'Pending resolution')).toBe('1');
    expect(await figure(page, 'Handed to a person')).toBe('1');
    const reasons = section.getByRole('table', { name: 'Handoffs by reason' });
    expect(await reasons.getByRole('row', { name: /^The customer asked for a person/ }).textContent()).toBe(
      'The customer asked for a person1',
    );
    const perDay = page.getByRole('figure', { name: 'The AI per day' });
    await perDay.locator('.recharts-bar-rectangle path').first().waitFor();
    expect(await perDay.locator('figcaption').textContent()).toBe(
      'Over the last 30 days: 3 conversations with the AI, 1 resolved by it, 1 handed to a person, by the day they started.',
    );
    const outcomes = page.getByRole('figure', { name: 'AI replies by outcome' });
    expect(await outcomes.locator('figcaption').textContent()).toContain(
      '3 AI replies over the last 30 days: 3 answered',
    );

    await section.scrollIntoViewIfNeeded();
    expect(await checkPage(page, 'analytics-ai')).toEqual([]);

    // One assistant at a time; the pick is in the address, with the period.
    await section.getByLabel('Assistant').selectOption({ label: 'Help desk' });
    await page.waitForURL(/assistant=/);
    await shows(page, 'AI resolution rate', '–');
    expect(await figure(page, 'Pending resolution')).toBe('1');
    await section.getByLabel('Assistant').selectOption({ label: 'Billing bot' });
    await shows(page, 'Handed to a person', '0');
    expect(await figure(page, 'AI resolution rate')).toBe('100%');
    expect(await figure(page, 'Pending resolution')).toBe('0');
    await page.getByRole('radio', { name: '7 days' }).click();
    await page.waitForURL(/period=7d/);
    expect(page.url()).toContain('assistant=');
    await shows(page, 'AI involvement', '–');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('in the account language (Spanish): words, numbers and dates', async () => {
    const language = accountLanguage(t, w.owner);
    expect((await language('es')).statusCode).toBe(200);
    const { context, page } = await signedIn(w.owner);
    const errors = pageErrors(page);
    await page.goto(`${base}/w/${w.ws}/analytics?period=7d`);
    await page.getByRole('heading', { name: 'Analíticas', level: 1 }).waitFor();
    expect(await page.getByRole('radio', { name: '7 días' }).isChecked()).toBe(true);
    await shows(page, 'Conversaciones', '6');
    expect(await figure(page, 'Tasa de traspaso')).toMatch(/^16,7\s%$/);
    const chart = page.getByRole('figure', { name: 'Conversaciones por día y canal' });
    await chart.locator('.recharts-bar-rectangle path').first().waitFor();
    expect(await chart.locator('figcaption').textContent()).toMatch(
      /el día con más fue el \d{1,2} (ene|feb|mar|abr|may|jun|jul|ago|sept?|oct|nov|dic)\.?, con 5\.$/,
    );
    const gaps = page.getByRole('table').filter({ hasText: 'Veces preguntada' });
    await expect
      .poll(() => gaps.getByRole('row').nth(1).textContent())
      .toMatch(/^Do you ship to Mars\?3\d{1,2} (ene|feb|mar|abr|may|jun|jul|ago|sept?|oct|nov|dic)\.? \d{4}/);
    await page.getByRole('row', { name: /^Widget del sitio web/ }).waitFor();
    await page.getByRole('region', { name: 'Servicio' }).waitFor();
    expect(await checkPage(page, 'analytics-es')).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
    expect((await language(null)).statusCode).toBe(200);
  });
});
