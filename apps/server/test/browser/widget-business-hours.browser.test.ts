import { WEEKDAYS } from '@parley/contract/business-hours';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setHours } from '../business-hours/helpers.ts';
import { axeViolations } from './dashboard-helpers.ts';
import { pageErrors, shot, widget } from './helpers.ts';
import { hasChromium, startWidgetPage, stopWidgetPage, type WidgetPage } from './widget-setup.ts';

/**
 * The widget outside business hours (docs/business-hours.md "Widget"; docs/widget-script.md "What
 * the visitor sees"): the open panel says the team is away and until when, in the visitor's
 * language; inside hours, or without any, it says nothing of it.
 */
let env: Partial<WidgetPage> = {};
beforeAll(async () => {
  if (!hasChromium) return;
  env = await startWidgetPage();
}, 120_000);
afterAll(() => stopWidgetPage(env));

const closed = () =>
  Object.fromEntries(WEEKDAYS.map((d) => [d, [] as Array<{ open: string; close: string }>]));

describe.skipIf(!hasChromium)('the widget outside business hours', { timeout: 90_000 }, () => {
  it('says the team is away and until when; nothing when always open', async () => {
    const { t, w, site, browser, asst } = env as WidgetPage;
    // Open only two days from now (UTC), so closed now with a next opening ahead.
    const later = new Date(Date.now() + 2 * 86_400_000);
    const day = WEEKDAYS[(later.getUTCDay() + 6) % 7]!;
    await setHours(t, w.owner, w.ws, {
      timezone: 'UTC',
      week: { ...closed(), [day]: [{ open: '09:00', close: '17:00' }] },
      outsideHoursMessage: 'We are away.',
    });
    const context = await browser.newContext({ locale: 'en-US', timezoneId: 'UTC' });
    const page = await context.newPage();
    const errors = pageErrors(page);
    const ui = widget(page);
    await page.goto(site.url(asst));
    await ui.launcher.click();
    await ui.panel.waitFor();
    const weekday = new Intl.DateTimeFormat('en-US', { weekday: 'long', timeZone: 'UTC' }).format(later);
    await ui.panel
      .getByText(`Our team is away until ${weekday} 9:00 AM. The assistant can help you now.`)
      .waitFor();
    await shot(page, 'widget-away');
    expect(await axeViolations(page)).toEqual([]);

    // A week without any opening: away, with no "until".
    await setHours(t, w.owner, w.ws, {
      timezone: 'UTC',
      week: closed(),
      outsideHoursMessage: 'We are away.',
    });
    await page.reload();
    await ui.panel.waitFor();
    await ui.panel.getByText('Our team is away. The assistant can help you now.').waitFor();

    // Always open again: nothing said.
    await setHours(t, w.owner, w.ws, null);
    await page.reload();
    await ui.panel.waitFor();
    await ui.log.waitFor();
    expect(await ui.panel.getByText('Our team is away').isVisible()).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  });
});
