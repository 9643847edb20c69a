import { eq } from 'drizzle-orm';
import type { Browser, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { widgetSessions } from '../../src/db/schema/index.ts';
import { inbox } from '../inbox/helpers.ts';
import { addRule } from '../steering/helpers.ts';
import { signupUser, type TestUser } from '../support/factories.ts';
import type { TestApp } from '../support/harness.ts';
import { addMember, insertWorkspace } from '../support/world.ts';
import { axeViolations, checkPage, startDashboard } from './dashboard-helpers.ts';
import {
  ask,
  hasChromium,
  pageErrors,
  type Site,
  shot,
  startSite,
  storedSession,
  widget,
  widgetAssistant,
} from './helpers.ts';

/**
 * Satisfaction surveys in the browser (docs/csat.md "In the widget", "In the dashboard"): a visitor
 * asks for a person in the real widget, a member answers and closes the conversation through the
 * API, and the widget asks the workspace's question; the visitor rates with the keyboard alone,
 * once (Send is disabled while it is sent), and reads the thank-you; the conversation carries the
 * rating and the dashboard's conversation page shows it. A failed send keeps the card to try
 * again; a conversation rated meanwhile says so; End chat after a person's reply asks too. axe on
 * the card and the page.
 */

if (!hasChromium) console.warn('CSAT browser tests skipped: /usr/bin/chromium is missing.');

const TRIGGER = 'a human please';
const QUESTION = 'How did we do today?';

let t: TestApp;
let base: string;
let browser: Browser;
let site: Site;
let owner: TestUser;
let member: TestUser;
let ws: string;
let asst: string;

beforeAll(async () => {
  if (!hasChromium) return;
  ({ t, base, browser } = await startDashboard({ WIDGET_RATE_LIMIT_PER_MINUTE: '100000' }));
  site = await startSite(base);
  owner = await signupUser(t, { name: 'Ada Owner' });
  member = await signupUser(t, { name: 'Max Member' });
  ws = await insertWorkspace(t, owner, { name: 'Kettle Co.' });
  await addMember(t, ws, member, 'member');
  asst = await widgetAssistant(t, owner, ws, [
    { question: 'How long do refunds take?', answer: 'Refunds reach your card within 5 business days.' },
  ]);
  await addRule(t, owner, asst, {
    name: 'people',
    kind: 'handoff',
    text: 'A person will answer.',
    triggers: [TRIGGER],
  });
  const r = await t.request({
    method: 'PUT',
    url: `/api/workspaces/${ws}/inbox-settings`,
    headers: owner.headers,
    payload: { csat: { enabled: true, question: QUESTION } },
  });
  expect(r.statusCode, r.body).toBe(200);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await t?.close();
});

/** A visitor on the customer's page asks for a person; a member takes it and answers. */
async function answeredVisitor(): Promise<{ page: Page; id: string; errors: string[] }> {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  const errors = pageErrors(page);
  const ui = widget(page);
  await page.goto(site.url(asst));
  await ui.launcher.click();
  await ui.panel.waitFor();
  expect((await ask(page, TRIGGER)).status()).toBe(200);
  const sessionId = await storedSession(page, asst);
  let id = '';
  await expect
    .poll(async () => {
      const [row] = await t.ctx.db.select().from(widgetSessions).where(eq(widgetSessions.id, sessionId));
      id = row?.conversationId ?? '';
      return id;
    })
    .not.toBe('');
  expect((await inbox(t, member, 'POST', `/${id}/handoff`)).statusCode).toBe(200);
  const replied = await inbox(t, member, 'POST', `/${id}/messages`, { content: 'Happy to help with that.' });
  expect(replied.statusCode, replied.body).toBe(201);
  await page.locator('[data-parley-widget] .msg.bot', { hasText: 'Happy to help with that.' }).waitFor();
  return { page, id, errors };
}

/** The focused element inside the widget: its tag, type and value. */
const active = (page: Page) =>
  page.evaluate(() => {
    const el = document.querySelector('[data-parley-widget]')?.shadowRoot
      ?.activeElement as HTMLInputElement | null;
    return el ? `${el.tagName.toLowerCase()}:${el.type ?? ''}:${el.value ?? ''}` : '';
  });

async function signIn(user: TestUser): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${base}/signin`);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Kettle Co.' }).waitFor();
  return page;
}

const card = (page: Page) => page.getByRole('form', { name: 'Rate this conversation' });

describe.skipIf(!hasChromium)('the satisfaction survey', { timeout: 180_000 }, () => {
  it('closed by a member: the widget asks; rated with the keyboard alone, once; shown in the dashboard', async () => {
    const { page, id, errors } = await answeredVisitor();
    expect((await inbox(t, member, 'POST', `/${id}/close`)).statusCode).toBe(200);
    const group = page.getByRole('group', { name: QUESTION });
    await group.waitFor();
    await page.getByRole('button', { name: 'Start a new chat' }).waitFor();
    expect(await group.getByRole('radio').count()).toBe(5);
    await group.getByRole('radio', { name: '1 – Very poor' }).waitFor();
    await group.getByRole('radio', { name: '5 – Excellent' }).waitFor();
    await shot(page, 'widget-csat-card');
    expect(await axeViolations(page)).toEqual([]);

    // Keyboard only: from the panel's close button, Tab reaches the scale; arrows choose.
    await page.locator('[data-parley-widget] header .x').focus();
    for (let i = 0; i < 8 && !(await active(page)).startsWith('input:radio'); i++)
      await page.keyboard.press('Tab');
    expect(await active(page)).toBe('input:radio:1');
    // Its focus is visible on the drawn box (the radio itself is transparent).
    const box = page.locator('[data-parley-widget] .scale input:focus-visible + .o');
    expect(await box.evaluate((el) => getComputedStyle(el).outlineStyle)).toBe('solid');
    await page.keyboard.press('Enter'); // Enter chooses, and sends nothing
    expect(await group.getByRole('radio', { name: '1 – Very poor' }).isChecked()).toBe(true);
    for (const key of ['ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowLeft'])
      await page.keyboard.press(key);
    expect(await active(page)).toBe('input:radio:4');
    expect(await group.getByRole('radio', { name: '4 – Good' }).isChecked()).toBe(true);
    await page.keyboard.press('Tab');
    expect(await active(page)).toBe('textarea:textarea:');
    await page.keyboard.type('Quick and kind');
    await page.keyboard.press('Tab');
    expect(await active(page)).toMatch(/^button:submit/);

    // Held on its way: Send is disabled, a second Enter sends nothing more.
    const posts: string[] = [];
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const hold = async (route: Route) => {
      posts.push(route.request().postData() ?? '');
      await held;
      await route.fallback();
    };
    await page.route('**/csat', hold);
    await page.keyboard.press('Enter');
    const send = card(page).getByRole('button', { name: 'Send' });
    await expect.poll(() => send.isDisabled()).toBe(true);
    await page.keyboard.press('Enter');
    release();
    const thanks = page.getByRole('status').filter({ hasText: 'Thank you for your feedback!' });
    await thanks.waitFor();
    expect(posts).toEqual([JSON.stringify({ rating: 4, comment: 'Quick and kind' })]);
    expect(await card(page).count()).toBe(0);
    await page.unroute('**/csat', hold);
    await shot(page, 'widget-csat-thanks');
    expect(await axeViolations(page)).toEqual([]);

    const c = (await inbox(t, member, 'GET', `/${id}`)).json().data;
    expect(c.csat).toEqual({ rating: 4, comment: 'Quick and kind', ratedAt: expect.any(String) });
    expect(errors).toEqual([]);

    // The dashboard's conversation page.
    const dash = await signIn(member);
    await dash.goto(`${base}/w/${ws}/inbox/${id}`);
    const rating = dash.getByRole('region', { name: 'Satisfaction' });
    await rating.getByText('Customer rating: 4/5').waitFor();
    await rating.getByText('Quick and kind').waitFor();
    expect(await checkPage(dash, 'csat-conversation')).toEqual([]);
  });

  it('a failed send keeps the card to try again; rated meanwhile: said quietly, no card', async () => {
    const { page, id, errors } = await answeredVisitor();
    const token = await page.evaluate(
      (key) => JSON.parse(localStorage.getItem(key) ?? '{}').session?.sessionToken as string,
      `parley:widget:${asst}`,
    );
    expect((await inbox(t, member, 'POST', `/${id}/close`)).statusCode).toBe(200);
    const group = page.getByRole('group', { name: QUESTION });
    await group.waitFor();
    await group.getByRole('radio', { name: '5 – Excellent' }).click();
    const refuse = (route: Route) => route.abort();
    await page.route('**/csat', refuse);
    await card(page).getByRole('button', { name: 'Send' }).click();
    await card(page)
      .getByRole('alert')
      .filter({ hasText: "Your rating couldn't be sent. Please try again." })
      .waitFor();
    expect(await card(page).getByRole('button', { name: 'Send' }).isEnabled()).toBe(true);
    await page.unroute('**/csat', refuse);

    // Rated elsewhere in the meantime (the same session's token): the server answers 409.
    const other = await t.request({
      method: 'POST',
      url: `/api/widget/${asst}/csat`,
      headers: { origin: `http://127.0.0.1:${site.port}`, authorization: `Widget ${token}` },
      payload: { rating: 2 },
    });
    expect(other.statusCode, other.body).toBe(201);
    await card(page).getByRole('button', { name: 'Send' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Thanks — this conversation was already rated.' })
      .waitFor();
    expect(await card(page).count()).toBe(0);
    expect((await inbox(t, member, 'GET', `/${id}`)).json().data.csat.rating).toBe(2);
    expect(errors).toEqual([]);
  });

  it('End chat after a person replied asks too; an unchosen rating is said at the scale', async () => {
    const { page, id, errors } = await answeredVisitor();
    await page.getByRole('button', { name: 'End chat' }).click();
    const group = page.getByRole('group', { name: QUESTION });
    await group.waitFor();
    await card(page).getByRole('button', { name: 'Send' }).click();
    await group.getByText('Please choose a rating from 1 to 5.').waitFor();
    expect(await active(page)).toBe('input:radio:1');
    await page.keyboard.press('Space');
    await card(page).getByRole('button', { name: 'Send' }).click();
    await page.getByRole('status').filter({ hasText: 'Thank you for your feedback!' }).waitFor();
    expect((await inbox(t, member, 'GET', `/${id}`)).json().data.csat).toMatchObject({
      rating: 1,
      comment: null,
    });
    // A new chat: the old card is gone.
    await page.getByRole('button', { name: 'Start a new chat' }).click();
    await expect.poll(() => page.getByText('Thank you for your feedback!').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('the inbox settings page: an owner turns the survey off and words the question; a member reads it', async () => {
    const page = await signIn(owner);
    const errors = pageErrors(page);
    await page.goto(`${base}/w/${ws}/auto-assignment`);
    const form = page.getByRole('form', { name: 'Satisfaction survey' });
    const toggle = form.getByRole('switch', { name: 'Ask customers to rate the help they received' });
    const question = form.getByLabel('Question');
    await expect.poll(() => question.inputValue()).toBe(QUESTION);
    expect(await toggle.isChecked()).toBe(true);
    await question.fill('   ');
    await form.getByRole('button', { name: 'Save survey' }).click();
    await form.getByText('Enter the question, up to 200 characters.').waitFor();
    expect(await question.getAttribute('aria-invalid')).toBe('true');
    await toggle.uncheck();
    await question.fill('Did we help?');
    await form.getByRole('button', { name: 'Save survey' }).click();
    await form.getByText('Survey saved.').waitFor();
    const saved = await t.request({ url: `/api/workspaces/${ws}/inbox-settings`, headers: owner.headers });
    expect(saved.json().data.csat).toEqual({ enabled: false, question: 'Did we help?' });
    const axe = await checkPage(page, 'csat-settings');
    expect(errors).toEqual([]);

    const reader = await signIn(member);
    await reader.goto(`${base}/w/${ws}/auto-assignment`);
    const read = reader.getByRole('region', { name: 'Satisfaction survey' });
    await read.getByText('Question: Did we help?').waitFor();
    await read.getByText('Asking for a rating: off').waitFor();
    expect(await reader.getByRole('form', { name: 'Satisfaction survey' }).count()).toBe(0);
    axe.push(...(await checkPage(reader, 'csat-settings-read')));
    expect(axe).toEqual([]);
  });
});
