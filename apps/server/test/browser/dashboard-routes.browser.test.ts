import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAssistant } from '../assistants/helpers.ts';
import { signupUser } from '../support/factories.ts';
import type { TestApp } from '../support/harness.ts';
import { insertWorkspace } from '../support/world.ts';
import { startDashboard } from './dashboard-helpers.ts';
import { hasChromium } from './helpers.ts';

/**
 * Every page of the dashboard's route table (apps/web/src/routes.tsx; docs/dashboard.md "Pages,
 * titles and breadcrumbs"), opened in Chromium: the tab's title is `<Page> · <names> · Parley`
 * and the breadcrumbs lead from the workspace to the page, each crumb a link to its page. The
 * table is read from the source, so a page added there is walked without touching this test.
 */

if (!hasChromium) console.warn('Dashboard route tests skipped: /usr/bin/chromium is missing.');

type Entry = { path: string; title: string; name?: string };

/** The entries of one table in routes.tsx: one `{ path: ..., title: ..., ... }` per line. */
function table(name: 'ROUTES' | 'PUBLIC_ROUTES'): Entry[] {
  const source = readFileSync(new URL('../../../web/src/routes.tsx', import.meta.url), 'utf8');
  const body = source.split(`export const ${name}: PageRoute[] = [`)[1]?.split(/^\];/m)[0] ?? '';
  const lines = body.split('\n').filter((l) => l.includes('path:'));
  const entries = lines.map((line) => {
    const m = /\{ path: '([^']*)', title: '([^']+)', page: \w+(?:, name: '(\w+)')? \},/.exec(line);
    if (!m)
      throw new Error(
        `routes.tsx: an entry of ${name} is not one line of { path, title, page, name? }: ${line}`,
      );
    return { path: m[1] as string, title: m[2] as string, name: m[3] };
  });
  expect(entries.length).toBeGreaterThan(2);
  return entries;
}

/** The rule of routes.tsx `trailOf`, written out again: the entries whose path leads to `e`'s. */
function trail(e: Entry, all: Entry[]): Entry[] {
  const parts = e.path.split('/');
  return all
    .filter((r) => {
      const own = r.path.split('/');
      return (
        r.path !== '' && r.path !== '*' && own.length <= parts.length && own.every((s, i) => s === parts[i])
      );
    })
    .sort((a, b) => a.path.split('/').length - b.path.split('/').length);
}

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

const titleIs = (page: Page, title: string) =>
  page
    .waitForFunction((want) => document.title === want, title, { timeout: 10_000 })
    .catch(async () => {
      throw new Error(`${page.url()}: title "${await page.title()}", expected "${title}"`);
    });

/** The breadcrumbs as shown: each crumb's text and where it leads (null for the current page). */
const crumbsOf = (page: Page) =>
  page.evaluate(() => {
    const nav = document.querySelector('nav[aria-label="Breadcrumb"]');
    if (!nav) return null;
    return [...nav.querySelectorAll('li')].map((li) => ({
      text: li.textContent?.trim() ?? '',
      href: li.querySelector('a')?.getAttribute('href') ?? null,
    }));
  });

