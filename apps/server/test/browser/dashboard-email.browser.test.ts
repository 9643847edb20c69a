import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compose, newAddress, smtpOf } from '../email/support.ts';
import { createAssistant } from '../support/factories.ts';
import { freePort } from '../support/pg-cluster.ts';
import { createWorld, type World } from '../support/world.ts';
import {
  type EmailDashboard,
  forwardOver,
  problems,
  signedIn,
  startEmailDashboard,
} from './dashboard-email-setup.ts';
import { checkPage, fitsWidth } from './dashboard-helpers.ts';
import { hasChromium } from './helpers.ts';

/**
 * The Email page of an assistant (docs/email.md "Dashboard") in Chromium against the real server,
 * a real SMTP server on loopback and the model stand-in: a Free workspace is told to upgrade; on
 * Pro, a wrong form is refused in words before any request; Test answers for each side in words
 * (SMTP against the real server, right and wrong password); saved with forwarding, the password
 * never shown; the forwarding URL copied, taking mail, and rotated after a question (the old one
 * 404); switched to IMAP, the IMAP side's failure in words and a refused host under its field;
 * another assistant's address (409) under the address field; a member is offered nothing;
 * disconnect after a question. Both themes, axe, a phone's width.
 */

if (!hasChromium) console.warn('Dashboard email browser tests skipped: /usr/bin/chromium is missing.');

let env: EmailDashboard;
let w: World;

beforeAll(async () => {
  if (!hasChromium) return;
  env = await startEmailDashboard();
  w = await createWorld(env.t);
}, 120_000);

afterAll(async () => {
  await env?.close();
});

const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name });
const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);

