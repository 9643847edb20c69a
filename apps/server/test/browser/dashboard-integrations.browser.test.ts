import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StartedJobs } from '../../src/jobs/catalog.ts';
import { createAssistant } from '../assistants/helpers.ts';
import { signupUser, type TestUser } from '../support/factories.ts';
import type { TestApp } from '../support/harness.ts';
import { Receiver, waitFor } from '../support/receiver.ts';
import { runWorkers } from '../support/webhooks.ts';
import { addMember, insertWorkspace } from '../support/world.ts';
import { checkPage, startDashboard } from './dashboard-helpers.ts';
import { hasChromium, pageErrors, shot } from './helpers.ts';

/**
 * Webhooks and widget settings in the dashboard (docs/dashboard.md), in Chromium against the real server,
 * its background workers and a local HTTPS receiver (support/receiver.ts; private addresses are
 * allowed by configuration, as docs/webhooks.md says for development):
 * - webhooks: the https refusal in words; create one in the UI, its secret shown once; an event
 *   from the API reaches the receiver, which fails every attempt; the failed delivery is listed;
 *   "Retry" makes the receiver get it again; turn off and on; delete with confirmation;
 * - widget: colour, corner and welcome message change the preview before saving; a validation
 *   error in words; save, then the settings API and the public config endpoint reflect it; the
 *   snippet is copied;
 * - a member is offered neither page (and the API refuses them); the pages fit a phone; axe finds
 *   no serious or critical violation on the three pages in light and dark;
 * - both pages in the account's language (Spanish), with a date written in Spanish.
 */

if (!hasChromium) console.warn('Dashboard integration browser tests skipped: /usr/bin/chromium is missing.');

let t: TestApp;
let base: string;
let browser: Browser;
let workers: StartedJobs;
let rx: Receiver;
let owner: TestUser;
let ws: string;
let assistantId: string;

beforeAll(async () => {
  if (!hasChromium) return;
  ({ t, base, browser } = await startDashboard({
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    WEBHOOK_RETRY_DELAYS_A: '0.2,0.2',
    WEBHOOK_TIMEOUT_MS: '3000',
  }));
  workers = runWorkers(t);
  rx = await new Receiver().start();
  owner = await signupUser(t, { name: 'Ada Owner' });
  ws = await insertWorkspace(t, owner, { name: 'Kettle Co.' });
  assistantId = await createAssistant(t, owner, ws, {
    name: 'Kettle helper',
    welcomeMessage: 'Ask me about kettles.',
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await workers?.stop(1000);
  await rx?.close();
  await t?.close();
});

const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name });

async function signIn(user: TestUser, path: string, viewport = { width: 1280, height: 900 }) {
  const context = await browser.newContext({ viewport, colorScheme: 'light' });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
  const page = await context.newPage();
  const errors = pageErrors(page);
  await page.goto(`${base}/signin`);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/w\/ws_/);
  await page.goto(`${base}${path}`);
  return { context, page, errors };
}

const api = async (
  method: 'GET' | 'PATCH' | 'POST',
  url: string,
  headers: Record<string, string>,
  payload?: object,
) => t.request({ method, url, headers, ...(payload && { payload }) });

/**
 * Elements of the page's own content (inside <main>) reaching past the viewport: none on a phone.
 * (The shell's top navigation is not these pages' part.)
 */
const contentFits = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('main *')]
      .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
      .map((el) => `${el.tagName.toLowerCase()}.${el.className}`),
  );

const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());

