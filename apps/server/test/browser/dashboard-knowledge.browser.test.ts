import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StartedJobs } from '../../src/jobs/catalog.ts';
import { createAssistant } from '../assistants/helpers.ts';
import { addSource, getSource, search } from '../knowledge/helpers.ts';
import { makePdf } from '../support/documents.ts';
import { signupUser, type TestUser } from '../support/factories.ts';
import type { TestApp } from '../support/harness.ts';
import { Site } from '../support/site.ts';
import { addMember, insertWorkspace } from '../support/world.ts';
import { accountLanguage, checkPage, fitsWidth, startDashboard } from './dashboard-helpers.ts';
import { hasChromium, pageErrors, shot } from './helpers.ts';

/**
 * The knowledge page's sources in Chromium (docs/dashboard.md "Knowledge") against the
 * real server and its real ingestion worker: files (several at once, a refused type, one over
 * the server's upload limit refused in the page before sending), websites from
 * a local site (a crawl that becomes ready, a page answering 500 that fails in words, re-sync),
 * search, delete with confirmation (the API then finds nothing), live sources whose credentials
 * never come back, pagination, a member's view, axe in light and dark, a phone.
 */

if (!hasChromium) console.warn('Knowledge browser tests skipped: /usr/bin/chromium is missing.');

/** Lowered so that a small file is over it: the page reads the server's limit and refuses it. */
const SERVER_LIMIT = 1024 * 1024;
const MD_WORD = 'zanzibarite';
const PDF_WORD = 'quokkaline';
const SITE_WORD = 'flamingoware';
const TOKEN = 'shpat_never_shown_again_1234';

let t: TestApp;
let base: string;
let browser: Browser;
let worker: StartedJobs;
let owner: TestUser;
let ws: string;
let assistant: string;
let files: string;
const site = new Site(false);

beforeAll(async () => {
  if (!hasChromium) return;
  await site.start();
  const page = (title: string, body: string, links: string[] = []) => ({
    body: `<html><head><title>${title}</title></head><body><main><h1>${title}</h1><p>${body}</p>${links
      .map((l) => `<a href="${l}">${l}</a>`)
      .join(' ')}</main></body></html>`,
  });
  site
    .route('/help', page('Help', `Our ${SITE_WORD} kettles ship in two days.`, ['/help/returns', '/blog/x']))
    .route('/help/returns', page('Returns', 'Returns are accepted for 30 days.'))
    .route('/blog/x', page('Blog', 'A blog post that must not be read.'))
    .route('/broken', { status: 500, body: 'oops' });
  // The outbound guard refuses loopback unless told otherwise (docs/knowledge.md).
  ({ t, base, browser } = await startDashboard({
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    UPLOAD_LIMIT_BYTES: String(SERVER_LIMIT),
  }));
  worker = t.startJobs(['ingestion'], { ingestion: 100 });
  owner = await signupUser(t, { name: 'Ada Owner' });
  ws = await insertWorkspace(t, owner, { name: 'Kettle Co.' });
  assistant = await createAssistant(t, owner, ws, { name: 'Kettle helper' });
  files = mkdtempSync(join(tmpdir(), 'parley-knowledge-'));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await worker?.stop(2_000);
  await t?.close();
  await site.close();
  if (files) rmSync(files, { recursive: true, force: true });
});

