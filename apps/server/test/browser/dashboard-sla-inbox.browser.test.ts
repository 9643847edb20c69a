import { eq } from 'drizzle-orm';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { conversations, slaPolicies, widgetSessions } from '../../src/db/schema/index.ts';
import { recordDueBreaches } from '../../src/features/sla/sla.jobs.ts';
import { now, setClockOffset } from '../../src/lib/clock.ts';
import { newId } from '../../src/lib/ids.ts';
import { addRule } from '../steering/helpers.ts';
import { signupUser, type TestUser } from '../support/factories.ts';
import type { TestApp } from '../support/harness.ts';
import { insertWorkspace } from '../support/world.ts';
import { initWidget, widgetAssistant, widgetChat } from '../widget/helpers.ts';
import { accountLanguage, checkPage, startDashboard } from './dashboard-helpers.ts';
import { hasChromium, pageErrors } from './helpers.ts';

/**
 * SLA clocks in the dashboard (docs/sla.md "In the inbox"; docs/dashboard.md "Inbox") in Chromium
 * against the real server, with the server's clock and the browser's moved together: a workspace
 * with business hours and a policy; two widget conversations handed off at different moments, one
 * past its first-response time. The inbox shows the time left on one and "overdue" on the other,
 * whose "SLA breached" badge arrives live when the breach job records it; the words follow the
 * clock; sort by SLA puts the soonest first; both orders page with "Load more"; the "SLA breached"
 * filter shows only the breached one; sort and filter are kept in the address; the conversation
 * page shows the SLA block. axe in light and dark.
 */

if (!hasChromium) console.warn('SLA inbox browser tests skipped: /usr/bin/chromium is missing.');

const TRIGGER = 'a human please';
const DAY = 86_400_000;
const KETTLE = `Kettle leaks, ${TRIGGER}`;
const LID = `Lid is stuck, ${TRIGGER}`;

let t: TestApp;
let base: string;
let browser: Browser;
let owner: TestUser;
let ws: string;
let assistantId: string;
let policyId: string;

/** 16:30 UTC on a Tuesday at least two days from now: the test's days fall in one week. */
function nextTuesday(): number {
  const d = new Date(Date.now() + 2 * DAY);
  d.setUTCHours(16, 30, 0, 0);
  while (d.getUTCDay() !== 2) d.setUTCDate(d.getUTCDate() + 1);
  return d.getTime();
}
const TUESDAY_1630 = nextTuesday();
const WEDNESDAY = (hh: number, mm: number) => TUESDAY_1630 + DAY + ((hh - 16) * 60 + (mm - 30)) * 60_000;
const moveTo = (at: number) => setClockOffset(at - Date.now());

beforeAll(async () => {
  if (!hasChromium) return;
  ({ t, base, browser } = await startDashboard({ WIDGET_RATE_LIMIT_PER_MINUTE: '100000' }));
  owner = await signupUser(t, { name: 'Ada Owner' });
  ws = await insertWorkspace(t, owner, { name: 'Kettle Co.' });
  assistantId = await widgetAssistant(t, owner, ws, { allowedDomains: ['shop.example.com', '127.0.0.1'] });
  await addRule(t, owner, assistantId, {
    name: 'people',
    kind: 'handoff',
    text: 'A person will answer.',
    triggers: [TRIGGER],
  });
  const day = [{ open: '09:00', close: '17:00' }];
  const hours = await t.request({
    method: 'PUT',
    url: `/api/workspaces/${ws}/business-hours`,
    headers: owner.headers,
    payload: {
      timezone: 'UTC',
      week: { mon: day, tue: day, wed: day, thu: day, fri: day, sat: [], sun: [] },
      holidays: [],
      outsideHoursMessage: 'We are away.',
    },
  });
  expect(hours.statusCode, hours.body).toBe(200);
  policyId = newId('sla');
  await t.ctx.db.insert(slaPolicies).values({
    id: policyId,
    workspaceId: ws,
    name: 'Standard support',
    priority: 10,
    firstResponseMinutes: 60,
    nextResponseMinutes: 30,
    resolutionMinutes: 480,
  });
}, 120_000);

afterEach(() => setClockOffset(0));

afterAll(async () => {
  setClockOffset(0);
  await browser?.close();
  await t?.close();
});

const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name });

/** A widget visitor asks for a person (the handoff rule's trigger); returns the conversation's id. */
async function handoff(text: string): Promise<string> {
  const s = await initWidget(t, assistantId);
  const r = await widgetChat(t, assistantId, s, text);
  expect(r.status, r.res.body).toBe(200);
  const [row] = await t.ctx.db.select().from(widgetSessions).where(eq(widgetSessions.id, s.sessionId));
  return row!.conversationId!;
}

