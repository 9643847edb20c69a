import { existsSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { createAssistant } from '../assistants/helpers.ts';
import { addSource, drainIngestion } from '../knowledge/helpers.ts';
import type { TestUser } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';

/**
 * Browser tests of the embeddable widget (docs/widget-script.md "Tests"): Debian's Chromium driven by
 * playwright-core (docs/architecture.md "Technical notes"), the real app on a real port, and a customer's
 * page served from a second local server, i.e. another origin.
 */

export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

/** Screenshots for people to look at: `<repo>/test-results/` (git-ignored). */
export const RESULTS = fileURLToPath(new URL('../../../../test-results/', import.meta.url));

export function launchBrowser(): Promise<Browser> {
  mkdirSync(RESULTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

export const shot = (page: Page, name: string) => page.screenshot({ path: join(RESULTS, `${name}.png`) });

/** The built script first (the route reads dist/ when the app starts), then the app on a port. */
export async function startApp(env: Record<string, string> = {}): Promise<{ t: TestApp; base: string }> {
  const build = (await import(new URL('../../../widget/build.mjs', import.meta.url).href)) as {
    buildWidget(): Promise<unknown>;
  };
  await build.buildWidget();
  const t = await createTestApp(env);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  return { t, base: `http://127.0.0.1:${port}` };
}

export type Site = {
  port: number;
  /** The page embedding the widget; `csp`: served with a strict Content-Security-Policy. */
  url(assistantId: string, host?: string, csp?: boolean): string;
  close(): Promise<void>;
};

/**
 * A customer's website: `/a/{assistantId}` is a page that embeds the script exactly as the
 * embed snippet says (docs/widget.md "Embedding and configuration"). `window.pwned` stays 0 unless something
 * injected runs.
 */
const NONCE = 'c2l0ZS1ub25jZQ';

export async function startSite(scriptBase: string): Promise<Site> {
  const server: Server = createServer((req, res) => {
    const [, kind, id] = /^\/(a|csp)\/([A-Za-z0-9_]+)/.exec(req.url ?? '') ?? [];
    if (!id) {
      res.writeHead(404).end();
      return;
    }
    const headers: Record<string, string> = { 'content-type': 'text/html; charset=utf-8' };
    // No inline styles or scripts but our nonced one; scripts and fetches only to Parley.
    if (kind === 'csp') {
      headers['content-security-policy'] =
        `default-src 'none'; script-src 'nonce-${NONCE}' ${scriptBase}; connect-src ${scriptBase}; style-src 'nonce-${NONCE}'`;
    }
    res.writeHead(200, headers);
    res.end(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Kettle Co.</title>
<style nonce="${NONCE}">body{font-family:Georgia,serif;color:#c00;background:#fffbe6} button{font-size:30px}</style>
<script nonce="${NONCE}">window.pwned = 0;</script></head>
<body><h1>Kettle Co.</h1><p>Fine kettles since 1901.</p><button type="button">A button of the site</button>
<script src="${scriptBase}/widget.js" data-assistant-id="${id}" async></script>
</body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: (assistantId, host = '127.0.0.1', csp = false) =>
      `http://${host}:${port}/${csp ? 'csp' : 'a'}/${assistantId}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** An assistant with Q&A knowledge and its widget enabled, through the API. */
export async function widgetAssistant(
  t: TestApp,
  user: TestUser,
  workspaceId: string,
  pairs: Array<{ question: string; answer: string }>,
  widget: Record<string, unknown> = {},
): Promise<string> {
  const id = await createAssistant(t, user, workspaceId, { name: 'Kettle helper' });
  await addSource(t, user, id, { type: 'qa', name: 'Kettle FAQ', pairs });
  await drainIngestion(t);
  const res = await t.request({
    method: 'PATCH',
    url: `/api/assistants/${id}/widget`,
    headers: user.headers,
    // Hostnames without port (widget-origin.ts): the customer page is 127.0.0.1 on another port.
    payload: { isEnabled: true, allowedDomains: ['127.0.0.1'], ...widget },
  });
  if (res.statusCode !== 200) throw new Error(`widget config: ${res.statusCode} ${res.body}`);
  return id;
}

/** The widget's parts, by role and name (Playwright reaches into the open shadow root). */
export function widget(page: Page) {
  return {
    host: page.locator('[data-parley-widget]'),
    launcher: page.getByRole('button', { name: /^Open chat/ }),
    toggle: page.locator('[data-parley-widget] .launcher'),
    panel: page.getByRole('dialog'),
    log: page.getByRole('log', { name: 'Conversation' }),
    input: page.getByRole('textbox', { name: 'Your message' }),
    alert: page.locator('[data-parley-widget] .alert'),
    answers: page.locator('[data-parley-widget] .msg.bot'),
  };
}

/** Which element has focus inside the widget's shadow root (tag and accessible label). */
export function focused(page: Page) {
  return page.evaluate(() => {
    const el = document.querySelector('[data-parley-widget]')?.shadowRoot?.activeElement;
    return el ? `${el.tagName.toLowerCase()}:${el.getAttribute('aria-label') ?? el.textContent ?? ''}` : null;
  });
}

export const pageErrors = (page: Page) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
};

export const storedSession = (page: Page, id: string) =>
  page.evaluate(
    (key) => JSON.parse(localStorage.getItem(key) ?? '{}').session?.sessionId as string,
    `parley:widget:${id}`,
  );

export async function ask(page: Page, question: string) {
  const stream = page.waitForResponse((r) => r.url().endsWith('/chat') && r.request().method() === 'POST');
  const ui = widget(page);
  await ui.input.fill(question);
  await ui.input.press('Enter');
  return stream;
}

/** The AI answer containing `text`, once complete (its thumbs are drawn only then). */
export const answerTo = (page: Page, text: string) =>
  page.locator('[data-parley-widget] .msg.bot', { hasText: text }).filter({ has: page.locator('.rate') });
