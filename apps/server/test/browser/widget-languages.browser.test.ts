import type { AddressInfo } from 'node:net';
import { WIDGET_CATALOGS } from '@parley/contract/widget-strings/index';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, checkPage } from './dashboard-helpers.ts';
import { pageErrors, shot } from './helpers.ts';
import { hasChromium, startWidgetPage, stopWidgetPage, type WidgetPage } from './widget-setup.ts';

/**
 * The widget in the visitor's language (docs/languages.md "Widget"): the script sends the
 * browser's languages, shows the strings the server chose, sets `lang` and `dir`, and mirrors
 * for Arabic; the owner's overrides show; an unsupported language gets the workspace's default.
 */
let env: Partial<WidgetPage> = {};
beforeAll(async () => {
  if (!hasChromium) return;
  env = await startWidgetPage();
}, 120_000);
afterAll(() => stopWidgetPage(env));

const { es, ar, ja, de } = WIDGET_CATALOGS;

/** The widget's parts inside its shadow root, by class (their names are in the page's language). */
const parts = (page: Page) => {
  const at = (css: string) => page.locator(`[data-parley-widget] ${css}`);
  return {
    root: at('.root'),
    launcher: at('.launcher'),
    panel: at('.panel'),
    title: at('header h2'),
    close: at('header .x'),
    log: at('.log'),
    input: at('textarea.compose, form.compose textarea'),
    send: at('.send'),
  };
};

async function open(languages: string, name: string) {
  const { browser, site, asst } = env as WidgetPage;
  const context = await browser.newContext({ locale: languages, timezoneId: 'UTC' });
  const page = await context.newPage();
  const errors = pageErrors(page);
  const config = page.waitForRequest((r) => r.url().includes(`/api/widget/${asst}/config`));
  await page.goto(site.url(asst));
  const ui = parts(page);
  await ui.launcher.click();
  await ui.panel.waitFor();
  await shot(page, `widget-language-${name}`);
  return { page, ui, errors, context, configUrl: (await config).url() };
}

/** Sends a message from the box (its name is in the page's language); resolves when the answer streams. */
async function ask(page: Page, question: string) {
  const stream = page.waitForResponse((r) => r.url().endsWith('/chat') && r.request().method() === 'POST');
  const ui = parts(page);
  await ui.input.fill(question);
  await ui.input.press('Enter');
  return stream;
}

/** What the root says and how the page computes it. */
const rootOf = (page: Page) =>
  page.evaluate(() => {
    const root = document.querySelector('[data-parley-widget]')?.shadowRoot?.querySelector('.root');
    return root
      ? {
          lang: root.getAttribute('lang'),
          dir: root.getAttribute('dir'),
          direction: getComputedStyle(root).direction,
        }
      : null;
  });

