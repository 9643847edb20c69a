/**
 * Regenerates the README's two screenshots of the real dashboard (README "After it starts"):
 *
 *   cd apps/server && npx tsx test/browser/readme-screenshots.ts
 *
 * Not part of the test suite. It builds the dashboard, starts the real app on a free port with
 * an in-memory PGlite database and its knowledge worker (as the browser tests do, without
 * vitest), serves a small help site on localhost, seeds an account and knowledge through the UI
 * and the API, and writes at 1280×800:
 *   docs/images/dashboard-chat.png       the chat with a streamed answer and its citations, light;
 *   docs/images/dashboard-knowledge.png  the knowledge page with its sources, dark.
 * Needs Debian's Chromium at /usr/bin/chromium (playwright-core drives it).
 */
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { buildApp } from '../../src/app.ts';
import { createContext, migrateDatabase } from '../../src/bootstrap.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/client.ts';
import { startJobs } from '../../src/jobs/catalog.ts';
import { makePdf } from '../support/documents.ts';

const IMAGES = fileURLToPath(new URL('../../../../docs/images/', import.meta.url));
const VIEWPORT = { width: 1280, height: 800 };
const MAX_BYTES = 200 * 1024;

/** The demo company's help site, crawled as a website source. */
const HELP_PAGES: Record<string, { title: string; body: string; links?: string[] }> = {
  '/help': {
    title: 'Help centre',
    body: 'Everything about ordering, delivery and caring for your kettle.',
    links: ['/help/delivery', '/help/descaling'],
  },
  '/help/delivery': {
    title: 'Delivery',
    body: 'Orders placed before 2 pm leave our warehouse the same day. Delivery in the EU takes 2 to 4 business days.',
  },
  '/help/descaling': {
    title: 'Descaling',
    body: 'Descale your kettle once a month with a mix of water and white vinegar, then boil clean water twice.',
  },
};

