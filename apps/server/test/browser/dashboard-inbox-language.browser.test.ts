import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/harness.ts';
import { createWorld, type World } from '../support/world.ts';
import { initWidget, widgetAssistant, widgetChat } from '../widget/helpers.ts';
import { checkPage, startDashboard } from './dashboard-helpers.ts';
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
});