describe.skipIf(!hasChromium)('the widget in the visitor’s language', { timeout: 120_000 }, () => {
  it('Spanish: the browser’s languages choose the strings; an override shows', async () => {
    const { t, w, asst } = env as WidgetPage;
    const res = await t.request({
      method: 'PATCH',
      url: `/api/assistants/${asst}/widget`,
      headers: w.owner.headers,
      payload: { strings: { es: { placeholder: 'Escríbenos aquí…' } } },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { page, ui, errors, context, configUrl } = await open('es-MX', 'es');
    expect(decodeURIComponent(configUrl)).toContain('languages=es-MX');
    expect(await rootOf(page)).toEqual({ lang: 'es', dir: 'ltr', direction: 'ltr' });
    expect(await ui.launcher.getAttribute('aria-label')).toBe(es.closeChat);
    expect(await ui.input.getAttribute('placeholder')).toBe('Escríbenos aquí…');
    expect(await ui.log.getAttribute('aria-label')).toBe(es.conversation);
    expect(await ui.send.getAttribute('aria-label')).toBe(es.sendMessage);
    await page.getByText(es.leadTitle).waitFor();
    // The lead form says its own words, in Spanish, client-side too.
    await page.getByRole('button', { name: es.leadSend, exact: true }).click();
    await page.getByText(es.emailRequired).waitFor();
    // The first message creates the session with init, which sends the languages too.
    const init = page.waitForRequest((r) => r.url().endsWith('/init'));
    await ask(page, 'How long do refunds take?');
    expect((await init).postDataJSON().languages).toEqual(['es-MX']);
    await page.locator('[data-parley-widget] .rate').first().waitFor();
    expect(await page.getByRole('group', { name: es.helpfulQuestion }).count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
    await t.request({
      method: 'PATCH',
      url: `/api/assistants/${asst}/widget`,
      headers: w.owner.headers,
      payload: { strings: {} },
    });
  });

  it('Arabic: dir="rtl", the panel mirrors, an English answer still reads left to right', async () => {
    const { page, ui, errors, context } = await open('ar-EG', 'ar');
    expect(await rootOf(page)).toEqual({ lang: 'ar', dir: 'rtl', direction: 'rtl' });
    expect(await ui.input.getAttribute('placeholder')).toBe(ar.placeholder);
    expect(await ui.launcher.getAttribute('aria-label')).toBe(ar.closeChat);
    // The empty box reads right to left (its placeholder too); typed Latin text sets its own.
    const direction = () => ui.input.evaluate((el) => getComputedStyle(el).direction);
    expect(await direction()).toBe('rtl');
    await ui.input.fill('Hello');
    expect(await direction()).toBe('ltr');
    await ui.input.fill('');
    expect(await direction()).toBe('rtl');
    await page.getByText(ar.leadTitle).waitFor();
    await page.getByRole('button', { name: ar.leadLater, exact: true }).click();
    // Header: in right-to-left the title starts on the right and the close button sits at the left.
    const title = (await ui.title.boundingBox())!;
    const close = (await ui.close.boundingBox())!;
    expect(close.x).toBeLessThan(title.x);
    // Composer: the send button is to the left of the message box.
    const send = (await ui.send.boundingBox())!;
    const input = (await ui.input.boundingBox())!;
    expect(send.x).toBeLessThan(input.x);
    // The visitor's message on the left, the answer on the right (mirrored sides).
    await ask(page, 'How long do refunds take?');
    const answer = page.locator('[data-parley-widget] .msg.bot', { hasText: 'Refunds reach' });
    await answer.locator('.rate').waitFor();
    const log = (await ui.log.boundingBox())!;
    const mine = (await page.locator('[data-parley-widget] .msg.user').first().boundingBox())!;
    const theirs = (await answer.boundingBox())!;
    expect(mine.x - log.x).toBeLessThan(log.x + log.width - (mine.x + mine.width));
    expect(log.x + log.width - (theirs.x + theirs.width)).toBeLessThan(theirs.x - log.x);
    const text = await answer.evaluate((el) => getComputedStyle(el.querySelector('[dir=auto]')!).direction);
    expect(text).toBe('ltr');
    const source = answer.locator('.sources li').first();
    expect(await source.evaluate((el) => getComputedStyle(el).direction)).toBe('ltr');
    // The sides are logical: the visitor's bubble keeps its small corner at the end (bottom left).
    const corner = await page
      .locator('[data-parley-widget] .msg.user')
      .first()
      .evaluate((el) => getComputedStyle(el).borderBottomLeftRadius);
    expect(corner).toBe('4px');
    expect(await page.getByRole('group', { name: ar.helpfulQuestion }).count()).toBe(1);
    await shot(page, 'widget-language-ar-answer');
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('Japanese, and an unsupported language gets the workspace’s default', async () => {
    const { t, w } = env as WidgetPage;
    const jp = await open('ja-JP', 'ja');
    expect(await rootOf(jp.page)).toEqual({ lang: 'ja', dir: 'ltr', direction: 'ltr' });
    expect(await jp.ui.input.getAttribute('placeholder')).toBe(ja.placeholder);
    await jp.page.getByText(ja.leadTitle).waitFor();
    expect(await axeViolations(jp.page)).toEqual([]);
    expect(jp.errors).toEqual([]);
    await jp.context.close();

    const patched = await t.request({
      method: 'PATCH',
      url: `/api/workspaces/${w.ws}`,
      headers: w.owner.headers,
      payload: { defaultLanguage: 'de' },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    try {
      const ko = await open('ko-KR', 'default-de');
      expect(await rootOf(ko.page)).toEqual({ lang: 'de', dir: 'ltr', direction: 'ltr' });
      expect(await ko.ui.input.getAttribute('placeholder')).toBe(de.placeholder);
      expect(ko.errors).toEqual([]);
      await ko.context.close();
    } finally {
      await t.request({
        method: 'PATCH',
        url: `/api/workspaces/${w.ws}`,
        headers: w.owner.headers,
        payload: { defaultLanguage: 'en' },
      });
    }
  });
});

describe.skipIf(!hasChromium)('the dashboard’s widget page: languages', { timeout: 120_000 }, () => {
  it('sets the workspace’s default language and a text of one language, shown over the built-in one', async () => {
    const { t, w, browser, asst } = env as WidgetPage;
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      colorScheme: 'light',
    });
    const [name, value] = w.owner.cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url: base }]);
    const page = await context.newPage();
    const errors = pageErrors(page);
    await page.goto(`${base}/w/${w.ws}/assistants/${asst}/widget`);
    await page.getByRole('heading', { name: 'Languages' }).waitFor();

    await page.getByLabel('Default language of the workspace').selectOption('fr');
    await page.getByRole('button', { name: 'Save default language' }).click();
    await page.getByText('Saved', { exact: true }).first().waitFor();
    const one = await t.request({ method: 'GET', url: `/api/workspaces/${w.ws}`, headers: w.owner.headers });
    expect(one.json().data.defaultLanguage).toBe('fr');

    await page.getByRole('combobox', { name: /^Language/ }).selectOption('es');
    const box = page.getByLabel('placeholder', { exact: true });
    expect(await box.getAttribute('placeholder')).toBe(es.placeholder);
    await box.fill('Pregúntanos lo que quieras');
    // A placeholder the key does not have: refused at its field, nothing saved.
    await page.getByLabel('retry', { exact: true }).fill('Otra vez {name}');
    await page.getByRole('button', { name: 'Save texts' }).click();
    await page.getByText(/Unknown placeholder \{name\}/).waitFor();
    await page.getByLabel('retry', { exact: true }).fill('');
    await page.getByRole('button', { name: 'Save texts' }).click();
    // The default language's "Saved" is still on the page: the texts' save is awaited through the API.
    await expect
      .poll(
        async () =>
          (
            await t.request({
              method: 'GET',
              url: `/api/assistants/${asst}/widget`,
              headers: w.owner.headers,
            })
          ).json().data.strings,
      )
      .toEqual({ es: { placeholder: 'Pregúntanos lo que quieras' } });
    expect(await checkPage(page, 'widget-languages')).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
    await t.request({
      method: 'PATCH',
      url: `/api/workspaces/${w.ws}`,
      headers: w.owner.headers,
      payload: { defaultLanguage: 'en' },
    });
    await t.request({
      method: 'PATCH',
      url: `/api/assistants/${asst}/widget`,
      headers: w.owner.headers,
      payload: { strings: {} },
    });
  });
});
