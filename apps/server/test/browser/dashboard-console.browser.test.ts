import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAssistant } from '../assistants/helpers.ts';
import { signupUser } from '../support/factories.ts';
import type { TestApp } from '../support/harness.ts';
import { insertWorkspace } from '../support/world.ts';
import { startDashboard } from './dashboard-helpers.ts';
import { hasChromium } from './helpers.ts';

/**
 * The dashboard loads cleanly in Chromium (docs/dashboard.md): signed out and on every signed-in
 * page, no console error, no uncaught exception, no request that failed or answered 4xx/5xx —
 * not even the browser's own request for an icon.
 */

if (!hasChromium) console.warn('Dashboard console tests skipped: /usr/bin/chromium is missing.');

let t: TestApp;
let base: string;
let browser: Browser;

beforeAll(async () => {
  if (!hasChromium) return;
  ({ t, base, browser } = await startDashboard());
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

/** Everything that went wrong on `page` while it loaded, one line each (empty: it loaded cleanly). */
function problems(page: Page): string[] {
  const found: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') found.push(`console error: ${m.text()} (${m.location().url})`);
  });
  page.on('pageerror', (e) => found.push(`uncaught: ${e.message}`));
  page.on('requestfailed', (r) => found.push(`failed: ${r.method()} ${r.url()} ${r.failure()?.errorText}`));
  page.on('response', (r) => {
    if (r.status() >= 400) found.push(`${r.status()}: ${r.request().method()} ${r.url()}`);
  });
  return found;
}

/** Opens `path` and waits until its heading shows and no request is left in flight. */
async function visit(page: Page, path: string, heading: string | RegExp) {
  await page.goto(`${base}${path}`, { waitUntil: 'networkidle' });
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  await page.waitForLoadState('networkidle');
}

describe.skipIf(!hasChromium)('the dashboard in Chromium', { timeout: 120_000 }, () => {
  let context: BrowserContext;
  afterAll(() => context?.close());

  it('shows the sign-in and sign-up pages with no console error and no failed request', async () => {
    context = await browser.newContext();
    const page = await context.newPage();
    const found = problems(page);
    await visit(page, '/', 'Sign in to Parley');
    await visit(page, '/signup', 'Create your Parley account');
    expect(found).toEqual([]);
  });

  it('shows every signed-in page with no console error and no failed request', async () => {
    const user = await signupUser(t, { name: 'Ada Lovelace' });
    const ws = await insertWorkspace(t, user, { name: 'Kettle Co.' });
    const asst = await createAssistant(t, user, ws, { name: 'Kettle helper' });
    context = await browser.newContext();
    const [name = '', value = ''] = user.cookie.split('=');
    await context.addCookies([{ name, value, url: base }]);
    const page = await context.newPage();
    const found = problems(page);

    await visit(page, `/w/${ws}`, 'Kettle Co.');
    await visit(page, `/w/${ws}/assistants`, 'Assistants');
    await visit(page, `/w/${ws}/assistants/${asst}`, 'Edit Kettle helper');
    await visit(page, `/w/${ws}/assistants/${asst}/knowledge`, 'Knowledge of Kettle helper');
    await visit(page, `/w/${ws}/assistants/${asst}/chat`, 'Chat with Kettle helper');
    await visit(page, `/w/${ws}/assistants/${asst}/widget`, 'Website widget of Kettle helper');
    await visit(page, `/w/${ws}/members`, 'Members');
    await visit(page, `/w/${ws}/api-keys`, 'API keys');
    await visit(page, `/w/${ws}/webhooks`, 'Webhooks');
    await visit(page, '/account', 'Account settings');
    expect(found).toEqual([]);
  });
});
