import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { personalToken, signupUser, type TestUser } from '../support/factories.ts';
import type { TestApp } from '../support/harness.ts';
import { addMember, insertWorkspace } from '../support/world.ts';
import { checkPage, openMenu, startDashboard } from './dashboard-helpers.ts';
import { hasChromium, pageErrors } from './helpers.ts';

/**
 * The dashboard in the user's language (docs/languages.md "Dashboard") in Chromium against the
 * real server: signed out, the browser's language; signed in, the account's, chosen on the account
 * page: the shell, the account, overview and members pages in Spanish with Spanish dates,
 * `<html lang>`, the tab's title; a reload keeps it; "my browser's language" goes back. axe in
 * light and dark on the Spanish pages.
 */

if (!hasChromium) console.warn('Dashboard language browser tests skipped: /usr/bin/chromium is missing.');

/** A medium date in Spanish ("27 nov 2026"), whichever month it is. */
const SPANISH_DATE = /\d{1,2} (ene|feb|mar|abr|may|jun|jul|ago|sept?|oct|nov|dic)\.? \d{4}/;

let t: TestApp;
let base: string;
let browser: Browser;
let owner: TestUser;
let ws: string;

beforeAll(async () => {
  if (!hasChromium) return;
  ({ t, base, browser } = await startDashboard());
  owner = await signupUser(t, { name: 'Ada Owner' });
  ws = await insertWorkspace(t, owner, { name: 'Kettle Co.' });
  await addMember(t, ws, await signupUser(t, { name: 'Max Member' }), 'member');
  // A token, so the account page shows a date.
  await personalToken(t, owner);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name });
const htmlLang = (page: Page) => page.evaluate(() => document.documentElement.lang);

describe.skipIf(!hasChromium)('the dashboard in the user language', { timeout: 120_000 }, () => {
  it('signed out, speaks the browser language', async () => {
    const context = await browser.newContext({ locale: 'es-MX' });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    const errors = pageErrors(page);
    await page.goto(`${base}/signin`);
    await heading(page, 'Inicia sesión en Parley').waitFor();
    expect(await htmlLang(page)).toBe('es');
    await page.waitForFunction(() => document.title === 'Iniciar sesión · Parley');
    await page.getByLabel('Correo electrónico').waitFor();
    await page.getByRole('link', { name: 'Crea una cuenta' }).click();
    await heading(page, 'Crea tu cuenta de Parley').waitFor();
    expect(await checkPage(page, 'language-signin-es')).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('signed in, switches to the account language, keeps it on reload, and goes back', async () => {
    const context = await browser.newContext({ locale: 'en-US' });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    const errors = pageErrors(page);
    await page.goto(`${base}/signin`);
    expect(await htmlLang(page)).toBe('en');
    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Password').fill(owner.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await heading(page, 'Kettle Co.').waitFor();
    await page.getByRole('link', { name: 'Inbox' }).waitFor();

    await page.goto(`${base}/account`);
    await heading(page, 'Account settings').waitFor();
    await page.getByText(/^Created .* · Last used never$/).waitFor();
    await page.getByLabel('Language').selectOption('es');
    await page.getByRole('button', { name: 'Save preferences' }).click();

    // The page, the shell and the dates switch at once.
    await heading(page, 'Configuración de la cuenta').waitFor();
    await page.getByText('Preferencias guardadas.').waitFor();
    expect(await htmlLang(page)).toBe('es');
    await page.waitForFunction(() => document.title === 'Configuración de la cuenta · Parley');
    const created = await page.getByText(/^Creado el .* · Último uso: nunca$/).textContent();
    expect(created).toMatch(SPANISH_DATE);
    expect(await page.getByLabel('Idioma').inputValue()).toBe('es');
    const menu = await openMenu(page, 'Ada Owner');
    await menu.getByRole('button', { name: 'Cerrar sesión' }).waitFor();
    await menu.getByRole('link', { name: 'Configuración de la cuenta' }).waitFor();
    expect(await checkPage(page, 'language-account-es')).toEqual([]);

    // The workspace's overview and members in Spanish, with the shell's navigation.
    await page.goto(`${base}/w/${ws}`);
    await heading(page, 'Kettle Co.').waitFor();
    await page.getByRole('heading', { name: 'Créditos de este periodo' }).waitFor();
    await page.getByText('Plan: Pro (prueba) · Tu rol: propietario').waitFor();
    await page.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: 'Miembros' }).click();
    await heading(page, 'Miembros').waitFor();
    await page.waitForFunction(() => document.title === 'Miembros · Kettle Co. · Parley');
    await page.getByRole('link', { name: 'Bandeja de entrada' }).waitFor();
    await page.getByRole('navigation', { name: 'Ruta de navegación' }).waitFor();
    await page.getByRole('heading', { name: 'Personas (2)' }).waitFor();
    const joined = await page
      .getByText(/^Se unió el /)
      .first()
      .textContent();
    expect(joined).toMatch(SPANISH_DATE);
    expect(await page.getByLabel('Rol de Max Member').inputValue()).toBe('member');
    await page.getByRole('option', { name: 'Miembro', exact: true }).waitFor({ state: 'attached' });
    expect(await checkPage(page, 'language-members-es')).toEqual([]);

    // A reload keeps the language: it is the account's, not the page's.
    await page.reload();
    await heading(page, 'Miembros').waitFor();
    expect(await htmlLang(page)).toBe('es');
    await page
      .getByText(/^Se unió el /)
      .first()
      .waitFor();

    // Back to the browser's language (English here).
    await page.goto(`${base}/account`);
    await heading(page, 'Configuración de la cuenta').waitFor();
    await page.getByLabel('Idioma').selectOption('');
    await page.getByRole('button', { name: 'Guardar preferencias' }).click();
    await heading(page, 'Account settings').waitFor();
    expect(await htmlLang(page)).toBe('en');
    await page.getByText(/^Created .* · Last used never$/).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a language without catalogs shows English text and writes dates in that language', async () => {
    const patch = await t.request({
      method: 'PATCH',
      url: '/api/account',
      headers: owner.headers,
      payload: { language: 'fr' },
    });
    expect(patch.statusCode).toBe(200);
    const context = await browser.newContext({ locale: 'en-US' });
    await context.addCookies([
      { name: 'parley.session-token', value: owner.cookie.split('=')[1] ?? '', url: base },
    ]);
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    await page.goto(`${base}/account`);
    await heading(page, 'Account settings').waitFor();
    expect(await htmlLang(page)).toBe('en');
    const created = await page.getByText(/^Created .* · Last used never$/).textContent();
    expect(created).toMatch(/\d{1,2} (janv|févr|mars|avr|mai|juin|juil|août|sept|oct|nov|déc)\.? \d{4}/);
    await context.close();
    await t.request({
      method: 'PATCH',
      url: '/api/account',
      headers: owner.headers,
      payload: { language: null },
    });
  });
});
