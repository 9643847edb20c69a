import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversationOfSession } from '../inbox/helpers.ts';
import { signupUser, type TestUser } from '../support/factories.ts';
import type { TestApp } from '../support/harness.ts';
import { addMember, insertWorkspace } from '../support/world.ts';
import { initWidget, widgetAssistant, widgetChat } from '../widget/helpers.ts';
import { accountLanguage, checkPage, fitsWidth, startDashboard } from './dashboard-helpers.ts';
import { hasChromium, pageErrors } from './helpers.ts';

/**
 * Suggestions from the team's answers (docs/measuring.md "Suggestions") in Chromium against the
 * real server and the offline responder: a customer's question the AI declines in the widget, a
 * person replies in the inbox and closes the conversation, the suggestion shows on the
 * assistant's Suggestions page (the customer's email masked), is edited and accepted, and the
 * curated answer then answers the same question in the chat. Another is dismissed; a member
 * reads without the buttons. axe in light and dark.
 */

if (!hasChromium) console.warn('Suggestions browser tests skipped: /usr/bin/chromium is missing.');

let t: TestApp;
let base: string;
let browser: Browser;
let owner: TestUser;
let member: TestUser;
let ws: string;
let assistant: string;

beforeAll(async () => {
  if (!hasChromium) return;
  ({ t, base, browser } = await startDashboard({ WIDGET_RATE_LIMIT_PER_MINUTE: '10000' }));
  owner = await signupUser(t, { name: 'Ada Owner' });
  member = await signupUser(t, { name: 'Max Member' });
  ws = await insertWorkspace(t, owner, { name: 'Kettle Co.' });
  await addMember(t, ws, member, 'member');
  assistant = await widgetAssistant(t, owner, ws, {}, { name: 'Kettle helper' });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name });
const item = (page: Page, name: string) =>
  page.getByRole('list', { name: 'Suggestions' }).getByRole('listitem', { name, exact: true });

/** A customer asks in the widget; the offline responder, knowing nothing, declines. */
async function customerAsks(question: string) {
  const s = await initWidget(t, assistant);
  const r = await widgetChat(t, assistant, s, question);
  expect(r.status, r.res.body).toBe(200);
  return conversationOfSession(t, s);
}

async function signIn(user: TestUser, colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme });
  const page = await context.newPage();
  await page.goto(`${base}/signin`);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await heading(page, 'Kettle Co.').waitFor();
  return page;
}

/** In the inbox: the person's reply, then Close. */
async function replyAndClose(page: Page, conversationId: string, title: string, reply: string) {
  await page.goto(`${base}/w/${ws}/inbox/${conversationId}`);
  await heading(page, title).waitFor();
  await page.getByRole('textbox', { name: 'Your reply' }).fill(reply);
  await page.getByRole('button', { name: 'Send reply' }).click();
  await page.locator('li.msg[data-role="agent"]', { hasText: reply }).waitFor();
  await page.getByRole('button', { name: 'Close' }).click();
  await expect.poll(() => page.getByTestId('conversation-status').textContent()).toBe('Closed');
}

