import type { Browser } from 'playwright-core';
import type { TestApp } from '../support/harness.ts';
import { createWorld, type World } from '../support/world.ts';
import { hasChromium, launchBrowser, type Site, startApp, startSite, widgetAssistant } from './helpers.ts';

/**
 * Shared by the widget's browser tests (widget.browser.test.ts, widget-availability.browser.test.ts):
 * the real server with the offline responder, an assistant whose answers include a hostile one, the
 * customer's page and Chromium.
 */
export const HOSTILE =
  'Here it is: <img src=x onerror="window.pwned=1"> <script>window.pwned=2</script> ' +
  '[click me](javascript:window.pwned=3) and <a href="javascript:window.pwned=4">this</a>, ' +
  'see **the docs** at [our site](https://example.com/docs) or https://example.com/help.';

export type WidgetPage = { t: TestApp; w: World; site: Site; browser: Browser; asst: string };

export async function startWidgetPage(): Promise<WidgetPage> {
  const started = await startApp({ WIDGET_RATE_LIMIT_PER_MINUTE: '10000' });
  const t = started.t;
  const w = await createWorld(t);
  const asst = await widgetAssistant(
    t,
    w.owner,
    w.ws,
    [
      { question: 'How long do refunds take?', answer: 'Refunds reach your card within 5 business days.' },
      { question: 'What is the secret test phrase?', answer: HOSTILE },
    ],
    {
      primaryColor: '#0e7490',
      position: 'bottom-right',
      welcomeMessage: 'Hi! I am the **Kettle helper**. Ask me anything.',
      leadFormEnabled: true,
      leadFormFields: ['name', 'email', 'company'],
      leadFormRequiredFields: ['email'],
    },
  );
  const site = await startSite(started.base);
  const browser = await launchBrowser();
  return { t, w, site, browser, asst };
}

export async function stopWidgetPage(p: Partial<WidgetPage>) {
  await p.browser?.close();
  await p.site?.close();
  await p.t?.close();
}

export { hasChromium };

if (!hasChromium) {
  console.warn(
    'Browser tests skipped: /usr/bin/chromium is missing (CI installs it; apt-get install -y chromium).',
  );
}