describe.skipIf(!hasChromium)('titles and breadcrumbs of every route', { timeout: 120_000 }, () => {
  it('signed in: each page of the table has its title and breadcrumbs', async () => {
    const user = await signupUser(t, { name: 'Ada Lovelace' });
    const ws = await insertWorkspace(t, user, { name: 'Acme' });
    const asst = await createAssistant(t, user, ws, { name: 'Kettle helper' });
    const hookUrl = 'https://93.184.215.14/hooks/parley';
    const hook = await t.request({
      method: 'POST',
      url: `/api/workspaces/${ws}/webhooks`,
      headers: user.headers,
      payload: { url: hookUrl, events: ['*'] },
    });
    expect(hook.statusCode).toBe(201);
    // What each path parameter stands for, and the name its page shows; a parameter not listed
    // here gets a value that names nothing, and its crumb shows the entry's title.
    const samples: Record<string, { value: string; name?: string }> = {
      ':ws': { value: ws, name: 'Acme' },
      'assistants/:id': { value: asst, name: 'Kettle helper' },
      'webhooks/:id': { value: hook.json().data.id, name: hookUrl },
    };
    const sampleValue = (parts: string[], i: number) => {
      const p = parts[i] as string;
      const sample = samples[p] ?? samples[`${parts[i - 1]}/${p}`];
      return sample?.value ?? 'zz_none';
    };
    const nameOf = (e: Entry) => {
      const parts = e.path.split('/');
      const last = parts.length - 1;
      return (samples[parts[last] as string] ?? samples[`${parts[last - 1]}/${parts[last]}`])?.name;
    };
    const urlOf = (path: string) => {
      if (path === '*') return '/no/such/page';
      const parts = path.split('/');
      return `/${parts.map((p, i) => (p.startsWith(':') ? sampleValue(parts, i) : p)).join('/')}`;
    };

    const context = await browser.newContext();
    const [cookieName = '', cookieValue = ''] = user.cookie.split('=');
    await context.addCookies([{ name: cookieName, value: cookieValue, url: base }]);
    const page = await context.newPage();
    const all = table('ROUTES');
    const walked: string[] = [];
    for (const e of all) {
      // `/`, `/signin` and `/signup` lead a signed-in user on to the workspace.
      if (e.path === '' || e.path === 'signin' || e.path === 'signup') {
        await page.goto(`${base}${urlOf(e.path)}`);
        await page.waitForURL(`${base}/w/${ws}`);
        await titleIs(page, 'Overview · Acme · Parley');
        continue;
      }
      const on = trail(e, all);
      // A name the walk has no sample for is not known to the page either: left out.
      const names = on
        .filter((r) => r.name)
        .map(nameOf)
        .filter((n): n is string => Boolean(n));
      const title = [e.title, ...names.reverse(), 'Parley'].join(' · ');
      await page.goto(`${base}${urlOf(e.path)}`);
      await titleIs(page, title);
      walked.push(`${e.path} → ${title}`);
      if (!e.path.startsWith('w/:ws')) {
        expect(await crumbsOf(page), e.path).toBeNull();
        continue;
      }
      const want = on.map((r) => ({
        text: (r.name && nameOf(r)) || r.title,
        href: r === e ? null : urlOf(r.path),
      }));
      await page.waitForFunction(
        (n) => document.querySelectorAll('nav[aria-label="Breadcrumb"] li').length === n,
        want.length,
      );
      await expect.poll(() => crumbsOf(page), { message: e.path }).toEqual(want);
      expect(await page.locator('nav[aria-label="Breadcrumb"] [aria-current="page"]').count()).toBe(1);
    }
    // The walk covered the table; and a few written out, as a reader would check them.
    expect(walked.length).toBe(all.length - 3);
    expect(walked).toContain('w/:ws/assistants/:id/knowledge → Knowledge · Kettle helper · Acme · Parley');
    expect(walked).toContain('w/:ws/members → Members · Acme · Parley');
    expect(walked).toContain('account → Account settings · Parley');
    await page.goto(`${base}/w/${ws}/assistants/${asst}/knowledge`);
    await expect
      .poll(async () => (await crumbsOf(page))?.map((c) => c.text).join(' › '))
      .toBe('Acme › Assistants › Kettle helper › Knowledge');
    // A crumb leads to its page.
    await page
      .getByRole('navigation', { name: 'Breadcrumb' })
      .getByRole('link', { name: 'Assistants' })
      .click();
    await page.waitForURL(`${base}/w/${ws}/assistants`);
    await titleIs(page, 'Assistants · Acme · Parley');
    await context.close();
  });

  it('signed out: each page of the table has its title, and no breadcrumbs', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    for (const e of table('PUBLIC_ROUTES')) {
      const url = e.path === '*' ? '/w/somewhere/assistants' : `/${e.path.replace(/:\w+/g, 'zz_none')}`;
      await page.goto(`${base}${url}`);
      await titleIs(page, `${e.title} · Parley`);
      expect(await crumbsOf(page)).toBeNull();
    }
    await page.goto(`${base}/`);
    await titleIs(page, 'Sign in · Parley');
    await context.close();
  });
});
