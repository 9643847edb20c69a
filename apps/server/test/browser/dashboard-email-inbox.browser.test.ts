import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compose, type EmailChannel, emailChannel } from '../email/support.ts';
import { waitFor } from '../support/wait.ts';
import { createWorld, type World } from '../support/world.ts';
import {
  type EmailDashboard,
  forwardOver,
  problems,
  signedIn,
  startEmailDashboard,
} from './dashboard-email-setup.ts';
import { checkPage, fitsWidth } from './dashboard-helpers.ts';
import { hasChromium, shot } from './helpers.ts';

/**
 * Email conversations in the inbox (docs/email.md "Dashboard"), in Chromium against the real
 * server, a real SMTP server on loopback and a DNS server for SPF and DMARC: mail posted to the
 * real forwarding endpoint shows with its subject as the title and the channel "Email"; a hostile
 * HTML message (a script, an image's onerror, a javascript: link, inline handlers) shows in a
 * sandboxed frame where nothing runs; its attachment downloads with the same bytes; a message
 * failing DMARC is marked, with the checks in words, and the AI did not answer it. Both themes,
 * axe, a phone's width.
 */

if (!hasChromium) console.warn('Dashboard email inbox tests skipped: /usr/bin/chromium is missing.');

let env: EmailDashboard;
let w: World;
let ch: EmailChannel;

beforeAll(async () => {
  if (!hasChromium) return;
  env = await startEmailDashboard();
  w = await createWorld(env.t);
  ch = await emailChannel(env.t, w.owner, w.ws, env.smtp, { signature: 'The Acme team' });
}, 120_000);

afterAll(async () => {
  await env?.close();
});

const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n',
);

const HOSTILE = [
  '<p>Hello <b>team</b>, my kettle whistles too early.</p>',
  '<script>window.__pwned = "script"; alert("script")</script>',
  '<img src="x" onerror="window.__pwned = \'img\'; alert(\'img\')">',
  "<p><a href=\"javascript:window.__pwned='link';alert('link')\">Click me</a></p>",
  '<div onmouseover="window.__pwned = \'hover\'" onclick="alert(\'click\')">Hover here</div>',
  '<p>My order: <a href="https://shop.example/orders/42">order 42</a></p>',
].join('\n');

/** The inbox's conversation whose title is `title`, once the email-inbound job made it. */
async function conversationTitled(title: string): Promise<string> {
  let id = '';
  await waitFor(
    async () => {
      const res = await env.t.request({
        method: 'GET',
        url: `/api/inbox/conversations?workspaceId=${w.ws}`,
        headers: w.owner.headers,
      });
      id = res.json().data.find((c: { title: string; id: string }) => c.title === title)?.id ?? '';
      return id !== '';
    },
    15_000,
    `the conversation "${title}"`,
  );
  return id;
}

const thread = (page: Page) => page.getByRole('list', { name: 'Messages' });

