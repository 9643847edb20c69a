import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inbound, type Line, statusCallback } from '../sms/helpers.ts';
import { signupUser } from '../support/factories.ts';
import type { TestApp } from '../support/harness.ts';
import { type LlmServer, startLlmServer } from '../support/llm-server.ts';
import { newAccountSid, newAuthToken, type SmsProvider, startSmsProvider } from '../support/sms-provider.ts';
import { addMember, setPlan } from '../support/world.ts';
import { checkPage, fitsWidth, startDashboard } from './dashboard-helpers.ts';
import { hasChromium, pageErrors, shot } from './helpers.ts';

/**
 * The SMS page of an assistant (docs/dashboard.md "SMS") in Chromium against the real server, its
 * SMS workers, the provider's REST API stand-in (support/sms-provider.ts, SMS_PROVIDER_API_BASE)
 * and an instant model stand-in: a Free workspace is told to upgrade; on Pro, a wrong form is
 * refused in words before any request; a number the account does not hold, by Test and Save, in
 * words; saved, the token never shown; Test with the saved token and a wrong one; the session
 * timeout (Form B) saved with the token; the webhook URL copied; an inbound SMS signed with the
 * provider's library shows up as a session and in the chart; a member is offered nothing; disconnect.
 * Then the page in the account's language (Spanish).
 */

if (!hasChromium) console.warn('Dashboard SMS browser tests skipped: /usr/bin/chromium is missing.');

let t: TestApp;
let base: string;
let browser: Browser;
let provider: SmsProvider;
let llm: LlmServer;
/** The first test's workspace, its owner's cookie, and the SMS line it connected. */
let ws: string;
let cookie: string;
let line: Line;

beforeAll(async () => {
  if (!hasChromium) return;
  provider = await startSmsProvider();
  llm = await startLlmServer({ instant: true });
  ({ t, base, browser } = await startDashboard({
    SMS_PROVIDER_API_BASE: provider.url,
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    AI_PROVIDER: 'openai',
    AI_BASE_URL: `${llm.url}/v1`,
    AI_MODEL: 'stand-in',
  }));
  t.startJobs(['sms-inbound', 'sms-send'], { 'sms-inbound': 50, 'sms-send': 50 });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
  await provider?.close();
  await llm?.close();
});

const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name });

