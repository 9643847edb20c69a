import { eq } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { widgetSessions } from '../../src/db/schema/index.ts';
import type { TestApp } from '../support/harness.ts';
import type { World } from '../support/world.ts';
import { answerTo, ask, pageErrors, type Site, shot, widget, widgetAssistant } from './helpers.ts';
import { hasChromium, startWidgetPage, stopWidgetPage, type WidgetPage } from './widget-setup.ts';

/**
 * The widget where it must not work (docs/widget-script.md "Tests"): a website not on the
 * allowlist or a disabled widget gets no widget and the site owner learns why in the console; a
 * visitor in the middle of a chat is told politely. Split from widget.browser.test.ts (one setup,
 * widget-setup.ts).
 */

let t: TestApp;
let w: World;
let site: Site;
let browser: Browser;
let asst: string;
let env: Partial<WidgetPage> = {};

beforeAll(async () => {
  if (!hasChromium) return;
  env = await startWidgetPage();
  ({ t, w, site, browser, asst } = env as WidgetPage);
}, 120_000);

afterAll(() => stopWidgetPage(env));

describe.skipIf(!hasChromium)('the widget where it is not allowed or turned off', { timeout: 90_000 }, () => {
  it('shows nothing on a website outside the allowlist, or when the widget is disabled, and tells the site owner why', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const owner = (needle: string) =>
      page.waitForEvent(
        'console',
        (m) => m.text().startsWith('Parley chat widget:') && m.text().includes(needle),
      );
    // Same page, other origin: `localhost` is not on the list (only 127.0.0.1). The browser refuses
    // the answer (no CORS headers); the server does answer, so the cause is the origin.
    const notAllowed = owner('is not allowed');
    await page.goto(site.url(asst, 'localhost'));
    expect((await notAllowed).text()).toContain('Add "localhost" to the allowed domains');
    expect(await widget(page).host.count()).toBe(0);
    await shot(page, 'widget-disallowed');

    const off = await widgetAssistant(t, w.owner, w.ws, [{ question: 'q?', answer: 'a.' }], {
      isEnabled: false,
    });
    const disabled = owner('is turned off');
    await page.goto(site.url(off));
    expect((await disabled).text()).toContain(`the widget of assistant ${off} is turned off`);
    expect(await widget(page).host.count()).toBe(0);
    const rows = await t.ctx.db.select().from(widgetSessions).where(eq(widgetSessions.assistantId, off));
    expect(rows).toHaveLength(0);
    await context.close();
  });

  it('tells a visitor in the middle of a chat, politely, when the widget is turned off or the website is no longer allowed', async () => {
    const id = await widgetAssistant(t, w.owner, w.ws, [
      { question: 'How long do refunds take?', answer: 'Refunds reach your card within 5 business days.' },
    ]);
    const set = async (payload: Record<string, unknown>) => {
      const res = await t.request({
        method: 'PATCH',
        url: `/api/assistants/${id}/widget`,
        headers: w.owner.headers,
        payload,
      });
      expect(res.statusCode).toBe(200);
    };
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = pageErrors(page);
    const ui = widget(page);
    const owner = (needle: string) =>
      page.waitForEvent(
        'console',
        (m) => m.text().startsWith('Parley chat widget:') && m.text().includes(needle),
      );
    await page.goto(site.url(id));
    await ui.launcher.click();
    await ask(page, 'How long do refunds take?');
    await answerTo(page, 'Refunds reach your card').waitFor();

    // Turned off: on reload the saved conversation's panel says so; the console says what to do.
    await set({ isEnabled: false });
    const off = owner('is turned off');
    await page.reload();
    expect((await off).text()).toContain("Turn it on in the assistant's Widget settings");
    await ui.alert.getByText('Chat is closed right now. Please come back later.').waitFor();
    expect(await ui.alert.textContent()).not.toMatch(/network|offline/i);
    await shot(page, 'widget-turned-off');

    // On again, but this website is no longer on the list: in the middle of the chat, a send is
    // refused by the browser (no CORS headers); the text stays in the box.
    await set({ isEnabled: true });
    await page.reload();
    await ui.input.waitFor();
    await set({ allowedDomains: ['example.com'] });
    const origin = owner('is not allowed');
    await ui.input.fill('Are you still there?');
    await ui.input.press('Enter');
    expect((await origin).text()).toContain('Add "127.0.0.1" to the allowed domains');
    await ui.alert.getByText("Chat isn't available on this website right now.").waitFor();
    expect(await ui.input.inputValue()).toBe('Are you still there?');

    // And on reload, the same line, not "offline".
    const again = owner('is not allowed');
    await page.reload();
    await again;
    await ui.alert.getByText("Chat isn't available on this website right now.").waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
