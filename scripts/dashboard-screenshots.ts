/**
 * Regenerates the README's "Screenshots" of the billing page, the notifications menu and the
 * inbox (and the analytics page, where the dashboard has one) from the real dashboard:
 *
 *   npx tsx scripts/dashboard-screenshots.ts
 *
 * Not part of the test suite. It builds the dashboard, starts the real app on a free port with an
 * in-memory PGlite database and the local Stripe stand-in (apps/server/test/support/stripe-server.ts)
 * as STRIPE_API_BASE, so the owner's upgrade buttons show; signs up, creates a workspace (a Pro
 * trial) and an assistant through the API, asks the assistant for a person (the inbox gets the
 * conversation) and spends credits up to 80% (the credit alert reaches the bell); gives the
 * assistant a source, a guidance rule, a curated answer and four tests and plays a test run;
 * then writes 1280×800 PNGs into docs/images/. Needs Debian's Chromium at /usr/bin/chromium (or the path in
 * CHROMIUM).
 */
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { buildApp } from '../apps/server/src/app.ts';
import { createContext, migrateDatabase } from '../apps/server/src/bootstrap.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { type Database, openDatabase } from '../apps/server/src/db/client.ts';
import { workspaceCredits } from '../apps/server/src/db/schema/index.ts';
import { startJobs } from '../apps/server/src/jobs/catalog.ts';
import { now } from '../apps/server/src/lib/clock.ts';
import { startStripeStandIn } from '../apps/server/test/support/stripe-server.ts';

const IMAGES = fileURLToPath(new URL('../docs/images/', import.meta.url));
const VIEWPORT = { width: 1280, height: 800 };

