import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signupUser, type TestUser } from '../support/factories.ts';
import type { TestApp } from '../support/harness.ts';
import { startDashboard } from './dashboard-helpers.ts';
import { hasChromium, pageErrors } from './helpers.ts';

/**
 * `?next=` on the sign-in and sign-up pages (docs/dashboard.md "Team, API keys and account"; the rule is
 * src/lib/next-path.ts): a real sign-in or sign-up in Chromium, then where the browser lands.
 * A `next` that is not a path of this app lands on the default page (`/workspaces/new` for a user
 * without a workspace, both after signing in and after signing up); a good one lands on itself.
 * Any request to evil.example is answered here with a page of its own, so a redirect there shows
 * as that host in the address bar rather than as a DNS failure. One server, one browser and one
 * page for all; its cookies are cleared before each vector.
 */

if (!hasChromium) console.warn('Dashboard next= browser tests skipped: /usr/bin/chromium is missing.');

/** The query text after `?next=`, as an attacker writes it in a link. */
const HOSTILE = [
  '/%09/evil.example/x',
  '/%0d/evil.example/x',
  '/%0a/evil.example/x',
  '/%5C/evil.example',
  '/\\evil.example',
  '//evil.example',
  '%2F%2Fevil.example',
  '/%2F/evil.example',
  'https://evil.example',
  'javascript:alert(1)',
];
const DEFAULT = '/workspaces/new';
const AUTH_HEADING = /^(Sign in to Parley|Create your Parley account)$/;
const GOOD = '/account?x=1#y';

let t: TestApp;
let base: string;
let browser: Browser;
let member: TestUser;
let made = 0;
/** One page for every vector: its cache keeps the dashboard's assets, so each load is quick. */
let page: Page;
let errors: string[];
const dialogs: string[] = [];

beforeAll(async () => {
  if (!hasChromium) return;
  // Two dozen sign-ins from one address within the minute: above the default limit of 30 is safe.
  ({ t, base, browser } = await startDashboard({ AUTH_RATE_LIMIT_PER_MINUTE: '1000' }));
  member = await signupUser(t, { name: 'Nell Next', email: 'nell@next.example' });
  const context = await browser.newContext();
  await context.route(
    (url) => url.hostname === 'evil.example',
    (route) => route.fulfill({ contentType: 'text/html', body: '<h1>Evil</h1>' }),
  );
  page = await context.newPage();
  errors = pageErrors(page);
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

/** Fills and submits the page's form: sign in as `member`, or sign up as someone new. */
async function submit(mode: 'signin' | 'signup') {
  if (mode === 'signup') {
    made += 1;
    await page.getByLabel('Name').fill(`Newcomer ${made}`);
    await page.getByLabel('Email').fill(`newcomer${made}@next.example`);
    await page.getByLabel('Password').fill('a long enough password');
  } else {
    await page.getByLabel('Email').fill(member.email);
    await page.getByLabel('Password').fill(member.password);
  }
  await page.getByRole('button', { name: mode === 'signin' ? 'Sign in' : 'Sign up' }).click();
}

/**
 * Signed out (no cookie), opens `/{mode}?next={query}`, submits, and returns the address the
 * browser settles on: another host, or a page of the app other than the sign-in and sign-up pages
 * and `/` (on its way to the default page), with its heading shown. Dialogs (a `javascript:` that
 * ran) and uncaught errors since the load are returned too.
 */
async function landing(mode: 'signin' | 'signup', query: string) {
  await page.context().clearCookies();
  dialogs.length = 0;
  errors.length = 0;
  await page.goto(`${base}/${mode}?next=${query}`);
  await page.getByRole('heading', { level: 1, name: AUTH_HEADING }).waitFor();
  await submit(mode);
  await page.waitForURL((u) => u.origin !== base || !['/', '/signin', '/signup'].includes(u.pathname), {
    waitUntil: 'commit',
  });
  // The URL may change before React draws the new page: wait for a heading other than the form's.
  const shown = page.getByRole('heading', { level: 1 }).filter({ hasNotText: AUTH_HEADING }).first();
  await shown.waitFor();
  return { url: new URL(page.url()), heading: await shown.textContent(), dialogs, errors };
}

describe.skipIf(!hasChromium)('?next= after signing in and up', { timeout: 120_000 }, () => {
  describe.each(['signin', 'signup'] as const)('on /%s', (mode) => {
    it.each(HOSTILE)('next=%s lands on the default page', async (query) => {
      const at = await landing(mode, query);
      expect(at.url.origin).toBe(base);
      expect(at.url.pathname).toBe(DEFAULT);
      expect(at.heading).toBe('Create a workspace');
      expect(at.dialogs).toEqual([]);
      expect(at.errors).toEqual([]);
    });

    it(`next=${GOOD} lands there, query and fragment kept`, async () => {
      const at = await landing(mode, encodeURIComponent(GOOD));
      expect(at.url.href).toBe(`${base}${GOOD}`);
      expect(at.heading).toBe('Account settings');
      expect(at.errors).toEqual([]);
    });
  });
});