describe.skipIf(!hasChromium)('suggestions in the dashboard', { timeout: 180_000 }, () => {
  it('declined, answered by a person, closed, edited and accepted; the curated answer then answers in chat', async () => {
    const question = 'Can I pay by invoice? My email is ada@example.org';
    const conversationId = await customerAsks(question);
    const other = await customerAsks('Do you sell teapots?');
    const page = await signIn(owner);
    const errors = pageErrors(page);
    const axe: string[] = [];

    await replyAndClose(page, conversationId, question, 'hi! yes, invoices r fine');
    await replyAndClose(page, other, 'Do you sell teapots?', 'Not yet.');

    // The assistant's navigation leads to the page; both suggestions are listed, newest first.
    await page.goto(`${base}/w/${ws}/assistants/${assistant}/guidance`);
    await heading(page, 'Guidance for Kettle helper').waitFor();
    await page
      .getByRole('navigation', { name: 'Assistant' })
      .getByRole('link', { name: 'Suggestions' })
      .click();
    await heading(page, 'Suggestions for Kettle helper').waitFor();
    await expect.poll(() => page.title()).toBe('Suggestions · Kettle helper · Kettle Co. · Parley');
    const masked = 'Can I pay by invoice? My email is [email]';
    const invoice = item(page, masked);
    await invoice.waitFor();
    expect(await invoice.getByText('hi! yes, invoices r fine').count()).toBe(1);
    const names = await page
      .getByRole('list', { name: 'Suggestions' })
      .getByRole('listitem')
      .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
    expect(names).toEqual(['Do you sell teapots?', masked]);
    axe.push(...(await checkPage(page, 'suggestions')));

    // Dismissed: gone from the open ones, listed under Dismissed.
    await page.getByRole('button', { name: 'Dismiss Do you sell teapots?' }).click();
    await expect.poll(() => item(page, 'Do you sell teapots?').count()).toBe(0);
    await page.getByRole('radio', { name: 'Dismissed' }).check();
    await item(page, 'Do you sell teapots?').waitFor();
    expect(await page.getByRole('button', { name: /^Accept/ }).count()).toBe(0);
    await page.getByRole('radio', { name: 'Open' }).check();

    // Edit, then accept: the words as changed become the curated answer.
    await page.getByRole('button', { name: `Edit ${masked}` }).click();
    const form = page.getByRole('form', { name: 'Edit, then accept' });
    await form.getByLabel('Question').fill('Can I pay by invoice?');
    await form.getByLabel('Answer').fill('Yes: choose “Invoice” at checkout and pay within 30 days.');
    await form.getByRole('button', { name: 'Accept as curated answer' }).click();
    await page.getByRole('status').getByText('“Can I pay by invoice?” is now a curated answer.').waitFor();
    await page.getByText('No open suggestions').waitFor();
    await page.getByRole('link', { name: 'See the curated answers' }).click();
    await heading(page, 'Curated answers for Kettle helper').waitFor();
    await page
      .getByRole('list', { name: 'Curated answers' })
      .getByRole('listitem', { name: 'Can I pay by invoice?' })
      .waitFor();

    // The same question in the assistant's chat: the curated answer, word for word.
    await page.goto(`${base}/w/${ws}/assistants/${assistant}/chat`);
    await page.getByRole('textbox', { name: 'Your message' }).fill('can I pay by invoice');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText('Yes: choose “Invoice” at checkout and pay within 30 days.').waitFor();

    // On a phone's width the page still fits.
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto(`${base}/w/${ws}/assistants/${assistant}/suggestions`);
    await page.getByRole('radio', { name: 'Accepted' }).check();
    await item(page, masked).waitFor();
    expect(await fitsWidth(page)).toBe(true);
    expect(errors).toEqual([]);
    expect(axe).toEqual([]);
  });

  it('a member reads the suggestions without Accept, Edit or Dismiss', async () => {
    const id = await customerAsks('Is the lid dishwasher safe?');
    const ownerPage = await signIn(owner);
    await replyAndClose(ownerPage, id, 'Is the lid dishwasher safe?', 'Yes, top rack only.');
    const page = await signIn(member);
    await page.goto(`${base}/w/${ws}/assistants/${assistant}/suggestions`);
    await item(page, 'Is the lid dishwasher safe?').waitFor();
    for (const name of [/^Accept/, /^Edit/, /^Dismiss/]) {
      expect(await page.getByRole('button', { name }).count()).toBe(0);
    }
    expect(await page.getByRole('form').count()).toBe(0);
  });

  it('speaks Spanish to an owner who chose it: suggestions, curated answers, rules and tests', async () => {
    const language = accountLanguage(t, owner);
    expect((await language('es')).statusCode).toBe(200);
    const page = await signIn(owner);
    try {
      const errors = pageErrors(page);
      const nav = (name: string) =>
        page.getByRole('navigation', { name: 'Asistente' }).getByRole('link', { name, exact: true });
      await page.goto(`${base}/w/${ws}/assistants/${assistant}/suggestions`);
      await heading(page, 'Sugerencias de Kettle helper').waitFor();
      await expect.poll(() => page.title()).toBe('Sugerencias · Kettle helper · Kettle Co. · Parley');
      const lid = page
        .getByRole('list', { name: 'Sugerencias' })
        .getByRole('listitem', { name: 'Is the lid dishwasher safe?', exact: true });
      await lid.getByRole('button', { name: 'Descartar Is the lid dishwasher safe?' }).waitFor();
      // The suggestion's date in Spanish ("28 nov 2026").
      expect(await lid.locator('.badge').textContent()).toMatch(
        /^\d{1,2} (ene|feb|mar|abr|may|jun|jul|ago|sept?|oct|nov|dic)\.? \d{4}$/,
      );
      expect(await checkPage(page, 'suggestions-es')).toEqual([]);
      await page.getByRole('radio', { name: 'Aceptadas' }).check();
      await page.getByRole('heading', { name: 'Sugerencias aceptadas (1)' }).waitFor();

      await nav('Respuestas seleccionadas').click();
      await page.getByRole('heading', { name: 'Respuestas (1 de un máximo de 500)' }).waitFor();
      await page
        .getByRole('list', { name: 'Respuestas seleccionadas' })
        .getByRole('listitem', { name: 'Can I pay by invoice?' })
        .getByText(/^usada \d+ (vez|veces)$/)
        .waitFor();

      // An empty rule is refused, said in Spanish above the form.
      await nav('Directrices').click();
      await page.getByText('Aún no hay reglas').waitFor();
      const addRule = page.getByRole('form', { name: 'Añadir una regla' });
      await addRule.getByRole('button', { name: 'Añadir regla' }).click();
      await addRule
        .getByRole('alert')
        .getByText('Algunos campos no son válidos: mira los mensajes de cada campo.')
        .waitFor();

      await nav('Pruebas').click();
      await heading(page, 'Pruebas de Kettle helper').waitFor();
      await page.getByText('Aún no hay ejecuciones.').waitFor();
      await page
        .getByRole('form', { name: 'Añadir una prueba' })
        .getByLabel('Mensaje 1', { exact: true })
        .waitFor();
      expect(errors).toEqual([]);
    } finally {
      await page.context().close();
      await language(null);
    }
  });
});
