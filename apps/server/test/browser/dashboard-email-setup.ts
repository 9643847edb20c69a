import type { Browser, BrowserContext, Page } from 'playwright-core';
import { type MailServer, startDns, startMailServer } from '../email/support.ts';
import type { TestUser } from '../support/factories.ts';
import type { TestApp } from '../support/harness.ts';
import { type LlmServer, startLlmServer } from '../support/llm-server.ts';
import { startDashboard } from './dashboard-helpers.ts';

/**
 * The email dashboard tests' start (docs/email.md "Dashboard"): the built dashboard on a real
 * port, the model stand-in, a real SMTP server on loopback (support: smtp-server), a DNS server
 * answering the SPF and DMARC questions (dns2), the email jobs running.
 */
export type EmailDashboard = {
  t: TestApp;
  base: string;
  browser: Browser;
  smtp: MailServer;
  llm: LlmServer;
  dns: Awaited<ReturnType<typeof startDns>>;
  close(): Promise<void>;
};

export async function startEmailDashboard(): Promise<EmailDashboard> {
  const llm = await startLlmServer({ instant: true });
  const dns = await startDns(new Map());
  const smtp = await startMailServer();
  const { t, base, browser } = await startDashboard({
    AI_PROVIDER: 'openai',
    AI_BASE_URL: `${llm.url}/v1`,
    AI_MODEL: 'stand-in',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    EMAIL_DNS_SERVERS: dns.server,
  });
  t.startJobs(['email-inbound', 'email-send'], { 'email-inbound': 50, 'email-send': 50 });
  return {
    t,
    base,
    browser,
    smtp,
    llm,
    dns,
    close: async () => {
      await browser.close();
      await t.close();
      await smtp.close();
      await llm.close();
      dns.close();
    },
  };
}

/** A browser context signed in as `user` (the API's session cookie), and its page. */
export async function signedIn(
  env: EmailDashboard,
  user: TestUser,
  viewport = { width: 1280, height: 900 },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await env.browser.newContext({ viewport, colorScheme: 'light' });
  const value = user.cookie.slice(user.cookie.indexOf('=') + 1);
  await context.addCookies([{ name: 'parley.session-token', value, url: env.base }]);
  return { context, page: await context.newPage() };
}

/**
 * What went wrong on a page: console errors, uncaught exceptions, and the API's answers of 400
 * or more (each test lists the refusals it expects).
 */
export function problems(page: Page): string[] {
  const found: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource'))
      found.push(`console error: ${m.text()}`);
  });
  page.on('pageerror', (e) => found.push(`uncaught: ${e.message}`));
  page.on('response', (r) => {
    if (r.status() >= 400) found.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`);
  });
  return found;
}

/** Posts a raw message to a forwarding URL over HTTP, as a mail server's forwarding rule would. */
export async function forwardOver(url: string, raw: Buffer): Promise<number> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'message/rfc822' },
    body: new Uint8Array(raw),
  });
  return res.status;
}
