import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/harness.ts';
import { createWorld, type World } from '../support/world.ts';
import { initWidget, widgetAssistant, widgetChat } from '../widget/helpers.ts';
import { accountLanguage, checkPage, startDashboard } from './dashboard-helpers.ts';
import { hasChromium } from './helpers.ts';

/**
 * The customer's language in the inbox (docs/languages.md "Conversations"): each conversation
 * says it in the list and on its page, and the Language filter keeps only those in one language.
 */
let t: TestApp;
let base: string;
let browser: Browser;
let w: World;
let french: string;
let japanese: string;

async function visitor(asst: string, content: string) {
  const s = await initWidget(t, asst);
  const r = await widgetChat(t, asst, s, content);
  expect(r.status).toBe(200);
  return (
    await t.request({
      method: 'GET',
      url: `/api/inbox/conversations?workspaceId=${w.ws}`,
      headers: w.owner.headers,
    })
  )
    .json()
    .data.find((c: { title: string }) => c.title === content.slice(0, 80)).id as string;
}

beforeAll(async () => {
  if (!hasChromium) return;
  ({ t, base, browser } = await startDashboard({ WIDGET_RATE_LIMIT_PER_MINUTE: '10000' }));
  w = await createWorld(t);
  const asst = await widgetAssistant(t, w.owner, w.ws);
  french = await visitor(
    asst,
    'Pourriez-vous me dire si le magasin du centre-ville est ouvert les jours fériés ?',
  );
  japanese = await visitor(asst, '駅前の店舗は祝日も営業していますか？');
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe.skipIf(!hasChromium)('the inbox by language', { timeout: 90_000 }, () => {
  it('shows each conversation language and filters by it', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const value = w.owner.cookie.slice(w.owner.cookie.indexOf('=') + 1);
    await context.addCookies([{ name: 'parley.session-token', value, url: base }]);
    const page = await context.newPage();
    await page.goto(`${base}/w/${w.ws}/inbox`);
    const row = (id: string) => page.locator(`[data-conversation="${id}"]`);
    await expect.poll(() => row(french).locator('.inbox-meta').textContent()).toContain('French');
    expect(await row(japanese).locator('.inbox-meta').textContent()).toContain('Japanese');

    await page.getByLabel('Language').selectOption('fr');
    await expect.poll(() => page.url()).toContain('language=fr');
    // The filtered list replaces the other (a loading state may come between): French only.
    await row(japanese).waitFor({ state: 'detached' });
    await row(french).waitFor();
    expect(await row(japanese).count()).toBe(0);
    expect(await checkPage(page, 'inbox-language')).toEqual([]);

    await row(french).locator('a').first().click();
    await expect.poll(() => page.locator('main').textContent()).toContain('French');
    await context.close();
  });

  it('shows the inbox, a conversation and auto-assignment in Spanish', async () => {
    const language = accountLanguage(t, w.owner);
    expect((await language('es')).statusCode).toBe(200);
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 900 } });
    const value = w.owner.cookie.slice(w.owner.cookie.indexOf('=') + 1);
    await context.addCookies([{ name: 'parley.session-token', value, url: base }]);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const spanishDate = /\d{1,2} (ene|feb|mar|abr|may|jun|jul|ago|sept?|oct|nov|dic)\.? \d{4}/;

    await page.goto(`${base}/w/${w.ws}/inbox`);
    await page.getByRole('heading', { name: 'Bandeja de entrada', level: 1 }).waitFor();
    await page.getByRole('form', { name: 'Filtros' }).waitFor();
    await page.getByLabel('Idioma').waitFor();
    await page.getByRole('option', { name: 'Actividad más reciente' }).waitFor({ state: 'attached' });
    const meta = page.locator(`[data-conversation="${french}"] .inbox-meta`);
    await expect.poll(() => meta.textContent()).toContain('francés');
    const row = (await meta.textContent()) ?? '';
    expect(row).toContain('Widget del sitio web');
    expect(row).toContain('Sin asignar');
    expect(row).toMatch(/\d+ mensajes?/);
    expect(row).toMatch(spanishDate);
    expect(await checkPage(page, 'inbox-es')).toEqual([]);

    await page.goto(`${base}/w/${w.ws}/inbox/${french}`);
    await page.getByRole('heading', { name: 'Quién responde' }).waitFor();
    await page.getByText('Está respondiendo la IA.').waitFor();
    await page.getByRole('button', { name: 'Tomar el control' }).waitFor();
    await page.getByRole('button', { name: 'Enviar respuesta' }).waitFor();
    expect(await page.getByTestId('conversation-status').textContent()).toBe('Responde la IA');
    expect(await page.locator('.conv-facts').textContent()).toMatch(
      new RegExp(`iniciada el ${spanishDate.source}`),
    );
    await page.getByRole('list', { name: 'Mensajes' }).locator('.who', { hasText: 'IA' }).first().waitFor();
    // The AI reply's confidence, written as a Spanish number ("Confianza 0,00 (baja)").
    expect(await page.locator('.confidence').first().textContent()).toMatch(/^Confianza \d,\d\d/);
    expect(await checkPage(page, 'conversation-es')).toEqual([]);

    await page.goto(`${base}/w/${w.ws}/auto-assignment`);
    await page.getByRole('heading', { name: 'Asignación automática', level: 1 }).waitFor();
    await page.getByRole('switch', { name: 'Asignar conversaciones automáticamente' }).waitFor();
    await page.getByRole('heading', { name: 'Encuesta de satisfacción' }).waitFor();
    expect(await checkPage(page, 'auto-assignment-es')).toEqual([]);
    await context.close();
    await language(null);
  });
});