async function signIn(context: BrowserContext, user: TestUser): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${base}/signin`);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Kettle Co.' }).waitFor();
  await page.goto(`${base}/w/${ws}/assistants/${assistant}/knowledge`);
  await page.getByRole('heading', { level: 1, name: 'Knowledge of Kettle helper' }).waitFor();
  return page;
}

const sourceItem = (page: Page, name: string) =>
  page.getByRole('list', { name: 'Sources' }).getByRole('listitem').filter({ hasText: name });

/** Waits for the source named `name` to show `status`; returns its passage count from the page. */
async function shows(page: Page, name: string, status: string): Promise<string> {
  const item = sourceItem(page, name);
  await item.locator('.badge', { hasText: status }).waitFor({ timeout: 30_000 });
  return (await item.textContent()) ?? '';
}

async function listSources(user: TestUser, query = 'limit=100') {
  const res = await t.request({
    method: 'GET',
    url: `/api/assistants/${assistant}/sources?${query}`,
    headers: user.headers,
  });
  expect(res.statusCode).toBe(200);
  return res.json() as { data: Array<{ id: string; name: string; status: string }>; total: number };
}

const idOf = async (name: string) => (await listSources(owner)).data.find((s) => s.name === name)!.id;

describe.skipIf(!hasChromium)('knowledge sources in the dashboard', { timeout: 90_000 }, () => {
  it('uploads files, adds websites and live sources, searches, re-syncs and deletes', async () => {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      colorScheme: 'light',
    });
    const page = await signIn(context, owner);
    const errors = pageErrors(page);
    const uploads: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/sources/files')) uploads.push(r.url());
    });

    // The empty state says what to add first.
    await page.getByText('No knowledge yet').waitFor();
    await page.getByText(/Start with what customers ask most/).waitFor();

    // Files: the limit is shown before choosing; two files at once, each read into passages.
    await page.getByRole('radio', { name: 'Files' }).check();
    await page.getByText(/up to 1 MB each/).waitFor();
    const chooser = page.getByLabel('Choose files');
    await chooser.setInputFiles([
      {
        name: 'shipping.md',
        mimeType: 'text/markdown',
        buffer: Buffer.from(
          `# Shipping\n\nEvery ${MD_WORD} order leaves the warehouse within a day.\n\n## Abroad\n\nInternational parcels take a week.\n`,
        ),
      },
      {
        name: 'warranty.pdf',
        mimeType: 'application/pdf',
        buffer: makePdf([`The ${PDF_WORD} warranty lasts two years.`]),
      },
    ]);
    await page.getByRole('button', { name: 'Upload 2 files' }).click();
    const chosen = page.getByRole('list', { name: 'Chosen files' });
    await chosen.getByText(/added/).nth(1).waitFor();
    expect(await shows(page, 'shipping.md', 'ready')).toMatch(/(^|\D)[1-9]\d* passages?/);
    expect(await shows(page, 'warranty.pdf', 'ready')).toMatch(/(^|\D)1 passage(?!s)/);
    const md = await getSource(t, owner, assistant, await idOf('shipping.md'));
    expect(md.status).toBe('ready');
    expect(await sourceItem(page, 'shipping.md').textContent()).toContain(
      `${md.chunkCount} passage${md.chunkCount === 1 ? '' : 's'}`,
    );

    // A type the server refuses (400): in words.
    await chooser.setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: Buffer.from('not text') });
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await chosen
      .getByRole('alert')
      .getByText('Unsupported file type; use PDF, DOCX, HTML, Markdown, text or CSV')
      .waitFor();
    expect((await listSources(owner)).total).toBe(2);

    // Over the server's limit (which the page reads from the server, here 1 MB): refused with a
    // sentence before anything is sent.
    const big = join(files, 'manual.pdf');
    writeFileSync(big, '');
    truncateSync(big, SERVER_LIMIT + 200 * 1024);
    const sent = uploads.length;
    await chooser.setInputFiles(big);
    await chosen
      .getByRole('alert')
      .getByText(/Too big to upload: 1.2 MB, and the limit is 1 MB/)
      .waitFor();
    expect(await page.getByRole('button', { name: 'Upload', exact: true }).isDisabled()).toBe(true);
    expect(uploads.length).toBe(sent);

    // A website crawl on the local site: only /help paths, /blog skipped, ready with passages.
    await page.getByRole('radio', { name: 'Website' }).check();
    await page.getByLabel('Website address').fill(site.url('/help'));
    await page.getByLabel('Crawl the site from this page').check();
    await page.getByLabel('Most pages to read').fill('5');
    await page.getByLabel(/^Skip paths starting with/).fill('/blog');
    await page.getByLabel('Name (optional)').fill('Help centre');
    await page.getByRole('button', { name: 'Add website' }).click();
    expect(await shows(page, 'Help centre', 'ready')).toMatch(/(^|\D)2 passages/);
    expect(site.requests.some((r) => r.path === '/help/returns')).toBe(true);
    expect(site.requests.some((r) => r.path === '/blog/x')).toBe(false);

    // A page answering 500: failed, and the reason in words.
    await page.getByLabel('Website address').fill(site.url('/broken'));
    await page.getByLabel('Just this page').check();
    await page.getByRole('button', { name: 'Add website' }).click();
    await shows(page, `${site.url('/broken')}`, 'failed');
    await sourceItem(page, site.url('/broken'))
      .locator('.error', { hasText: /answered 500/ })
      .waitFor();

    // Re-sync reads the site again.
    const helpId = await idOf('Help centre');
    const synced = async () => {
      const res = await t.request({
        method: 'GET',
        url: `/api/assistants/${assistant}/sources/${helpId}`,
        headers: owner.headers,
      });
      const s = res.json().data as { status: string; lastSyncedAt: string };
      return s.status === 'ready' ? s.lastSyncedAt : null;
    };
    const firstSync = await synced();
    const reads = site.requests.filter((r) => r.path === '/help').length;
    await sourceItem(page, 'Help centre').getByRole('button', { name: 'Re-sync' }).click();
    // Ready again, with a later read time than before.
    await expect
      .poll(async () => ((await synced()) ?? '') > (firstSync ?? ''), { timeout: 20_000 })
      .toBe(true);
    expect(site.requests.filter((r) => r.path === '/help').length).toBeGreaterThan(reads);
    await shows(page, 'Help centre', 'ready');

    // Search finds text of the uploaded file and of the site.
    const box = page.getByRole('searchbox', { name: 'Search question' });
    const results = page.getByRole('list', { name: 'Search results' });
    await box.fill(MD_WORD);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await results.getByText(new RegExp(MD_WORD)).first().waitFor();
    await box.fill(SITE_WORD);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await results.getByText(new RegExp(SITE_WORD)).first().waitFor();

    // Live sources: a spreadsheet and a store; the token never comes back, in the page or the API.
    await page.getByRole('radio', { name: 'Spreadsheet' }).check();
    await page.getByLabel('Name', { exact: true }).fill('Price list');
    await page.getByLabel('Published CSV address').fill('https://127.0.0.1:9/prices.csv');
    await page.getByRole('button', { name: 'Add spreadsheet' }).click();
    await shows(page, 'Price list', 'ready');
    await page.getByRole('radio', { name: 'Store' }).check();
    await page.getByLabel('Store address').fill('https://127.0.0.1:9');
    await page.getByLabel('Admin API access token').fill(TOKEN);
    await page.getByLabel('Name (optional)').fill('Kettle shop');
    await page.getByRole('button', { name: 'Connect store' }).click();
    expect(await shows(page, 'Kettle shop', 'ready')).toContain('Shopify · https://127.0.0.1:9');
    expect(await page.getByLabel('Admin API access token').inputValue()).toBe('');
    expect(await page.content()).not.toContain(TOKEN);
    const listed = await t.request({
      method: 'GET',
      url: `/api/assistants/${assistant}/sources?limit=100`,
      headers: owner.headers,
    });
    expect(listed.body).not.toContain(TOKEN);
    // Trying a live source that cannot be reached says so in words.
    const sheet = sourceItem(page, 'Price list');
    await sheet.getByText('Try a question').click();
    await sheet.getByLabel('Question to try').fill('kettle price');
    await sheet.getByRole('button', { name: 'Look up' }).click();
    await sheet.getByRole('alert').waitFor();
    expect(await sheet.getByRole('alert').textContent()).toMatch(/\w+ \w+/);

    // Accessibility with several sources of every state, light and dark.
    expect(await checkPage(page, 'knowledge-sources')).toEqual([]);

    // Delete with confirmation: cancel keeps it, confirming removes it and its passages.
    const shipping = sourceItem(page, 'shipping.md');
    const mdId = await idOf('shipping.md');
    await shipping.getByRole('button', { name: 'Delete shipping.md' }).click();
    await shipping.getByText(/Delete “shipping.md” and its \d+ passages?\?/).waitFor();
    await shipping.getByRole('button', { name: 'Cancel' }).click();
    await shipping.getByRole('button', { name: 'Delete shipping.md' }).click();
    await shipping.getByRole('button', { name: 'Delete for good' }).click();
    await shipping.waitFor({ state: 'detached' });
    const gone = await t.request({
      method: 'GET',
      url: `/api/assistants/${assistant}/sources/${mdId}`,
      headers: owner.headers,
    });
    expect(gone.statusCode).toBe(404);
    expect((await search(t, owner, assistant, MD_WORD)).filter((h) => h.content.includes(MD_WORD))).toEqual(
      [],
    );
    await box.fill(MD_WORD);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByText('Nothing found').waitFor();

    await shot(page, 'dashboard-knowledge-sources-final');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('pages through many sources, and fits a phone', async () => {
    const before = (await listSources(owner)).total;
    for (let i = before; i < 23; i++) {
      await addSource(t, owner, assistant, {
        type: 'qa',
        name: `FAQ ${String(i).padStart(2, '0')}`,
        pairs: [{ question: `Question ${i}?`, answer: `Answer ${i}.` }],
      });
    }
    const context = await browser.newContext({ viewport: { width: 375, height: 740 }, isMobile: true });
    const page = await signIn(context, owner);
    const pager = page.getByRole('navigation', { name: 'Pages' });
    await pager.getByText('1–20 of 23').waitFor();
    expect(await page.getByRole('list', { name: 'Sources' }).getByRole('listitem').count()).toBe(20);
    await pager.getByRole('button', { name: 'Next' }).click();
    await pager.getByText('21–23 of 23').waitFor();
    expect(await page.getByRole('list', { name: 'Sources' }).getByRole('listitem').count()).toBe(3);
    expect(await fitsWidth(page)).toBe(true);
    await shot(page, 'dashboard-phone-knowledge');
    await context.close();
  });

  it('shows a member the sources but offers no changes, which the API refuses anyway', async () => {
    const member = await signupUser(t, { name: 'Mo Member' });
    await addMember(t, ws, member, 'member');
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await signIn(context, member);
    await sourceItem(page, 'FAQ 22').waitFor();
    expect(await page.getByRole('heading', { name: 'Add knowledge' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Delete/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Re-sync/ }).count()).toBe(0);
    const id = await idOf('Help centre');
    for (const [method, url] of [
      ['DELETE', `/api/assistants/${assistant}/sources/${id}`],
      ['POST', `/api/assistants/${assistant}/sources/${id}/sync`],
    ] as const) {
      const res = await t.request({ method, url, headers: member.headers });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    await context.close();
  });

  it('speaks Spanish to an owner who chose it: headings, forms, counts, dates and the search', async () => {
    await addSource(t, owner, assistant, {
      type: 'text',
      name: 'Política de envíos',
      text: 'Enviamos cada tetera en dos días. '.repeat(300).trim(),
    });
    const language = accountLanguage(t, owner);
    expect((await language('es')).statusCode).toBe(200);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const page = await context.newPage();
      const errors = pageErrors(page);
      await page.goto(`${base}/signin`);
      await page.getByLabel('Email').fill(owner.email);
      await page.getByLabel('Password').fill(owner.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { level: 1, name: 'Kettle Co.' }).waitFor();
      await page.goto(`${base}/w/${ws}/assistants/${assistant}/knowledge`);
      await page.getByRole('heading', { level: 1, name: 'Conocimiento de Kettle helper' }).waitFor();
      const policy = page
        .getByRole('list', { name: 'Fuentes' })
        .getByRole('listitem')
        .filter({ hasText: 'Política de envíos' });
      await policy.locator('.badge', { hasText: 'lista' }).waitFor({ timeout: 30_000 });
      // 10,199 characters the Spanish way (grouped from five digits), passages counted, a Spanish date.
      const text = (await policy.textContent()) ?? '';
      expect(text).toContain('(Texto)');
      expect(text).toContain('10.199 caracteres');
      expect(text).toMatch(/\d+ fragmentos?/);
      expect(text).toMatch(/leída el \d{1,2} (ene|feb|mar|abr|may|jun|jul|ago|sept?|oct|nov|dic)\.? \d{4}/);
      await page.getByRole('heading', { name: 'Añadir conocimiento' }).waitFor();
      await page.getByRole('radio', { name: 'Archivos' }).check();
      await page.getByText(/hasta 1 MB cada uno/).waitFor();
      await page.getByRole('searchbox', { name: 'Pregunta de búsqueda' }).fill('tetera');
      await page.getByRole('button', { name: 'Buscar', exact: true }).click();
      await page
        .getByRole('list', { name: 'Resultados de la búsqueda' })
        .getByText(/relevancia para la pregunta: \d+\s%/)
        .first()
        .waitFor();
      expect(await checkPage(page, 'knowledge-es')).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
      await language(null);
    }
  });
});