async function main() {
  const web = (await import(new URL('../apps/web/build.mjs', import.meta.url).href)) as {
    buildWeb(): Promise<void>;
  };
  await web.buildWeb();

  const stripe = await startStripeStandIn();
  const dataDir = mkdtempSync(join(tmpdir(), 'parley-shots-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
    STRIPE_PRICE_PRO: stripe.prices.pro,
    STRIPE_PRICE_ENTERPRISE: stripe.prices.enterprise,
    STRIPE_API_BASE: stripe.url,
  });
  const database = await openDatabase({ kind: 'pglite' });
  await migrateDatabase(database);
  const ctx = createContext(config, database);
  const app = await buildApp(ctx, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-zygote'],
  });
  try {
    const context = await browser.newContext({ viewport: VIEWPORT, colorScheme: 'light' });
    const page = await context.newPage();
    // The API with the page's own cookie (a same-origin request, as the dashboard makes).
    const api = async (path: string, body: unknown) => {
      const res = await page.request.post(`${base}${path}`, { data: body, headers: { origin: base } });
      if (!res.ok()) throw new Error(`${path}: ${res.status()} ${await res.text()}`);
      return (await res.json().catch(() => ({}))) as { data: { id: string } };
    };
    await page.goto(`${base}/signin`);
    await api('/api/auth/signup', {
      name: 'Ada Lovelace',
      email: 'ada@kettle.example',
      password: 'a long enough password',
    });
    const ws = (await api('/api/workspaces', { name: 'Kettle Co.' })).data.id;
    const assistant = (
      await api('/api/assistants', {
        workspaceId: ws,
        name: 'Kettle support',
        instructions: 'Answer customers of Kettle Co. kindly and briefly.',
      })
    ).data.id;

    // 958 of Pro's 1,200 credits spent; two chat messages bring it to 960 (80%: the alert).
    await setUsed(database.db, ws, 958);
    await api('/api/chat', { assistantId: assistant, content: 'I want to talk to a human, please' });
    await api('/api/chat', { assistantId: assistant, content: 'My kettle will not switch on.' });

    await page.goto(`${base}/w/${ws}/billing`);
    await page.getByRole('button', { name: 'Upgrade to Enterprise' }).waitFor();
    await page.getByRole('heading', { name: 'Invoices' }).waitFor();
    await settle(page);
    await save(page, 'dashboard-billing.png');

    await page.locator('details.bell summary').click();
    await page.getByRole('list', { name: 'Notifications' }).getByRole('listitem').first().waitFor();
    await page.mouse.move(0, 0);
    await save(page, 'dashboard-notifications.png');

    await page.goto(`${base}/w/${ws}/inbox`);
    await page.getByRole('heading', { level: 1, name: 'Inbox' }).waitFor();
    await page.getByRole('list', { name: 'Conversations' }).getByRole('listitem').first().waitFor();
    await settle(page);
    await save(page, 'dashboard-inbox.png');

    // The analytics page, where the dashboard has one.
    await page.goto(`${base}/w/${ws}/analytics`);
    const analytics = page.getByRole('heading', { level: 1, name: 'Analytics' });
    if (
      await analytics.waitFor({ timeout: 5_000 }).then(
        () => true,
        () => false,
      )
    ) {
      await page.waitForTimeout(1_000); // the charts' entry animation
      await settle(page);
      await save(page, 'dashboard-analytics.png');
    } else {
      console.log('no analytics page: dashboard-analytics.png not written');
    }

    // Steering: a source, a refuse rule, a curated answer and four tests, one of them failing;
    // a run played by the test-runs job, its results page (failed first).
    const steer = (path: string, body: unknown) => api(`/api/assistants/${assistant}/${path}`, body);
    const source = (
      await steer('sources', {
        type: 'text',
        name: 'Descaling',
        text: 'Descaling. Descale your kettle every four weeks with one part vinegar to two parts water.',
      })
    ).data.id;
    const jobs = startJobs(ctx, {
      only: ['ingestion', 'test-runs'],
      everyMs: { ingestion: 100, 'test-runs': 100 },
    });
    await waitUntil(
      async () =>
        (await get(page, base, `/api/assistants/${assistant}/sources/${source}`)).status === 'ready',
    );
    await steer('guidance', {
      name: 'No repairs advice',
      kind: 'refuse',
      text: 'For repairs, please contact an authorised repairer.',
      triggers: ['repair', 'fix'],
    });
    await steer('answers', {
      question: 'Do you ship abroad?',
      answer: 'We ship to every country in the EU, free above 50 euros.',
    });
    await steer('tests', {
      name: 'Descaling interval',
      turns: [{ content: 'How often should I descale my kettle?' }],
      expect: { contains: ['four weeks'], cites: [source] },
    });
    await steer('tests', {
      name: 'Shipping abroad',
      turns: [{ content: 'do you ship abroad' }],
      expect: { outcome: 'curated' },
    });
    await steer('tests', {
      name: 'No repair advice',
      turns: [{ content: 'Can you help me fix the switch?' }],
      expect: { outcome: 'declined' },
    });
    await steer('tests', {
      name: 'Warranty length',
      turns: [{ content: 'How long is the warranty?' }],
      expect: { contains: ['two years'] },
    });
    const run = (await api(`/api/assistants/${assistant}/test-runs`, {})).data.id;
    await waitUntil(
      async () => (await get(page, base, `/api/assistants/${assistant}/test-runs/${run}`)).status === 'done',
    );
    await jobs.stop(1000);
    await page.goto(`${base}/w/${ws}/assistants/${assistant}/tests/runs/${run}`);
    await page.getByText('Warranty length').first().waitFor();
    await settle(page);
    await save(page, 'dashboard-tests.png');
    await context.close();
  } finally {
    await browser.close();
    await app.close();
    await ctx.limits.close();
    await ctx.fanout.close();
    await database.close();
    await stripe.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The credit counter of the current month, set directly (the demo's starting point). */
async function setUsed(db: Database['db'], workspaceId: string, used: number) {
  const at = now();
  const row = {
    periodStart: new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1)),
    periodEnd: new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1)),
    used,
  };
  await db
    .insert(workspaceCredits)
    .values({ workspaceId, ...row })
    .onConflictDoUpdate({ target: workspaceCredits.workspaceId, set: row });
}

/** A resource's data, read with the page's cookie. */
async function get(page: Page, base: string, path: string) {
  const res = await page.request.get(`${base}${path}`, { headers: { origin: base } });
  return ((await res.json()) as { data: { status: string } }).data;
}

async function waitUntil(ready: () => Promise<boolean>, timeoutMs = 30_000) {
  const until = Date.now() + timeoutMs;
  while (!(await ready())) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 200));
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
  console.log(`wrote docs/images/${name} (${Math.round(statSync(path).size / 1024)} KB)`);
}

await main();