/** Signed in as `user`, the browser's clock set to the server's (moved) "now" and running on. */
async function signedIn(user: TestUser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
  await context.clock.install({ time: now() });
  const value = user.cookie.slice(user.cookie.indexOf('=') + 1);
  await context.addCookies([{ name: 'parley.session-token', value, url: base }]);
  return { context, page: await context.newPage() };
}

/** A due time to the minute (the clock runs on after a move). */
const minute = (at: string | number) => new Date(at).toISOString().slice(0, 16);
const sla = async (id: string) =>
  (
    await t.request({ url: `/api/inbox/conversations/${id}?workspaceId=${ws}`, headers: owner.headers })
  ).json().data.sla;

describe.skipIf(!hasChromium)('SLA clocks in the dashboard', { timeout: 180_000 }, () => {
  it('time left and overdue in the list, breached live, sorted and filtered, the conversation’s block', async () => {
    // Tuesday 16:30: 30 minutes today and 30 from Wednesday 09:00 (business hours).
    moveTo(TUESDAY_1630);
    const late = await handoff(KETTLE);
    expect(minute((await sla(late)).firstResponseDueAt)).toBe(minute(WEDNESDAY(9, 30)));
    moveTo(WEDNESDAY(9, 0));
    const soon = await handoff(LID);
    expect(minute((await sla(soon)).firstResponseDueAt)).toBe(minute(WEDNESDAY(10, 0)));
    // 30 older conversations with later clocks, for "Load more" in both orders.
    const monday = TUESDAY_1630 - DAY;
    await t.ctx.db.insert(conversations).values(
      Array.from({ length: 30 }, (_, i) => ({
        id: newId('conv'),
        workspaceId: ws,
        assistantId,
        channel: 'widget' as const,
        status: 'handoff' as const,
        title: `Older question ${i + 1}`,
        messageCount: 1,
        lastMessageAt: new Date(monday - i * 60_000),
        createdAt: new Date(monday - i * 60_000),
        handedOffAt: new Date(monday - i * 60_000),
        slaPolicyId: policyId,
        slaStartedAt: new Date(monday - i * 60_000),
        slaFirstDueAt: new Date(WEDNESDAY(12, 0) + i * 60_000),
      })),
    );

    moveTo(WEDNESDAY(9, 45));
    const { context, page } = await signedIn(owner);
    const errors = pageErrors(page);
    const axe: string[] = [];
    await page.goto(`${base}/w/${ws}/inbox`);
    await heading(page, 'Inbox').waitFor();
    const row = (title: string) =>
      page.locator('.inbox-row').filter({ has: page.getByRole('link', { name: title, exact: true }) });
    const rows = page.locator('.inbox-row');
    await expect.poll(() => row(LID).getByTestId('sla-due').textContent()).toBe('First response in 15 min');
    const overdue = row(KETTLE).getByTestId('sla-due');
    expect(await overdue.textContent()).toBe('⚠ First response overdue by 15 min');
    expect(await overdue.getAttribute('class')).toContain('overdue');
    expect(await row('Older question 1').getByTestId('sla-due').textContent()).toBe(
      'First response in 2 h 15 min',
    );
    expect(await page.getByText('SLA breached', { exact: true }).count()).toBe(1); // the filter's label only

    // The breach job records it: the badge arrives without a reload.
    expect(await recordDueBreaches(t.ctx)).toBeGreaterThan(0);
    await row(KETTLE).locator('.badge.sla-breached', { hasText: 'SLA breached' }).waitFor();
    expect(await row(LID).locator('.sla-breached').count()).toBe(0);
    axe.push(...(await checkPage(page, 'sla-inbox')));

    // The words follow the clock (re-rendered every 30 s).
    await page.clock.runFor(5 * 60_000);
    await expect.poll(() => row(LID).getByTestId('sla-due').textContent()).toBe('First response in 10 min');
    expect(await overdue.textContent()).toBe('⚠ First response overdue by 20 min');

    // Newest activity first (the default), 25 a page.
    await expect.poll(() => rows.count()).toBe(25);
    expect(await rows.nth(0).textContent()).toContain('Lid is stuck');
    expect(await rows.nth(1).textContent()).toContain('Kettle leaks');
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => rows.count()).toBe(32);
    expect(await rows.last().textContent()).toContain('Older question 30');

    // SLA due soonest: the overdue one, then the next, then the later clocks; its own cursor.
    await page.getByRole('combobox', { name: 'Sort' }).selectOption({ label: 'SLA due soonest' });
    await page.waitForURL(/[?&]sort=sla/);
    await expect.poll(() => rows.nth(0).textContent()).toContain('Kettle leaks');
    await expect.poll(() => rows.count()).toBe(25);
    expect(await rows.nth(1).textContent()).toContain('Lid is stuck');
    expect(await rows.nth(2).textContent()).toContain('Older question 1');
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => rows.count()).toBe(32);
    expect(await rows.last().textContent()).toContain('Older question 30');
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);

    // Only the breached one; the address keeps both, so a reload shows the same.
    await page.getByRole('checkbox', { name: 'SLA breached' }).click();
    await page.waitForURL(/[?&]sla=breached/);
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('Kettle leaks');
    await page.reload();
    await expect.poll(() => rows.count()).toBe(1);
    expect(await page.getByRole('checkbox', { name: 'SLA breached' }).isChecked()).toBe(true);
    expect(await page.getByRole('combobox', { name: 'Sort' }).inputValue()).toBe('sla');
    axe.push(...(await checkPage(page, 'sla-inbox-breached')));
    // Clearing the filters keeps the order.
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => rows.count()).toBe(25);
    expect(new URL(page.url()).search).toBe('?sort=sla');

    // The conversation's SLA block: the policy, each running clock, the breach.
    await row(KETTLE).getByRole('link').click();
    const block = page.getByRole('region', { name: 'SLA' });
    await block.getByText('Standard support').waitFor();
    const clocks = block.getByRole('definition');
    await expect.poll(() => clocks.count()).toBe(3);
    expect(await clocks.nth(0).textContent()).toMatch(/^due .+ · ⚠ overdue by 2[01] min$/);
    expect(await clocks.nth(0).locator('.overdue').count()).toBe(1);
    expect(await clocks.nth(1).textContent()).toBe(
      'Not running (it starts when the customer writes after a reply)',
    );
    expect(await clocks.nth(2).textContent()).toMatch(/^due .+ · in 6 h (39|40) min$/);
    const breaches = block.getByRole('list', { name: 'SLA breaches' }).getByRole('listitem');
    expect(await breaches.count()).toBe(1);
    expect(await breaches.first().textContent()).toMatch(/^First response missed: due /);
    await block.scrollIntoViewIfNeeded();
    axe.push(...(await checkPage(page, 'sla-conversation')));

    // The other conversation: no breach yet.
    await page.goto(`${base}/w/${ws}/inbox/${soon}`);
    await block.getByText('Standard support').waitFor();
    expect(await block.getByText('None.').count()).toBe(1);
    expect(await clocks.nth(0).textContent()).toMatch(/ · in (9|10) min$/);

    expect(axe).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('in the account language (Spanish): the clocks, the conversation’s block, the policies page', async () => {
    const language = accountLanguage(t, owner);
    expect((await language('es')).statusCode).toBe(200);
    moveTo(WEDNESDAY(9, 45));
    const { context, page } = await signedIn(owner);
    const errors = pageErrors(page);
    await page.goto(`${base}/w/${ws}/inbox?sla=breached`);
    const row = page.locator('.inbox-row').first();
    await expect
      .poll(() => row.getByTestId('sla-due').textContent())
      .toMatch(/^⚠ Primera respuesta con 1[56] min de retraso$/);
    await row.locator('.badge.sla-breached', { hasText: 'SLA incumplido' }).waitFor();
    await row.getByRole('link').first().click();
    const block = page.getByRole('region', { name: 'SLA' });
    await block.getByText('Política: Standard support').waitFor();
    const date = String.raw`\d{1,2} \p{L}+\.? \d{4}, \d{1,2}:\d{2}`;
    expect(await block.getByRole('definition').first().textContent()).toMatch(
      new RegExp(`^vence el ${date} · ⚠ con 1[56] min de retraso$`, 'u'),
    );
    const breach = block.getByRole('list', { name: 'Incumplimientos del SLA' }).getByRole('listitem');
    expect(await breach.textContent()).toMatch(
      new RegExp(`^Primera respuesta incumplida: vencía el ${date}$`, 'u'),
    );

    await page.goto(`${base}/w/${ws}/sla-policies`);
    await heading(page, 'Políticas de SLA').waitFor();
    await page.getByRole('heading', { name: 'Todas las políticas (1)' }).waitFor();
    await page.getByText('Primera respuesta 1 h · Siguiente respuesta 30 min · Resolución 8 h').waitFor();
    await page.getByRole('form', { name: 'Añadir una política' }).getByLabel('Resolución: unidad').waitFor();
    expect(await checkPage(page, 'sla-es')).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
    expect((await language(null)).statusCode).toBe(200);
  });
});