describe.skipIf(!hasChromium)('webhooks and widget settings in the dashboard', { timeout: 120_000 }, () => {
  it('creates a webhook, shows its secret once, lists a failed delivery and retries it', async () => {
    const { context, page, errors } = await signIn(owner, `/w/${ws}/webhooks`);
    const a11y: string[] = [];
    await heading(page, 'Webhooks').waitFor();
    await page.getByText('No webhooks yet').waitFor();

    // The API's https refusal is shown in words.
    await page.getByLabel('Endpoint URL').fill('http://hooks.example.com/parley');
    await page.getByRole('checkbox', { name: /^assistant\.updated/ }).check();
    await page.getByRole('button', { name: 'Add webhook' }).click();
    await page
      .getByRole('alert')
      .getByText(/Must be an https:\/\/ URL/)
      .waitFor();

    // A receiver that fails every attempt of the first delivery (3 attempts), then answers 200.
    const url = rx.on('/parley', (_hit, n) => ({ status: n <= 3 ? 500 : 200 }));
    await page.getByLabel('Endpoint URL').fill(url);
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const secretBox = page.getByRole('region', { name: /copy its signing secret now/ });
    await secretBox.getByText('You will not see it again', { exact: false }).waitFor();
    const secret = (await secretBox.locator('.wh-secret-value').textContent()) ?? '';
    expect(secret).toMatch(/^whsec_/);
    await secretBox.getByRole('button', { name: 'Copy secret' }).click();
    await secretBox.getByText('Copied').waitFor();
    expect(await clipboard(page)).toBe(secret);
    const list = page.getByRole('list', { name: 'Webhooks' });
    await list.getByRole('link', { name: url }).waitFor();
    a11y.push(...(await checkPage(page, 'webhooks')));

    // Stored through the API as chosen; the GET never shows the secret.
    const listed = await api('GET', `/api/workspaces/${ws}/webhooks`, owner.headers);
    expect(listed.json().data).toMatchObject([{ url, events: ['assistant.updated'], active: true }]);
    expect(listed.body).not.toContain(secret);
    const hookId = listed.json().data[0].id as string;

    // Open it, go back: the secret is gone for good.
    await secretBox.getByRole('link', { name: 'Open the webhook' }).click();
    await heading(page, url).waitFor();
    await page.getByText('No deliveries yet').waitFor();
    await page.getByRole('link', { name: 'Webhooks', exact: true }).last().click();
    await heading(page, 'Webhooks').waitFor();
    await list.getByRole('link', { name: url }).waitFor();
    expect(await page.getByText(secret).count()).toBe(0);
    expect(await page.content()).not.toContain(secret);

    // An event through the API: the receiver gets all three attempts, failing each.
    const changed = await api('PATCH', `/api/assistants/${assistantId}`, owner.headers, {
      instructions: 'Answer questions about kettles, briefly.',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    await waitFor(() => rx.hits('/parley').length === 3, 10_000, 'three failed attempts');
    const eventId = rx.hits('/parley')[0]!.headers['webhook-id'];
    expect(JSON.parse(rx.hits('/parley')[0]!.body)).toMatchObject({
      event: 'assistant.updated',
      id: eventId,
    });

    // The delivery log shows it failed, with the code and the attempts.
    await list.getByRole('link', { name: url }).click();
    await heading(page, url).waitFor();
    const delivery = page.getByRole('list', { name: 'Deliveries' }).getByRole('listitem').first();
    await delivery.getByText('failed', { exact: true }).waitFor({ timeout: 10_000 });
    expect(await delivery.textContent()).toMatch(/assistant\.updated.*HTTP 500.*3 attempts/);
    await delivery.getByText('Details').click();
    await delivery.getByText(eventId!).waitFor();
    a11y.push(...(await checkPage(page, 'webhook-detail')));

    // Retry from the UI: the receiver gets the same event again (a fourth request) and accepts it.
    await delivery.getByRole('button', { name: 'Retry' }).click();
    await waitFor(() => rx.hits('/parley').length === 4, 10_000, 'the retried delivery');
    const again = rx.hits('/parley')[3]!;
    expect(again.headers['webhook-id']).toBe(eventId);
    expect(JSON.parse(again.body).id).toBe(eventId);
    await delivery.getByText('delivered', { exact: true }).waitFor({ timeout: 10_000 });
    expect(await delivery.textContent()).toMatch(/HTTP 200.*4 attempts/);
    const log = await api('GET', `/api/workspaces/${ws}/webhooks/${hookId}/deliveries`, owner.headers);
    expect(log.json().data).toMatchObject([{ status: 'success', attempt: 4, statusCode: 200 }]);

    // Turn it off: explained, no retry offered; turn it back on.
    await page.getByLabel('Active (deliver new events)').uncheck();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('This webhook is off and receives no new events.').waitFor();
    expect(await delivery.getByRole('button', { name: 'Retry' }).count()).toBe(0);
    expect(
      (await api('GET', `/api/workspaces/${ws}/webhooks/${hookId}`, owner.headers)).json().data.active,
    ).toBe(false);
    await page.getByRole('button', { name: 'Turn it back on' }).click();
    await page.getByText('This webhook is off').waitFor({ state: 'detached' });
    expect(
      (await api('GET', `/api/workspaces/${ws}/webhooks/${hookId}`, owner.headers)).json().data.active,
    ).toBe(true);

    // Delete, after confirming.
    await page.getByRole('button', { name: 'Delete webhook' }).click();
    await page.getByText('This cannot be undone.', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Yes, delete it' }).click();
    await page.getByText('No webhooks yet').waitFor();
    expect((await api('GET', `/api/workspaces/${ws}/webhooks/${hookId}`, owner.headers)).statusCode).toBe(
      404,
    );

    expect(a11y).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('previews widget changes before saving, saves them, and copies the snippet', async () => {
    const { context, page, errors } = await signIn(owner, `/w/${ws}/assistants`);
    await page.getByRole('heading', { level: 2, name: 'Kettle helper' }).waitFor();
    await page.getByRole('link', { name: 'Widget', exact: true }).click();
    await heading(page, 'Website widget of Kettle helper').waitFor();

    const preview = page.getByRole('figure', { name: /Live preview/ });
    const launcher = preview.locator('.wp-launcher');
    const frame = preview.locator('.wp-frame');
    const bg = (loc: typeof launcher) => loc.evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(await bg(launcher)).toBe('rgb(79, 70, 229)');
    // No welcome message of its own: the assistant's is shown (docs/widget.md).
    await preview.getByText('Ask me about kettles.').waitFor();
    // Where answers come from, and how to connect a real model.
    expect(await preview.getByTestId('model-note').textContent()).toMatch(
      /^Answers come from the built-in offline model, .* set AI_PROVIDER on the server \(docs\/configuration\.md/,
    );

    // Colour, corner and welcome message: the preview follows before anything is saved.
    await page.getByLabel('Colour (hex)').fill('#0f766e');
    await page.getByLabel('Bottom left').check();
    await page.getByLabel('Welcome message').fill('Hello from Kettle Co.! Ask away.');
    expect(await bg(launcher)).toBe('rgb(15, 118, 110)');
    expect(await bg(preview.locator('.wp-header'))).toBe('rgb(15, 118, 110)');
    const [l, f] = [(await launcher.boundingBox())!, (await frame.boundingBox())!];
    expect(l.x + l.width / 2).toBeLessThan(f.x + f.width / 2);
    expect(await preview.locator('.wp-msg').textContent()).toBe('Hello from Kettle Co.! Ask away.');
    await page.getByRole('status').getByText('Unsaved changes').waitFor();
    const before = (await api('GET', `/api/assistants/${assistantId}/widget`, owner.headers)).json().data;
    expect(before).toMatchObject({ primaryColor: '#4f46e5', position: 'bottom-right', welcomeMessage: null });

    // The rest of the form; the lead form shows in the preview.
    await page.getByLabel('Widget enabled').check();
    // An address is kept as its host; an entry that is no site is refused in words at the field.
    const domains = page.getByLabel('Allowed domains');
    await domains.fill('https://Shop.Example.com:8443/help\nnot a site');
    await page.getByLabel('Ask visitors for their details').check();
    await page.getByLabel('Fields', { exact: true }).fill('name, email, company');
    await page.getByRole('group', { name: 'Required' }).getByLabel('Email').check();
    await preview.getByText('Email *').waitFor();
    await preview.getByText('Company', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Save widget settings' }).click();
    const fieldError = page.locator('#wg-domains-error');
    await fieldError.getByText(/^“not a site” is not a website address: write its hostname/).waitFor();
    expect(await fieldError.textContent()).not.toContain('allowedDomains');
    expect(await domains.getAttribute('aria-invalid')).toBe('true');
    await domains.fill('https://Shop.Example.com:8443/help');

    // A refusal of the API is shown in words.
    await page.getByLabel(/idle minutes/).fill('0');
    await page.getByRole('button', { name: 'Save widget settings' }).click();
    await page
      .getByRole('alert')
      .getByText(/sessionTimeoutMinutes/)
      .waitFor();
    await page.getByLabel(/idle minutes/).fill('45');
    await page.getByRole('button', { name: 'Save widget settings' }).click();
    await page.getByRole('status').getByText('Saved', { exact: true }).waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await domains.inputValue()).toBe('shop.example.com');

    // The settings API and the public configuration a page reads both have it.
    const saved = (await api('GET', `/api/assistants/${assistantId}/widget`, owner.headers)).json().data;
    expect(saved).toMatchObject({
      isEnabled: true,
      primaryColor: '#0f766e',
      position: 'bottom-left',
      welcomeMessage: 'Hello from Kettle Co.! Ask away.',
      allowedDomains: ['shop.example.com'],
      leadFormEnabled: true,
      leadFormFields: ['name', 'email', 'company'],
      leadFormRequiredFields: ['email'],
      sessionTimeoutMinutes: 45,
    });
    const pub = await t.request({
      method: 'GET',
      url: `/api/widget/${assistantId}/config`,
      headers: { origin: 'https://shop.example.com' },
    });
    expect(pub.statusCode, pub.body).toBe(200);
    expect(pub.json().data).toMatchObject({
      primaryColor: '#0f766e',
      position: 'bottom-left',
      welcomeMessage: 'Hello from Kettle Co.! Ask away.',
      leadFormEnabled: true,
    });

    // The snippet, copied: the script's URL and this assistant's id.
    const snippet = page.getByRole('region', { name: 'Embed on your site' });
    await snippet.getByRole('button', { name: 'Copy snippet' }).click();
    await snippet.getByText('Copied').waitFor();
    const copied = await clipboard(page);
    expect(copied).toBe(saved.embedSnippet);
    expect(copied).toContain('/widget.js"');
    expect(copied).toContain(`data-assistant-id="${assistantId}"`);
    expect(
      await page.getByRole('region', { name: 'Embed on your site' }).locator('pre code').textContent(),
    ).toBe(copied);

    expect(await checkPage(page, 'widget-settings')).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('fits a phone screen', async () => {
    const { context, page } = await signIn(owner, `/w/${ws}/assistants/${assistantId}/widget`, {
      width: 375,
      height: 740,
    });
    await heading(page, 'Website widget of Kettle helper').waitFor();
    expect(await contentFits(page)).toEqual([]);
    await shot(page, 'dashboard-phone-widget-settings');
    await page.goto(`${base}/w/${ws}/webhooks`);
    await heading(page, 'Webhooks').waitFor();
    expect(await contentFits(page)).toEqual([]);
    await shot(page, 'dashboard-phone-webhooks');
    await context.close();
  });

  it('offers a member neither page, and the API refuses them', async () => {
    const member = await signupUser(t, { name: 'Max Member' });
    await addMember(t, ws, member, 'member');
    const { context, page } = await signIn(member, `/w/${ws}/assistants`);
    await page.getByRole('heading', { level: 2, name: 'Kettle helper' }).waitFor();
    expect(await page.getByRole('link', { name: 'Widget', exact: true }).count()).toBe(0);
    expect(
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).count(),
    ).toBe(0);
    await page.goto(`${base}/w/${ws}/assistants/${assistantId}/widget`);
    await page.getByText('Only owners and admins of this workspace can change the website widget').waitFor();
    expect(await page.getByRole('button', { name: 'Save widget settings' }).count()).toBe(0);
    await page.goto(`${base}/w/${ws}/webhooks`);
    await page
      .getByText('Only owners and admins of this workspace can see and manage its webhooks.')
      .waitFor();
    expect(await page.getByRole('button', { name: 'Add webhook' }).count()).toBe(0);
    expect((await api('GET', `/api/assistants/${assistantId}/widget`, member.headers)).statusCode).toBe(403);
    expect((await api('GET', `/api/workspaces/${ws}/webhooks`, member.headers)).statusCode).toBe(403);
    await context.close();
  });

  it('shows webhooks and the widget settings in the account language (Spanish)', async () => {
    expect((await api('PATCH', '/api/account', owner.headers, { language: 'es' })).statusCode).toBe(200);
    const url = rx.on('/es', () => ({ status: 200 }));
    const made = await api('POST', `/api/workspaces/${ws}/webhooks`, owner.headers, { url, events: ['*'] });
    expect(made.statusCode, made.body).toBe(201);
    const { context, page, errors } = await signIn(owner, `/w/${ws}/webhooks`);
    await page.getByRole('heading', { name: 'Tus webhooks' }).waitFor();
    const item = page.getByRole('list', { name: 'Webhooks' }).getByRole('listitem');
    await item.getByText('activo', { exact: true }).waitFor();
    await item.getByText('Todos los eventos').waitFor();
    // "Creado el 27 nov 2026, 7:25"
    expect(await item.getByText(/^Creado el /).textContent()).toMatch(/\d{1,2} [a-z]{3,4}\.? \d{4}/);
    await page.getByRole('form', { name: 'Añadir un webhook' }).getByLabel('URL del endpoint').waitFor();
    await page.getByRole('checkbox', { name: /^ticket\.resolved se resuelve un ticket$/ }).waitFor();
    expect(await checkPage(page, 'webhooks-es')).toEqual([]);

    await page.goto(`${base}/w/${ws}/assistants/${assistantId}/widget`);
    await heading(page, 'Widget del sitio web de Kettle helper').waitFor();
    await page.getByRole('figure', { name: /^Vista previa en vivo/ }).waitFor();
    await page.getByLabel('Abajo a la izquierda').waitFor();
    await page.getByRole('group', { name: 'Obligatorios' }).getByLabel('Correo electrónico').waitFor();
    await page.getByRole('button', { name: 'Guardar la configuración del widget' }).waitFor();
    await page.getByRole('region', { name: 'Insértalo en tu sitio' }).getByText('</body>').waitFor();
    const defaultLanguage = page.getByRole('combobox', { name: /^Idioma predeterminado/ });
    await defaultLanguage.getByRole('option', { name: 'español (es)' }).waitFor({ state: 'attached' });
    expect(await checkPage(page, 'widget-settings-es')).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
    await api('PATCH', '/api/account', owner.headers, { language: null });
  });
});
