import { type ClientRequest, request } from 'node:http';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORIGIN, type TestApp } from '../support/harness.ts';
import { createWorld, type World } from '../support/world.ts';
import {
  answerTo,
  hasChromium,
  launchBrowser,
  pageErrors,
  type Site,
  shot,
  startApp,
  startSite,
  widget,
  widgetAssistant,
} from './helpers.ts';

/**
 * A server too busy to start a chat refuses it with 503 and Retry-After (docs/configuration.md
 * "Overload"); the widget says so in the visitor's language, keeps the message on screen and
 * sends it by itself once the wait is over (docs/chat.md "Busy"). The server is made busy
 * deterministically: one chat whose body is still arriving holds the only starting place
 * (CHAT_MAX_STARTING=1).
 */
let browser: Browser;
let t: TestApp;
let w: World;
let base: string;
let site: Site;
let asst: string;
beforeAll(async () => {
  if (!hasChromium) return;
  browser = await launchBrowser();
  ({ t, base } = await startApp({ CHAT_MAX_STARTING: '1', WIDGET_RATE_LIMIT_PER_MINUTE: '100000' }));
  w = await createWorld(t);
  asst = await widgetAssistant(t, w.owner, w.ws, [
    { question: 'How long do refunds take?', answer: 'Refunds reach your card within 5 business days.' },
  ]);
  site = await startSite(base);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await site?.close();
  await t?.close();
});

/** An internal chat whose body has not all arrived: admitted, and starting until it is ended. */
async function holdStartingPlace(): Promise<ClientRequest> {
  const body = JSON.stringify({ assistantId: asst, content: 'Hello' });
  const held = request(`${base}/api/chat`, {
    method: 'POST',
    headers: {
      ...w.owner.headers,
      origin: ORIGIN,
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
    },
  });
  held.on('error', () => undefined);
  held.on('response', (res) => res.resume());
  held.write(body.slice(0, 5));
  held.flushHeaders();
  for (let i = 0; i < 200 && t.ctx.admission.inFlight === 0; i++) await new Promise((r) => setTimeout(r, 10));
  expect(t.ctx.admission.inFlight).toBe(1);
  return held;
}

describe.skipIf(!hasChromium)('the widget when the server is busy', { timeout: 90_000 }, () => {
  it('says it is busy, keeps the message, and sends it by itself after Retry-After', async () => {
    const context = await browser.newContext({ locale: 'es-ES' });
    const page = await context.newPage();
    const errors = pageErrors(page);
    const statuses: number[] = [];
    page.on('response', (r) => {
      if (r.url().endsWith('/chat') && r.request().method() === 'POST') statuses.push(r.status());
    });
    const ui = widget(page);
    await page.goto(site.url(asst));
    await ui.toggle.click();
    const held = await holdStartingPlace();
    const input = page.getByRole('textbox', { name: 'Tu mensaje' });
    await input.fill('¿Cuánto tardan los reembolsos? How long do refunds take?');
    await input.press('Enter');
    // Refused while the other chat is starting: told in Spanish, the message stays on screen.
    try {
      // The wait is the server's Retry-After (1 s), readable across origins.
      await ui.alert.filter({ hasText: 'Ahora mismo estamos un poco ocupados' }).waitFor();
      expect(await ui.alert.textContent()).toContain('dentro de 1 segundo');
    } finally {
      if (statuses.length === 0) held.destroy();
    }
    expect(statuses).toEqual([503]);
    await shot(page, 'widget-busy');
    // The other chat finishes starting; the widget's message goes by itself and is answered.
    held.end(JSON.stringify({ assistantId: asst, content: 'Hello' }).slice(5));
    await answerTo(page, 'Refunds reach your card within 5 business days.').waitFor({ timeout: 30_000 });
    expect(statuses).toEqual([503, 200]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