describe.skipIf(!hasChromium)('the Email page', { timeout: 180_000 }, () => {
  it('upgrade on Free; on Pro: checks, test, save with forwarding, rotate, IMAP, 409, member, disconnect', async () => {
    const { t, base, smtp } = env;
    const assistantId = await createAssistant(t, w.owner, w.ws, { name: 'Kettle helper' });
    const freeAssistant = await createAssistant(t, w.freeOwner, w.freeWs, { name: 'Free helper' });

    // Free: the page says what to do, and asks the API nothing.
    const free = await signedIn(env, w.freeOwner);
    const freeProblems = problems(free.page);
    await free.page.goto(`${base}/w/${w.freeWs}/assistants/${freeAssistant}/email`);
    await heading(free.page, 'Email for Free helper').waitFor();
    await free.page.getByRole('heading', { name: 'Email needs the Pro or Enterprise plan' }).waitFor();
    await free.page
      .getByText('This workspace is on the Free plan, which does not include channels.', { exact: false })
      .waitFor();
    expect(
      await free.page.getByRole('link', { name: 'Upgrade on the Billing page' }).getAttribute('href'),
    ).toBe(`/w/${w.freeWs}/billing`);
    expect(await free.page.getByLabel('Address', { exact: true }).count()).toBe(0);
    expect(freeProblems).toEqual([]);
    await free.context.close();

    // Pro: reached from the assistant's pages.
    const { context, page } = await signedIn(env, w.owner);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    const seen = problems(page);
    await page.goto(`${base}/w/${w.ws}/assistants/${assistantId}/knowledge`);
    await page.getByRole('navigation', { name: 'Assistant' }).getByRole('link', { name: 'Email' }).click();
    await heading(page, 'Email for Kettle helper').waitFor();
    await expect.poll(() => page.title()).toMatch(/^Email · Kettle helper · /);
    const form = page.getByRole('form', { name: 'Connect an email address' });
    await form.waitFor();
    const none = `404 GET /api/assistants/${assistantId}/email`;

    // Wrong forms, in words at each field, before any request.
    await form.getByLabel('Address', { exact: true }).fill('support at kettle');
    await form.getByLabel('Through my SMTP server').check();
    await form.getByLabel('Port', { exact: true }).fill('99999');
    await form.getByRole('button', { name: 'Connect address' }).click();
    await form
      .getByText('An email address is a name, @ and a domain, such as support@example.com.')
      .waitFor();
    await form.getByText('Enter the name replies come from, up to 100 characters.').waitFor();
    await form.getByText('Enter the server’s host name, such as mail.example.com.').waitFor();
    await form.getByText('The port is a whole number from 1 to 65535.').waitFor();
    await form.getByText('Enter the password.').waitFor();
    expect(await form.getByLabel('Address', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(seen).toEqual([none]);

    // Test against the real SMTP server: the right password, then a wrong one.
    const address = newAddress('kettle');
    const mail = smtpOf(smtp);
    await form.getByLabel('Address', { exact: true }).fill(address);
    await form.getByLabel('Display name').fill('Kettle Support');
    await form.getByText(`Replies come from “Kettle Support <${address}>”.`).waitFor();
    await form.getByLabel('Host', { exact: true }).fill(mail.host);
    await form.getByLabel('Port', { exact: true }).fill(String(mail.port));
    await form.getByLabel('User name').fill(mail.username);
    await form.getByLabel('Password', { exact: true }).fill('wrong-password');
    await form.getByRole('button', { name: 'Test', exact: true }).click();
    await form.getByText('IMAP: not used (forwarding).').waitFor();
    await form.getByText(/^SMTP: failed\. .+/).waitFor();
    await form.getByLabel('Password', { exact: true }).fill(mail.password);
    await form.getByRole('button', { name: 'Test', exact: true }).click();
    await form.getByText(/^SMTP: connected\. .+/).waitFor();

    // Save: the password field empties, says "Saved" and "unchanged"; the forwarding URL shows.
    await form.getByLabel('Signature').fill('The Kettle team');
    await form.getByRole('button', { name: 'Connect address' }).click();
    const settings = page.getByRole('form', { name: 'Address and mail servers' });
    await settings.waitFor();
    const password = settings.getByLabel('Password', { exact: true });
    expect(await password.inputValue()).toBe('');
    expect(await password.getAttribute('placeholder')).toBe('unchanged');
    await settings.locator('.badge', { hasText: 'Saved' }).waitFor();
    expect(await page.content()).not.toContain(mail.password);
    await page
      .getByText('Not checked yet: the first reply or mailbox check will say how the mail servers answered.')
      .waitFor();
    const cookie = w.owner.cookie;
    const stored = async () =>
      (
        await t.request({ method: 'GET', url: `/api/assistants/${assistantId}/email`, headers: { cookie } })
      ).json().data;
    const first = await stored();
    expect(first).toMatchObject({
      address,
      displayName: 'Kettle Support',
      signature: 'The Kettle team',
      smtp: { host: mail.host, port: mail.port, username: mail.username, secure: false },
      inbound: { mode: 'forward' },
    });
    const forwarding = page.getByRole('region', { name: 'Forwarding address' });
    const urlField = forwarding.getByRole('textbox', { name: 'Forwarding URL' });
    expect(await urlField.inputValue()).toBe(first.inbound.forwardUrl);
    await forwarding.getByRole('button', { name: 'Copy forwarding URL' }).click();
    await forwarding.getByText('Copied').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(first.inbound.forwardUrl);
    const oldToken = tokenOf(first.inbound.forwardUrl);
    const raw = await compose({
      from: 'ana@customer.test',
      to: address,
      subject: 'Kettle lid',
      messageId: `<lid-${process.pid}@customer.test>`,
      text: 'My lid does not close.',
    });
    expect(await forwardOver(`${base}/api/email/inbound/${oldToken}`, raw)).toBe(202);

    // Rotate, after the question: a new URL; the old one is refused.
    await forwarding.getByRole('button', { name: 'New forwarding URL' }).click();
    await forwarding
      .getByText(/^Make a new forwarding URL\? The current one stops working at once/)
      .waitFor();
    await forwarding.getByRole('button', { name: 'Make a new URL' }).click();
    await forwarding.getByText('A new forwarding URL was made: the old one no longer works.').waitFor();
    await expect.poll(() => urlField.inputValue()).not.toBe(first.inbound.forwardUrl);
    expect(await urlField.inputValue()).toBe((await stored()).inbound.forwardUrl);
    expect(await forwardOver(`${base}/api/email/inbound/${oldToken}`, raw)).toBe(404);

    await checkPage(page, 'email-settings').then((found) => expect(found).toEqual([]));
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => fitsWidth(page)).toBe(true);
    await page.setViewportSize({ width: 1280, height: 900 });

    // IMAP: a password is asked for; the test says in words that the IMAP server is unreachable
    // while SMTP, with the saved password, still works.
    const closed = await freePort();
    await settings.getByLabel('IMAP: Parley watches a mailbox').check();
    const imap = settings.locator('.email-group').first();
    await imap.getByLabel('Host', { exact: true }).fill('127.0.0.1');
    await imap.getByLabel('Port', { exact: true }).fill(String(closed));
    await imap.getByLabel('TLS from the start (ports 465 and 993)').uncheck();
    await imap.getByLabel('User name').fill('kettle');
    await settings.getByRole('button', { name: 'Save email settings' }).click();
    await imap.getByText('Enter the password.').waitFor();
    await imap.getByLabel('Password', { exact: true }).fill('imap-secret');
    await settings.getByRole('button', { name: 'Test', exact: true }).click();
    await settings.getByText(/^IMAP: failed\. .*127\.0\.0\.1/).waitFor();
    await settings.getByText(/^SMTP: connected\. .+/).waitFor();
    // The API's own validation (stricter than the page's about domains) under its field.
    await settings.getByLabel('Address', { exact: true }).fill('kettle@acme.x');
    await settings.getByRole('button', { name: 'Save email settings' }).click();
    await settings.locator('#email-address-error', { hasText: 'An email address' }).waitFor();
    await settings.getByLabel('Address', { exact: true }).fill(address);
    await settings.getByRole('button', { name: 'Save email settings' }).click();
    await settings
      .getByRole('status')
      .filter({ hasText: /^Saved$/ })
      .waitFor();
    expect(await forwarding.count()).toBe(0);
    expect(await stored()).toMatchObject({
      inbound: {
        mode: 'imap',
        host: '127.0.0.1',
        port: closed,
        secure: false,
        username: 'kettle',
        mailbox: 'INBOX',
      },
    });
    expect(await imap.getByLabel('Password', { exact: true }).getAttribute('placeholder')).toBe('unchanged');

    // Another assistant's address: the API's 409 under the address field.
    const other = await createAssistant(t, w.owner, w.ws, { name: 'Teapot helper' });
    const taken = newAddress('teapot');
    const otherRes = await t.request({
      method: 'POST',
      url: `/api/assistants/${other}/email`,
      headers: { cookie },
      payload: { address: taken, displayName: 'Teapot', inbound: { mode: 'forward' } },
    });
    expect(otherRes.statusCode).toBe(201);
    await settings.getByLabel('Address', { exact: true }).fill(taken);
    await settings.getByRole('button', { name: 'Save email settings' }).click();
    await settings
      .locator('#email-address-error', { hasText: 'Another assistant already uses this address.' })
      .waitFor();
    await settings.getByLabel('Address', { exact: true }).fill(address);

    // A member: no Email tab, and the page says who manages it, without asking the API.
    const member = await signedIn(env, w.member);
    const memberProblems = problems(member.page);
    await member.page.goto(`${base}/w/${w.ws}/assistants/${assistantId}/email`);
    await heading(member.page, 'Email for Kettle helper').waitFor();
    await member.page
      .getByText(/^Only owners and admins of this workspace can see and change the email channel/)
      .waitFor();
    expect(
      await member.page
        .getByRole('navigation', { name: 'Assistant' })
        .getByRole('link', { name: 'Email' })
        .count(),
    ).toBe(0);
    expect(memberProblems).toEqual([]);
    await member.context.close();

    // Disconnect, after the question in place: the form for a new address again.
    await page.getByRole('button', { name: 'Disconnect email' }).click();
    await page.getByRole('button', { name: 'Disconnect', exact: true }).click();
    await page.getByRole('form', { name: 'Connect an email address' }).waitFor();
    expect(
      (await t.request({ method: 'GET', url: `/api/assistants/${assistantId}/email`, headers: { cookie } }))
        .statusCode,
    ).toBe(404);
    expect(seen).toEqual([
      none,
      `400 PATCH /api/assistants/${assistantId}/email`,
      `409 PATCH /api/assistants/${assistantId}/email`,
    ]);
    await context.close();
  });
});
