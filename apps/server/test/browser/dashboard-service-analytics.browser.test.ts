import { sql } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slaPolicies } from '../../src/db/schema/index.ts';
import { newId } from '../../src/lib/ids.ts';
import { daysAgo, seedConversation } from '../analytics/helpers.ts';
import { createAssistant, type TestUser } from '../support/factories.ts';
import type { TestApp } from '../support/harness.ts';
import { createWorld, type World } from '../support/world.ts';
import { checkPage, startDashboard } from './dashboard-helpers.ts';
import { hasChromium, pageErrors } from './helpers.ts';

/**
 * The analytics page's Service section (docs/analytics.md "Service") in Chromium against the real
 * server, over two seeded conversations handed to a person yesterday, answered, closed and rated:
 * the rating and satisfied share, the medians in words, ratings by person and by assistant, the SLA
 * policy's met rate, the chart, and a CSV link per figure that downloads the conversations; a guest
 * reads it too; axe in light and dark.
 */

if (!hasChromium) console.warn('Dashboard service analytics tests skipped: /usr/bin/chromium is missing.');

let t: TestApp;
let base: string;
let browser: Browser;
let w: World;
const MIN = 60_000;

/** A conversation handed over at `at`, a person's reply `replyMin` later, closed `closeMin` after the handoff and rated. */
async function rated(
  assistantId: string,
  policyId: string,
  at: Date,
  o: { replyMin: number; closeMin: number; rating: number; assignee: TestUser; breached: boolean },
) {
  const id = await seedConversation(t, w.ws, assistantId, {
    channel: 'widget',
    at,
    handedOff: true,
    agentReply: true,
  });
  const iso = (min: number) => new Date(at.getTime() + min * MIN).toISOString();
  await t.ctx.db.execute(
    sql`update messages set created_at = ${iso(o.replyMin)}::timestamptz where conversation_id = ${id} and role = 'agent'`,
  );
  const breaches = o.breached ? [{ kind: 'first_response', at: iso(30) }] : [];
  await t.ctx.db.execute(sql`
    update conversations set status = 'closed', ended_at = ${iso(o.closeMin)}::timestamptz,
           assignee_id = ${o.assignee.id}, csat_rating = ${o.rating}, csat_comment = 'Thanks',
           csat_rated_at = ${iso(o.closeMin + 5)}::timestamptz, sla_policy_id = ${policyId},
           sla_started_at = ${at.toISOString()}::timestamptz, sla_breaches = ${JSON.stringify(breaches)}::jsonb
     where id = ${id}`);
}

beforeAll(async () => {
  if (!hasChromium) return;
  ({ t, base, browser } = await startDashboard());
  w = await createWorld(t);
  const desk = await createAssistant(t, w.owner, w.ws, { name: 'Help desk' });
  const policyId = newId('sla');
  await t.ctx.db
    .insert(slaPolicies)
    .values({ id: policyId, workspaceId: w.ws, name: 'Standard', priority: 10, firstResponseMinutes: 30 });
  // Yesterday at noon: answered in 4 min, closed after 2 h 10 min, rated 5; answered in 1 h (the
  // 30 minutes breached), closed after 2 h, rated 2.
  const at = daysAgo(1);
  await rated(desk, policyId, at, {
    replyMin: 4,
    closeMin: 130,
    rating: 5,
    assignee: w.member,
    breached: false,
  });
  await rated(desk, policyId, at, {
    replyMin: 60,
    closeMin: 120,
    rating: 2,
    assignee: w.admin,
    breached: true,
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

async function open(user: TestUser) {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    colorScheme: 'light',
    acceptDownloads: true,
  });
  const value = user.cookie.slice(user.cookie.indexOf('=') + 1);
  await context.addCookies([{ name: 'parley.session-token', value, url: base }]);
  const page = await context.newPage();
  await page.goto(`${base}/w/${w.ws}/analytics?period=7d`);
  await page.getByRole('heading', { name: 'Service', level: 2 }).waitFor();
  return { context, page };
}

/** The value shown under a figure's name. */
const figure = (page: import('playwright-core').Page, term: string) =>
  page.locator(`dt:text-is("${term}") + dd`).first().textContent();

describe.skipIf(!hasChromium)('analytics page: service', { timeout: 120_000 }, () => {
  it('shows the ratings, the medians in words, the tables, the chart and the CSV links', async () => {
    const { context, page } = await open(w.owner);
    const errors = pageErrors(page);
    const section = page.getByRole('region', { name: 'Service' });
    await section.getByText('Customer rating').waitFor();
    expect(await figure(page, 'Customer rating')).toBe('3.5 / 5');
    expect(await figure(page, 'Satisfied')).toBe('50%');
    // 4 min and 60 min → 32 min; 130 and 120 min → 2 h 5 min.
    expect(await figure(page, 'First response (median)')).toBe('32 min');
    expect(await figure(page, 'Resolution (median)')).toBe('2 h 5 min');

    const rows = async (caption: string) =>
      section
        .getByRole('table', { name: caption })
        .locator('tbody tr')
        .evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
    expect(await rows('Ratings by person')).toEqual([
      ['Admin', '1', '2 / 5'],
      ['Member', '1', '5 / 5'],
    ]);
    expect(await rows('Ratings by assistant')).toEqual([['Help desk', '2', '3.5 / 5']]);
    expect(await rows('SLA policies')).toEqual([['Standard', '1', '1', '50%']]);

    const chart = section.getByRole('figure', { name: 'Ratings and breaches per day' });
    await chart.locator('.recharts-bar-rectangle').first().waitFor();
    expect(await chart.locator('figcaption').textContent()).toMatch(
      /^Over the last 7 days: 2 ratings and 1 SLA breach/,
    );

    const links = section.getByRole('navigation', { name: 'Service CSV downloads' }).getByRole('link');
    expect(await links.allTextContents()).toEqual([
      'Rated conversations',
      'SLA met',
      'SLA breached',
      'First responses',
      'Resolutions',
    ]);
    const [download] = await Promise.all([page.waitForEvent('download'), links.nth(2).click()]);
    expect(download.suggestedFilename()).toBe('service-sla_breached-7d.csv');
    const { readFile } = await import('node:fs/promises');
    const text = await readFile((await download.path()) as string, 'utf8');
    expect(text.split('\r\n')).toHaveLength(3); // the header, one conversation, the final line end
    expect(text).toContain(',Help desk,Admin,widget,');

    expect(await checkPage(page, 'analytics-service')).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a guest reads the same section', async () => {
    const { context, page } = await open(w.guest);
    await page.getByText('Customer rating').waitFor();
    expect(await figure(page, 'Customer rating')).toBe('3.5 / 5');
    await context.close();
  });
});