function startHelpSite(): Promise<Server> {
  const server = createServer((req, res) => {
    const page = HELP_PAGES[new URL(req.url ?? '/', 'http://localhost').pathname];
    if (!page) {
      res.writeHead(404).end('not found');
      return;
    }
    const links = (page.links ?? [])
      .map((l) => `<li><a href="${l}">${HELP_PAGES[l]?.title}</a></li>`)
      .join('');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html><head><title>${page.title}</title></head><body><main><h1>${page.title}</h1><p>${page.body}</p><ul>${links}</ul></main></body></html>`,
    );
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function main() {
  const web = (await import(new URL('../../../web/build.mjs', import.meta.url).href)) as {
    buildWeb(): Promise<void>;
  };
  await web.buildWeb();

  const dataDir = mkdtempSync(join(tmpdir(), 'parley-readme-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    // The help site runs on this machine: let the outbound guard reach it (development only).
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  });
  const database = await openDatabase({ kind: 'pglite' });
  await migrateDatabase(database);
  const ctx = createContext(config, database);
  const app = await buildApp(ctx, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const worker = startJobs(ctx, { only: ['ingestion'], everyMs: { ingestion: 100 } });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const site = await startHelpSite();
  const siteUrl = `http://localhost:${(site.address() as AddressInfo).port}`;

  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    const context = await browser.newContext({ viewport: VIEWPORT, colorScheme: 'light' });
    const page = await context.newPage();
    const h1 = (name: string) => page.getByRole('heading', { level: 1, name }).waitFor();

    // Sign up and create the workspace and the assistant through the UI.
    await page.goto(`${base}/signup`);
    await page.getByLabel('Name').fill('Ada Lovelace');
    await page.getByLabel('Email').fill('ada@kettle.example');
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await h1('Create a workspace');
    await page.getByLabel('Workspace name').fill('Kettle Co.');
    await page.getByRole('button', { name: 'Create workspace' }).click();
    await h1('Kettle Co.');
    await page.getByRole('link', { name: 'Assistants' }).first().click();
    await page.getByRole('link', { name: 'New assistant' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Kettle support');
    await page.getByLabel('Instructions').fill('Answer customers of Kettle Co. kindly and briefly.');
    await page.getByRole('button', { name: 'Create assistant' }).click();
    await h1('Knowledge of Kettle support');
    const knowledgeUrl = page.url();
    const assistantId = /assistants\/([^/]+)\/knowledge/.exec(knowledgeUrl)?.[1] ?? '';

    // Knowledge: text and a website through the API (with the page's session cookie) ...
    const api = async (path: string, body: unknown) => {
      const res = await page.request.post(`${base}${path}`, { data: body, headers: { origin: base } });
      if (!res.ok()) throw new Error(`${path}: ${res.status()} ${await res.text()}`);
    };
    await api(`/api/assistants/${assistantId}/sources`, {
      type: 'text',
      name: 'Opening hours',
      text: 'Our support team answers Monday to Friday, 9 am to 6 pm CET.',
    });
    await api(`/api/assistants/${assistantId}/sources`, {
      type: 'website',
      name: 'Help centre',
      url: `${siteUrl}/help`,
      mode: 'crawl',
      maxPages: 20,
    });
    // ... then Q&A and two files through the UI, as a person would.
    await page.getByLabel('Name (optional)').fill('Kettle FAQ');
    await page.getByLabel('Question', { exact: true }).fill('How long do refunds take?');
    await page
      .getByLabel('Answer', { exact: true })
      .fill('Refunds reach your card within 5 business days of us receiving the kettle.');
    await page.getByRole('button', { name: 'Add source' }).click();
    await page.getByRole('list', { name: 'Sources' }).getByText('Kettle FAQ').waitFor();
    await page.getByRole('radio', { name: 'Files' }).check();
    await page.getByLabel('Choose files').setInputFiles([
      {
        name: 'returns-policy.pdf',
        mimeType: 'application/pdf',
        buffer: makePdf([
          'Returns: you may return an unused kettle within 30 days. We refund the price and the delivery cost.',
        ]),
      },
      {
        name: 'warranty.md',
        mimeType: 'text/markdown',
        buffer: Buffer.from(
          '# Warranty\n\nEvery kettle has a two-year warranty covering the heating element and the switch.\n',
        ),
      },
    ]);
    await page.getByRole('button', { name: 'Upload 2 files' }).click();
    const sources = page.getByRole('list', { name: 'Sources' }).getByRole('listitem');
    await page.waitForFunction(
      () =>
        document.querySelectorAll('ul[aria-label="Sources"] .badge').length === 5 &&
        [...document.querySelectorAll('ul[aria-label="Sources"] .badge')].every(
          (b) => b.textContent === 'ready',
        ),
      undefined,
      { timeout: 30_000 },
    );
    if ((await sources.count()) !== 5) throw new Error('expected five sources');

    // Chat, light: a streamed answer with its numbered citations.
    await page.goto(knowledgeUrl.replace(/knowledge$/, 'chat'));
    await h1('Chat with Kettle support');
    const box = page.getByRole('textbox', { name: 'Your message' });
    const reply = page.getByRole('list', { name: 'Messages' }).locator('.msg.assistant');
    for (const [i, question] of ['How long do refunds take?', 'Do you deliver orders in the EU?'].entries()) {
      await box.fill(question);
      await box.press('Enter');
      await reply.nth(i).getByRole('list', { name: 'Sources' }).getByRole('listitem').first().waitFor();
    }
    await settle(page);
    await save(page, 'dashboard-chat.png');

    // Knowledge, dark: the sources and the file upload with its limit.
    await page.goto(knowledgeUrl);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    await page.getByRole('radio', { name: 'Files' }).check();
    await sources.first().waitFor();
    await settle(page);
    await save(page, 'dashboard-knowledge.png');
    await context.close();
  } finally {
    await browser.close();
    await worker.stop(2_000);
    await app.close();
    await ctx.limits.close();
    await ctx.fanout.close();
    await database.close();
    site.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** No caret blinking or focus ring in the picture. */
async function settle(page: Page) {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.mouse.move(0, 0);
}

async function save(page: Page, name: string) {
  mkdirSync(IMAGES, { recursive: true });
  const path = join(IMAGES, name);
  await page.screenshot({ path });
  const size = statSync(path).size;
  console.log(`wrote docs/images/${name} (${Math.round(size / 1024)} KB)`);
  if (size > MAX_BYTES) console.warn(`  ${name} is over ${MAX_BYTES / 1024} KB`);
}

await main();