describe.skipIf(!hasChromium)('email in the inbox', { timeout: 180_000 }, () => {
  it('subject as title, hostile HTML inert in a sandbox, attachment downloaded, the DMARC mark', async () => {
    const { base, smtp, dns } = env;
    const inbound = `${base}/api/email/inbound/${ch.token}`;

    // A customer's HTML mail with an attachment, through the forwarding URL over HTTP.
    const raw = await compose({
      from: 'Ana Customer <ana@customer.test>',
      to: ch.address,
      subject: 'Whistling kettle',
      messageId: `<whistle-${process.pid}@customer.test>`,
      text: 'Hello team, my kettle whistles too early.',
      html: HOSTILE,
      attachments: [{ filename: 'receipt.pdf', content: PDF, contentType: 'application/pdf' }],
    });
    expect(await forwardOver(inbound, raw)).toBe(202);
    const hostileId = await conversationTitled('Whistling kettle');
    await waitFor(
      async () => smtp.sent.some((m) => m.to.includes('ana@customer.test')),
      15_000,
      'the AI reply',
    );

    // A spoofed sender: the domain's DMARC policy fails it.
    dns.zone.set('spoofed.test', ['v=spf1 ip4:203.0.113.5 -all']);
    dns.zone.set('_dmarc.spoofed.test', ['v=DMARC1; p=reject']);
    const spoof = await compose({
      from: 'Chief Executive <ceo@spoofed.test>',
      to: ch.address,
      subject: 'Urgent transfer',
      messageId: `<spoof-${process.pid}@spoofed.test>`,
      text: 'Send the refund to my new account today.',
      headers: {
        'Return-Path': '<ceo@spoofed.test>',
        Received:
          'from mail.evil.test (mail.evil.test [198.51.100.7]) by mx.acme.test with ESMTP id 1; Tue, 24 Nov 2026 10:00:00 +0000',
      },
    });
    expect(await forwardOver(inbound, spoof)).toBe(202);
    const spoofId = await conversationTitled('Urgent transfer');

    // The list: the subject as the title, the channel in words.
    const { context, page } = await signedIn(env, w.owner);
    const seen = problems(page);
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(`${base}/w/${w.ws}/inbox`);
    const row = page.locator('.inbox-row', { hasText: 'Whistling kettle' });
    await row.waitFor();
    expect(await row.locator('.inbox-meta').textContent()).toMatch(/^Email · /);
    await row.getByRole('link', { name: 'Whistling kettle' }).click();
    await page.getByRole('heading', { level: 1, name: 'Whistling kettle' }).waitFor();

    // The customer's message: subject and sender; the HTML in a frame with no permission at all.
    const customer = thread(page).locator('li.msg[data-role="user"]').first();
    await customer.getByText('Subject: Whistling kettle').waitFor();
    await customer.getByText('From: Ana Customer <ana@customer.test>').waitFor();
    const frameEl = customer.locator('iframe.email-html');
    expect(await frameEl.getAttribute('sandbox')).toBe('');
    expect(await frameEl.getAttribute('title')).toBe('Email from Ana Customer <ana@customer.test>');
    const doc = (await frameEl.getAttribute('srcdoc')) ?? '';
    expect(doc).toContain("default-src 'none'");
    expect(doc).not.toMatch(/<script|onerror|onmouseover|onclick|javascript:/i);
    const frame = customer.frameLocator('iframe.email-html');
    await frame.getByText('my kettle whistles too early').waitFor();
    expect(await frame.locator('script').count()).toBe(0);
    const link = frame.getByText('Click me');
    expect(await link.getAttribute('href')).toBeNull();
    expect(await frame.getByRole('link', { name: 'order 42' }).getAttribute('href')).toBe(
      'https://shop.example/orders/42',
    );
    await frame.getByText('Hover here').hover();
    await frame.getByText('Hover here').click();
    await link.click();
    await page.waitForTimeout(500);
    expect(dialogs).toEqual([]);
    expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();

    // As plain text, and back.
    await customer.getByRole('button', { name: 'Show as plain text' }).click();
    await customer.getByText('Hello team, my kettle whistles too early.').waitFor();
    await customer.getByRole('button', { name: 'Show as formatted' }).click();
    await frameEl.waitFor();

    // The attachment: listed with its type found in the bytes, downloaded with the same bytes.
    const attachments = customer.getByRole('list', { name: 'Attachments' });
    expect(await attachments.textContent()).toContain('application/pdf');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      attachments.getByRole('link', { name: 'Download receipt.pdf' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('receipt.pdf');
    expect(Buffer.compare(await readFile((await download.path()) ?? ''), PDF)).toBe(0);

    // The AI's reply went out by email.
    const reply = thread(page).locator('li.msg[data-role="assistant"]').first();
    await reply.getByText('Subject: Re: Whistling kettle').waitFor();
    await expect
      .poll(async () => {
        await page.reload();
        return reply.locator('.delivery').getAttribute('data-delivery');
      })
      .toBe('sent');
    await reply.getByText('Email sent').waitFor();

    await shot(page, 'dashboard-email-conversation');
    expect(await checkPage(page, 'email-conversation')).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => fitsWidth(page)).toBe(true);
    await page.setViewportSize({ width: 1280, height: 900 });

    // The spoofed mail: marked, the checks in words, and the AI did not answer.
    await page.goto(`${base}/w/${w.ws}/inbox/${spoofId}`);
    await page.getByRole('heading', { level: 1, name: 'Urgent transfer' }).waitFor();
    const marked = thread(page).locator('li.msg[data-role="user"]').first();
    await marked
      .locator('.email-marked', {
        hasText: 'Failed DMARC: this email may not come from spoofed.test. The AI did not answer it.',
      })
      .waitFor();
    await marked.getByText('Sender checks: SPF failed, DKIM none, DMARC failed.').waitFor();
    await marked.getByText('Not answered by the AI: the sender checks failed.').waitFor();
    expect(await thread(page).locator('li.msg[data-role="assistant"]').count()).toBe(0);
    expect(smtp.sent.some((m) => m.to.includes('ceo@spoofed.test'))).toBe(false);
    expect(await checkPage(page, 'email-marked')).toEqual([]);

    // In the account's language (Spanish), the mark and the checks too.
    const es = await env.t.request({
      method: 'PATCH',
      url: '/api/account',
      headers: w.owner.headers,
      payload: { language: 'es' },
    });
    expect(es.statusCode).toBe(200);
    await page.reload();
    // The thread's own name is Spanish now too.
    const marcado = page.getByRole('list', { name: 'Mensajes' }).locator('li.msg[data-role="user"]').first();
    await marcado
      .getByText('Falló DMARC: puede que este correo no venga de spoofed.test. La IA no lo respondió.')
      .waitFor();
    await marcado
      .getByText('Comprobaciones del remitente: SPF fallida, DKIM sin registro, DMARC fallida.')
      .waitFor();

    expect(hostileId).not.toBe(spoofId);
    expect(dialogs).toEqual([]);
    expect(seen).toEqual([]);
    await context.close();
  });
});