/** The SMS API's answers of 400 or more on `page` (a page that knows better sends no doomed request). */
function refusals(page: Page): string[] {
  const found: string[] = [];
  page.on('response', (r) => {
    if (r.status() >= 400 && new URL(r.url()).pathname.includes('/sms'))
      found.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`);
  });
  return found;
}

const OWNER = { name: 'Sam Owner', email: 'sam@kettle.example', password: 'correct horse battery staple' };

describe.skipIf(!hasChromium)('the SMS page', { timeout: 180_000 }, () => {
  it('upgrade in words on Free; on Pro: validate, save, test, webhook URL, an inbound SMS as a session and in the chart; a member sees nothing', async () => {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      colorScheme: 'light',
    });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    const page = await context.newPage();
    const errors = pageErrors(page);
    const refused = refusals(page);

    // Sign up, a workspace (Free), an assistant.
    await page.goto(`${base}/signup`);
    await page.getByLabel('Name').fill(OWNER.name);
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await heading(page, 'Create a workspace').waitFor();
    await page.getByLabel('Workspace name').fill('Kettle Co.');
    await page.getByRole('button', { name: 'Create workspace' }).click();
    await heading(page, 'Kettle Co.').waitFor();
    ws = /\/w\/([^/]+)$/.exec(page.url())?.[1] ?? '';
    expect(ws).toMatch(/^ws_/);
    await page.goto(`${base}/w/${ws}/assistants/new`);
    await page.getByLabel('Name', { exact: true }).fill('Kettle helper');
    await page.getByRole('button', { name: 'Create assistant' }).click();
    await heading(page, 'Knowledge of Kettle helper').waitFor();
    const assistantId = /\/assistants\/([^/]+)\/knowledge$/.exec(page.url())?.[1] ?? '';
    expect(assistantId).not.toBe('');

    // Free (a new workspace is on a Pro trial; this one's has ended): the tab is there for the
    // owner; the page says what to do, and asks the API nothing.
    await setPlan(t, ws, 'free');
    await page.reload();
    await heading(page, 'Knowledge of Kettle helper').waitFor();
    await page.getByRole('navigation', { name: 'Assistant' }).getByRole('link', { name: 'SMS' }).click();
    await heading(page, 'SMS for Kettle helper').waitFor();
    await page.getByRole('heading', { name: 'SMS needs the Pro or Enterprise plan' }).waitFor();
    expect(await page.locator('.sms-upgrade').textContent()).toContain(
      'This workspace is on the Free plan, which does not include channels.',
    );
    expect(await page.getByLabel('Account SID', { exact: true }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Upgrade on the Billing page' }).getAttribute('href')).toBe(
      `/w/${ws}/billing`,
    );
    await expect.poll(() => page.title()).toBe('SMS · Kettle helper · Kettle Co. · Parley');
    expect(
      await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('listitem').allTextContents(),
    ).toEqual(['Kettle Co.', 'Assistants', 'Kettle helper', 'SMS']);

    // Pro: the form.
    await setPlan(t, ws, 'pro');
    await page.reload();
    const form = page.getByRole('form', { name: 'Connect an SMS number' });
    await form.waitFor();
    const sid = newAccountSid();
    const token = newAuthToken();
    const number = '+15550102000';
    // The account also holds the number another assistant takes below (a save proves the number).
    const taken = '+15550103000';
    provider.addAccount(sid, token, { [number]: { voice: false }, [taken]: {} });
    line = { assistantId, accountSid: sid, token, number };

    // Wrong forms, said in words at each field before any request.
    await form.getByLabel('Account SID', { exact: true }).fill('AC123');
    await form.getByLabel('Auth token', { exact: true }).fill('short');
    await form.getByLabel('Phone number', { exact: true }).fill('555 010 2000');
    await form.getByRole('button', { name: 'Connect number' }).click();
    await form
      .getByText(
        'The account SID is AC followed by 32 letters or digits (34 characters in all); this one has 5.',
      )
      .waitFor();
    await form.getByText('The auth token has at least 32 characters; this one has 5.').waitFor();
    await form
      .getByText('The phone number must start with + and the country code, such as +15550102000 (E.164).')
      .waitFor();
    expect(await form.getByLabel('Phone number', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await form.getByLabel('Phone number', { exact: true }).fill('+1555');
    await form.getByRole('button', { name: 'Connect number' }).click();
    await form.getByText(/^The phone number must be in international \(E\.164\) form/).waitFor();
    // The only refusal: "no configuration yet", one 404 of Form A's GET.
    const none = `404 GET /api/assistants/${assistantId}/sms`;
    expect(refused).toEqual([none]);

    // A number the account does not hold: Test and Save say so in words; nothing is saved.
    await form.getByLabel('Account SID', { exact: true }).fill(sid);
    await form.getByLabel('Auth token', { exact: true }).fill(token);
    await form.getByLabel('Phone number', { exact: true }).fill('+15550104000');
    await form.getByRole('button', { name: 'Test', exact: true }).click();
    await form.getByText(/^Not valid\. This number is not in the provider account\./).waitFor();
    await form.getByRole('button', { name: 'Connect number' }).click();
    await form.getByText(`Not a number of the provider account ${sid}`).waitFor();
    await form
      .getByText(
        `The provider account ${sid} does not hold +15550104000: only a number of the account can be connected; nothing was saved`,
      )
      .waitFor();
    // The form reads the configuration again after a failed save (still none: a second 404).
    const unproven = [`400 POST /api/assistants/${assistantId}/sms`, none];
    await expect.poll(() => refused).toEqual([none, ...unproven]);

    // Save: typed with spaces, stored in E.164; the token field empties and says "Saved".
    await form.getByLabel('Phone number', { exact: true }).fill('+1 555 010 2000');
    await form.getByLabel(/^Longest reply/).fill('320');
    await form.getByRole('button', { name: 'Connect number' }).click();
    const settings = page.getByRole('form', { name: 'Provider account and number' });
    await settings.waitFor();
    expect(await settings.getByLabel('Auth token', { exact: true }).inputValue()).toBe('');
    await settings.locator('.badge', { hasText: 'Saved' }).waitFor();
    expect(await settings.getByLabel('Phone number', { exact: true }).inputValue()).toBe(number);
    expect(await settings.getByLabel(/^Longest reply/).inputValue()).toBe('320');
    expect(await page.content()).not.toContain(token);
    cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    const stored = await t.request({ url: `/api/assistants/${assistantId}/sms`, headers: { cookie } });
    expect(stored.statusCode).toBe(200);
    expect(stored.json().data).toMatchObject({
      providerAccountSid: sid,
      providerPhoneNumber: number,
      maxMessageLength: 320,
      isEnabled: true,
    });

    // The webhook URL, copied.
    const webhookUrl = `http://parley.test/api/sms/webhook/${assistantId}`;
    const webhook = page.getByRole('region', { name: 'Webhook URL' });
    expect(await webhook.getByLabel('Webhook URL').inputValue()).toBe(webhookUrl);
    await webhook.getByRole('button', { name: 'Copy webhook URL' }).click();
    await webhook.getByText('Copied').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(webhookUrl);

    // Test: with the token field empty, the saved token; then a wrong one typed.
    await settings.getByRole('button', { name: 'Test', exact: true }).click();
    await settings
      .getByText(
        `Valid: the provider account holds ${number}. It can receive and send: SMS yes, MMS yes, voice no.`,
      )
      .waitFor();
    await settings.getByLabel('Auth token', { exact: true }).fill(newAuthToken());
    await settings.getByRole('button', { name: 'Test', exact: true }).click();
    await settings.getByText(/^Not valid\. The provider rejected these credentials\./).waitFor();

    // The session timeout is Form B's: saved with the token, which is asked for when missing.
    await settings.getByLabel('Auth token', { exact: true }).fill('');
    await settings.getByLabel(/^End a session after/).fill('45');
    await settings.getByRole('button', { name: 'Save SMS settings' }).click();
    await settings.getByText(/^Enter the auth token again to change the session timeout/).waitFor();
    await settings.getByLabel('Auth token', { exact: true }).fill(token);
    await settings.getByRole('button', { name: 'Save SMS settings' }).click();
    await expect.poll(() => settings.getByLabel('Auth token', { exact: true }).inputValue()).toBe('');
    await settings
      .getByRole('status')
      .filter({ hasText: /^Saved$/ })
      .waitFor();
    expect(await settings.getByLabel(/^End a session after/).inputValue()).toBe('45');

    // A customer texts the number: the provider posts to the webhook URL, signed for that URL.
    const customer = '+15550109999';
    const res = await inbound(t, line, customer, 'Do you sell kettles?');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<Response/>');
    await provider.waitForSent(1);
    expect(provider.sent[0]).toMatchObject({ to: customer, from: number });

    // The session, most recent first, linked to its conversation in the inbox.
    const sessions = page.getByRole('region', { name: /^Sessions/ });
    await sessions.getByRole('button', { name: 'Refresh' }).click();
    const session = sessions.getByRole('listitem', { name: `Session with ${customer}` });
    await session.waitFor();
    expect(await session.textContent()).toContain('Active');
    await sessions.getByRole('heading', { name: 'Sessions (1)' }).waitFor();
    expect(
      await session.getByRole('link', { name: 'Open the conversation in the inbox' }).getAttribute('href'),
    ).toMatch(new RegExp(`^/w/${ws}/inbox/`));

    // In the inbox the AI's reply says how its SMS fared, and in words when the provider could
    // not deliver it (the status callback, signed for its own URL).
    const href = await session
      .getByRole('link', { name: 'Open the conversation in the inbox' })
      .getAttribute('href');
    const inboxPage = await context.newPage();
    await inboxPage.goto(`${base}${href}`);
    const reply = inboxPage.locator('li.msg[data-role="assistant"]');
    await reply.locator('.delivery').waitFor();
    const status = await statusCallback(t, line, provider.sent[0]!.sid, 'undelivered', '30003');
    expect(status.statusCode).toBe(200);
    await inboxPage.reload();
    await reply.getByText('SMS not delivered (provider error 30003)').waitFor();
    await inboxPage.close();

    // The chart: 7 days, received 1 and sent 1 today (once the reply is stored as sent).
    await expect
      .poll(
        async () =>
          (
            await t.request({
              method: 'GET',
              url: `/api/workspaces/${ws}/assistants/${assistantId}/sms/analytics?period=7d`,
              headers: { cookie },
            })
          ).json().data.totalMessages,
        { timeout: 15_000 },
      )
      .toBe(2);
    const stats = page.getByRole('region', { name: 'Messages' });
    await stats.getByLabel('7 days').check();
    const totals = stats.locator('dd');
    await expect.poll(() => totals.allTextContents()).toEqual(['2', '1', '1', '1', '1']);
    await stats.locator('.recharts-bar-rectangle path').first().waitFor();
    expect(await stats.locator('.recharts-bar-rectangle path').count()).toBe(2);
    expect(await stats.locator('figcaption').textContent()).toMatch(
      /^Messages per day over the last 7 days; the busiest day was \w+ \d+ with 2\.$/,
    );
    await shot(page, 'dashboard-sms');
    expect(await checkPage(page, 'sms')).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    // The chart follows its container through a ResizeObserver: a frame or two after the resize.
    await expect.poll(() => fitsWidth(page)).toBe(true);
    await page.setViewportSize({ width: 1280, height: 900 });

    // A number another assistant holds: the API's 409, said at the field and above the button.
    const other = await t.request({
      method: 'POST',
      url: '/api/assistants',
      headers: { cookie },
      payload: { workspaceId: ws, name: 'Teapot helper' },
    });
    const otherSms = await t.request({
      method: 'POST',
      url: `/api/assistants/${other.json().data.id}/sms`,
      headers: { cookie },
      payload: { providerAccountSid: sid, providerAuthToken: token, providerPhoneNumber: taken },
    });
    expect(otherSms.statusCode).toBe(201);
    await settings.getByLabel('Phone number', { exact: true }).fill(taken);
    await settings.getByRole('button', { name: 'Save SMS settings' }).click();
    await settings.getByText('Another assistant already uses this number.').waitFor();
    await settings
      .getByText(
        'This phone number is already connected to another assistant. Disconnect it there first, or use another number.',
      )
      .waitFor();
    await settings.getByLabel('Phone number', { exact: true }).fill(number);
    await settings.getByRole('button', { name: 'Save SMS settings' }).click();
    await settings
      .getByRole('status')
      .filter({ hasText: /^Saved$/ })
      .waitFor();
    expect(refused).toEqual([none, ...unproven, `409 PATCH /api/assistants/${assistantId}/sms`]);

    // A member: no SMS tab, and the page says who manages it, without asking the API.
    const member = await signupUser(t, { name: 'Mo Member' });
    await addMember(t, ws, member, 'member');
    const memberContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await memberContext.addCookies([
      { name: 'parley.session-token', value: member.cookie.slice(member.cookie.indexOf('=') + 1), url: base },
    ]);
    const memberPage = await memberContext.newPage();
    const memberRefused = refusals(memberPage);
    await memberPage.goto(`${base}/w/${ws}/assistants/${assistantId}/sms`);
    await heading(memberPage, 'SMS for Kettle helper').waitFor();
    await memberPage
      .getByText(/^Only owners and admins of this workspace can see and change the SMS channel/)
      .waitFor();
    expect(
      await memberPage
        .getByRole('navigation', { name: 'Assistant' })
        .getByRole('link', { name: 'SMS' })
        .count(),
    ).toBe(0);
    expect(await memberPage.getByLabel('Account SID', { exact: true }).count()).toBe(0);
    expect(memberRefused).toEqual([]);
    await memberContext.close();

    // Disconnect, after the question in place: the form for a new number again.
    await page.getByRole('button', { name: 'Disconnect SMS' }).click();
    await page.getByRole('button', { name: 'Disconnect', exact: true }).click();
    await page.getByRole('form', { name: 'Connect an SMS number' }).waitFor();
    expect(
      await page
        .getByRole('form', { name: 'Connect an SMS number' })
        .getByLabel('Account SID', { exact: true })
        .inputValue(),
    ).toBe('');
    expect(refused).toEqual([none, ...unproven, `409 PATCH /api/assistants/${assistantId}/sms`]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('in the account language (Spanish): the form, the session and the chart', async () => {
    // Connected again: the first test's session and messages are still the assistant's.
    const again = await t.request({
      method: 'POST',
      url: `/api/assistants/${line.assistantId}/sms`,
      headers: { cookie },
      payload: {
        providerAccountSid: line.accountSid,
        providerAuthToken: line.token,
        providerPhoneNumber: line.number,
      },
    });
    expect(again.statusCode).toBe(201);
    const account = { method: 'PATCH', url: '/api/account', headers: { cookie } } as const;
    expect((await t.request({ ...account, payload: { language: 'es' } })).statusCode).toBe(200);
    const context = await browser.newContext({ colorScheme: 'light' });
    const value = cookie.slice(cookie.indexOf('parley.session-token=') + 21).split(';')[0] ?? '';
    await context.addCookies([{ name: 'parley.session-token', value, url: base }]);
    const page = await context.newPage();
    const errors = pageErrors(page);
    await page.goto(`${base}/w/${ws}/assistants/${line.assistantId}/sms`);
    await heading(page, 'SMS de Kettle helper').waitFor();
    const settings = page.getByRole('form', { name: 'Cuenta del proveedor y número' });
    await settings.getByLabel('Respuesta más larga, en caracteres (de 50 a 1600)').waitFor();
    const session = page.getByRole('listitem', { name: 'Sesión con +15550109999' });
    expect(await session.textContent()).toMatch(/Activa\d+ mensajes? · empezó el \d{1,2} \p{L}+\.? \d{4}/u);
    const stats = page.getByRole('region', { name: 'Mensajes' });
    await stats.getByLabel('7 días').check();
    await expect
      .poll(() => stats.locator('figcaption').textContent())
      .toMatch(/^Mensajes por día en los últimos 7 días; el día con más fue el \d{1,2} \p{L}+\.?, con 2\.$/u);
    expect(await checkPage(page, 'sms-es')).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
