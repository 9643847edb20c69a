import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import type { TestUser } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { freePort } from '../support/pg-cluster.ts';
import { launchBrowser, shot, startApp } from './helpers.ts';

/** Shared steps of the dashboard's browser tests (docs/dashboard.md). */

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

type AxeViolation = { id: string; impact: string | null; help: string; nodes: Array<{ target: unknown }> };

/** axe-core's serious and critical violations on the page as it is now (empty = pass). */
export async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: AXE });
  const violations = (await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(o: unknown): Promise<{ violations: unknown[] }> } }).axe;
    return (await axe.run({ resultTypes: ['violations'] })).violations;
  })) as AxeViolation[];
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${JSON.stringify(v.nodes.map((n) => n.target))}`);
}

/**
 * A main page in both themes (the user's preference is `system`, so the emulated colour scheme
 * decides): a screenshot of each into test-results/ and no serious or critical axe violation.
 */
export async function checkPage(page: Page, name: string): Promise<string[]> {
  const found: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.waitForFunction((s) => document.documentElement.dataset.theme === s, scheme);
    await shot(page, `dashboard-${name}-${scheme}`);
    found.push(...(await axeViolations(page)).map((v) => `${name} ${scheme}: ${v}`));
  }
  await page.emulateMedia({ colorScheme: 'light' });
  return found;
}

/** Opens the menu under the user's name (a <details>). */
export async function openMenu(page: Page, userName: string) {
  const menu = page.locator('details.menu');
  if (!(await menu.evaluate((el) => (el as HTMLDetailsElement).open))) {
    await page.getByText(userName, { exact: true }).click();
  }
  return menu;
}

/** True when nothing on the page is wider than the viewport (responsive down to a phone). */
export const fitsWidth = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

/** Builds the dashboard when dist/ is missing (a checkout that skipped `npm install`'s step). */
export async function ensureDashboardBuilt(): Promise<void> {
  const web = (await import(new URL('../../../web/build.mjs', import.meta.url).href)) as {
    ensureWebBuilt(): Promise<void>;
  };
  await web.ensureWebBuilt();
}

/** The dashboard's tests' start: the dashboard built, the app on a real port, Chromium open. */
export async function startDashboard(
  env: Record<string, string> = {},
): Promise<{ t: TestApp; base: string; browser: Browser }> {
  await ensureDashboardBuilt();
  const { t, base } = await startApp(env);
  return { t, base, browser: await launchBrowser() };
}

/**
 * The address the app will listen on, known before it starts: an identity provider is told where
 * to send the browser back before the app exists (the single sign-on tests).
 */
export async function reserveAddress(): Promise<{ port: number; base: string }> {
  const port = await freePort();
  return { port, base: `http://127.0.0.1:${port}` };
}

/**
 * The dashboard's start on a reserved address: the app's public address (PUBLIC_BASE_URL) is where
 * the browser reaches it, and the test's own requests come from there too, as the dashboard's do
 * (the harness's default origin is not this app's).
 */
export async function startDashboardAt(
  address: { port: number; base: string },
  env: Record<string, string> = {},
): Promise<{ t: TestApp; browser: Browser }> {
  await ensureDashboardBuilt();
  const t = await createTestApp({ PUBLIC_BASE_URL: address.base, ...env });
  await t.app.listen({ port: address.port, host: '127.0.0.1' });
  const inject = t.request;
  t.request = (opts) => inject({ ...opts, headers: { origin: address.base, ...(opts.headers ?? {}) } });
  return { t, browser: await launchBrowser() };
}

/** Sets a user's dashboard language through the API (`PATCH /api/account`; null: the browser's). */
export const accountLanguage = (t: TestApp, user: TestUser) => (value: string | null) =>
  t.request({ method: 'PATCH', url: '/api/account', headers: user.headers, payload: { language: value } });
