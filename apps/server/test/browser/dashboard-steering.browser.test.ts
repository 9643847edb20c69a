import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { playRun } from '../../src/features/steering/test-runs.jobs.ts';
import { claimRun } from '../../src/features/steering/test-runs.repo.ts';
import type { StartedJobs } from '../../src/jobs/catalog.ts';
import { chat } from '../chat/helpers.ts';
import { addSource, drainIngestion } from '../knowledge/helpers.ts';
import { createAssistant, signupUser, type TestUser } from '../support/factories.ts';
import type { TestApp } from '../support/harness.ts';
import { addMember, insertWorkspace } from '../support/world.ts';
import { checkPage, fitsWidth, startDashboard } from './dashboard-helpers.ts';
import { hasChromium, pageErrors } from './helpers.ts';

/**
 * The steering pages of an assistant (docs/steering.md) in Chromium against the real server, the
 * offline responder and the real test-runs job: guidance rules (create, a 400 at its fields, the
 * 100-rule limit in words, turn off and on, edit), curated answers, tests (several messages, a
 * source to cite), "Run tests" (409 in words while one plays; a run followed until done, failed
 * tests first with their reasons, "newly failing" and "fixed" against the run before), a test
 * made from a conversation in the inbox, and "Handed off by rule: …" on a conversation a rule
 * handed over. A member reads without forms. axe in light and dark on each page.
 */

if (!hasChromium) console.warn('Steering browser tests skipped: /usr/bin/chromium is missing.');

let t: TestApp;
let base: string;
let browser: Browser;
let jobs: StartedJobs | undefined;
let owner: TestUser;
let member: TestUser;
let ws: string;
let assistant: string;
let returnsSource: string;

beforeAll(async () => {
  if (!hasChromium) return;
  ({ t, base, browser } = await startDashboard({ TEST_RUN_DELAY_SECONDS: '1' }));
  owner = await signupUser(t, { name: 'Ada Owner' });
  member = await signupUser(t, { name: 'Max Member' });
  ws = await insertWorkspace(t, owner, { name: 'Kettle Co.' });
  await addMember(t, ws, member, 'member');
  assistant = await createAssistant(t, owner, ws, { name: 'Kettle helper' });
  returnsSource = (
    await addSource(t, owner, assistant, {
      type: 'text',
      name: 'Returns policy',
      text: 'Returns policy. Unused kettles can be returned within 30 days for a full refund.',
    })
  ).id;
  await drainIngestion(t);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await jobs?.stop(2_000);
  await t?.close();
});

const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name });
const api = async (
  user: TestUser,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: Record<string, unknown>,
) => t.request({ method, url, headers: user.headers, ...(payload === undefined ? {} : { payload }) });
const at = (what: string) => `/api/assistants/${assistant}/${what}`;

async function signIn(context: BrowserContext, user: TestUser): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${base}/signin`);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await heading(page, 'Kettle Co.').waitFor();
  await page.goto(`${base}/w/${ws}/assistants/${assistant}/knowledge`);
  await heading(page, 'Knowledge of Kettle helper').waitFor();
  return page;
}

const tab = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Assistant' }).getByRole('link', { name, exact: true });
const item = (page: Page, list: string, name: string) =>
  page.getByRole('list', { name: list }).getByRole('listitem', { name, exact: true });

describe.skipIf(!hasChromium)('steering an assistant in the dashboard', { timeout: 180_000 }, () => {
  it('guidance, curated answers, tests and their runs, a test from a conversation, a rule’s handoff in the inbox', async () => {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      colorScheme: 'light',
    });
    const page = await signIn(context, owner);
    const errors = pageErrors(page);
    const axe: string[] = [];

    // Guidance: an empty form is refused by the API, its messages at the fields.
    await tab(page, 'Guidance').click();
    await heading(page, 'Guidance for Kettle helper').waitFor();
    await expect.poll(() => page.title()).toBe('Guidance · Kettle helper · Kettle Co. · Parley');
    await page.getByText('No rules yet').waitFor();
    const addRule = page.getByRole('form', { name: 'Add a rule' });
    await addRule.getByRole('button', { name: 'Add rule' }).click();
    await addRule
      .getByRole('alert')
      .getByText('Some fields are not valid: see the messages at each field.')
      .waitFor();
    expect(await addRule.locator('#rule-name-error').textContent()).not.toBe('');
    expect(await addRule.getByLabel('Name').getAttribute('aria-invalid')).toBe('true');

    // A handoff rule with two trigger phrases.
    await addRule.getByLabel('Name').fill('Refunds');
    await addRule.getByLabel('Kind').selectOption('handoff');
    await addRule.getByLabel('Text').fill('Refund requests go to a person.');
    await addRule.getByLabel('Trigger phrases, one per line').fill('refund\nmoney back\n');
    await addRule.getByRole('button', { name: 'Add rule' }).click();
    const refunds = item(page, 'Guidance rules', 'Refunds');
    await refunds.waitFor();
    expect(
      await refunds
        .getByRole('list', { name: 'Trigger phrases of Refunds' })
        .getByRole('listitem')
        .allTextContents(),
    ).toEqual(['refund', 'money back']);
    const rules = async () =>
      (await api(owner, 'GET', `${at('guidance')}?limit=100`)).json().data as Array<{
        id: string;
        name: string;
        kind: string;
        text: string;
        triggers: string[];
        enabled: boolean;
      }>;
    const rule = (await rules())[0]!;
    expect(rule).toMatchObject({
      name: 'Refunds',
      kind: 'handoff',
      triggers: ['refund', 'money back'],
      enabled: true,
    });

    // Off and on again.
    await refunds.getByLabel('Enabled').uncheck();
    await expect.poll(async () => (await rules())[0]?.enabled).toBe(false);
    await refunds.locator('.badge', { hasText: /^off$/ }).waitFor();
    await refunds.getByLabel('Enabled').check();
    await expect.poll(async () => (await rules())[0]?.enabled).toBe(true);

    // Edit.
    await refunds.getByRole('button', { name: 'Edit Refunds' }).click();
    const editRule = page.getByRole('form', { name: 'Edit “Refunds”' });
    await editRule.getByLabel('Text').fill('Refund requests always go to a person.');
    await editRule.getByRole('button', { name: 'Save rule' }).click();
    await refunds.getByText('Refund requests always go to a person.').waitFor();
    expect((await rules())[0]?.text).toBe('Refund requests always go to a person.');

    // The 100-rule limit, in words: 99 more through the API, then one more in the page.
    for (let i = 1; i < 100; i++) {
      const res = await api(owner, 'POST', at('guidance'), {
        name: `Tone ${i}`,
        kind: 'tone',
        text: 'Be brief.',
      });
      expect(res.statusCode).toBe(201);
    }
    await page.getByRole('form', { name: 'Add a rule' }).getByLabel('Name').fill('One too many');
    await page.getByRole('form', { name: 'Add a rule' }).getByLabel('Text').fill('Never stored.');
    await page.getByRole('form', { name: 'Add a rule' }).getByRole('button', { name: 'Add rule' }).click();
    await page
      .getByRole('alert')
      .getByText(
        'This assistant already has the most guidance rules it can have (at most 100). Delete one to add another.',
      )
      .waitFor();
    for (const r of (await rules()).filter((x) => x.name.startsWith('Tone '))) {
      expect((await api(owner, 'DELETE', `${at('guidance')}/${r.id}`)).statusCode).toBe(204);
    }
    await page.reload();
    await refunds.waitFor();
    expect(await page.getByRole('list', { name: 'Guidance rules' }).locator('> li').count()).toBe(1);
    axe.push(...(await checkPage(page, 'steering-guidance')));

    // Curated answers: add, edit, another added and deleted.
    await tab(page, 'Curated answers').click();
    await heading(page, 'Curated answers for Kettle helper').waitFor();
    const addAnswer = page.getByRole('form', { name: 'Add a curated answer' });
    await addAnswer.getByLabel('Question').fill('Do you have a shop in Paris?');
    await addAnswer.getByLabel('Answer', { exact: true }).fill('Yes, rue de Rivoli.');
    await addAnswer.getByLabel('Other phrasings, one per line').fill('Where is your Paris shop');
    await addAnswer.getByRole('button', { name: 'Add answer' }).click();
    const paris = item(page, 'Curated answers', 'Do you have a shop in Paris?');
    await paris.getByText('used 0 times').waitFor();
    await paris.getByText('Where is your Paris shop').waitFor();
    await addAnswer.getByLabel('Question').fill('Do you sell teapots?');
    await addAnswer.getByLabel('Answer', { exact: true }).fill('Not yet.');
    await addAnswer.getByRole('button', { name: 'Add answer' }).click();
    const teapots = item(page, 'Curated answers', 'Do you sell teapots?');
    await teapots.getByRole('button', { name: 'Edit Do you sell teapots?' }).click();
    const editAnswer = page.getByRole('form', { name: 'Edit the curated answer' });
    await editAnswer.getByLabel('Answer', { exact: true }).fill('Not yet, but soon.');
    await editAnswer.getByRole('button', { name: 'Save answer' }).click();
    await teapots.getByText('Not yet, but soon.').waitFor();
    axe.push(...(await checkPage(page, 'steering-answers')));
    await teapots.getByRole('button', { name: 'Delete Do you sell teapots?' }).click();
    await teapots.getByRole('button', { name: 'Delete answer' }).click();
    await teapots.waitFor({ state: 'detached' });
    const answers = (await api(owner, 'GET', at('answers'))).json().data as Array<{
      id: string;
      question: string;
    }>;
    expect(answers.map((a) => a.question)).toEqual(['Do you have a shop in Paris?']);

    // Tests: three, one of two messages citing a source.
    await tab(page, 'Tests').click();
    await heading(page, 'Tests for Kettle helper').waitFor();
    await page.getByText('No tests yet').waitFor();
    const addTest = page.getByRole('form', { name: 'Add a test' });
    await addTest.getByLabel('Name').fill('paris shop');
    await addTest.getByLabel('Message 1', { exact: true }).fill('do you have a shop in paris');
    await addTest.getByLabel('Outcome').selectOption('curated');
    await addTest.getByLabel('Contains, one phrase per line').fill('Rivoli');
    await addTest.getByRole('button', { name: 'Add test' }).click();
    await item(page, 'Tests', 'paris shop').waitFor();
    await addTest.getByLabel('Name').fill('delivery promise');
    await addTest.getByLabel('Message 1', { exact: true }).fill('Hello');
    await addTest.getByRole('button', { name: 'Add a message' }).click();
    await addTest.getByLabel('Message 2', { exact: true }).fill('Can I return a kettle?');
    await addTest.getByLabel('Contains, one phrase per line').fill('tomorrow');
    await addTest.getByLabel('Returns policy').check();
    await addTest.getByRole('button', { name: 'Add test' }).click();
    const delivery = item(page, 'Tests', 'delivery promise');
    await delivery.getByText('Contains: “tomorrow”').waitFor();
    await delivery.getByText('Cites: Returns policy').waitFor();
    await addTest.getByLabel('Name').fill('no legal advice');
    await addTest.getByLabel('Message 1', { exact: true }).fill('Do I need a lawyer?');
    await addTest.getByLabel('Outcome').selectOption('declined');
    // The offline responder's "I don't know" is declined too: the words make the difference.
    await addTest.getByLabel('Contains, one phrase per line').fill('legal advice');
    await addTest.getByRole('button', { name: 'Add test' }).click();
    await item(page, 'Tests', 'no legal advice').waitFor();
    const tests = (await api(owner, 'GET', at('tests'))).json().data as Array<{
      id: string;
      name: string;
      turns: unknown;
      expect: unknown;
    }>;
    expect(tests.find((x) => x.name === 'delivery promise')).toMatchObject({
      turns: [{ content: 'Hello' }, { content: 'Can I return a kettle?' }],
      expect: { contains: ['tomorrow'], cites: [returnsSource] },
    });

    // While a run plays (claimed here, not yet played), "Run tests" is a 409 said in words.
    expect((await api(owner, 'POST', at('test-runs'))).statusCode).toBe(202);
    const first = await claimRun(t.ctx.db, 60_000);
    expect(first).toBeDefined();
    await page.getByRole('button', { name: 'Run tests' }).click();
    await page
      .getByRole('alert')
      .getByText('A run is already playing: wait for it to finish, then run the tests again.')
      .waitFor();
    await playRun(t.ctx, first!);

    // Between the two runs: the Paris answer changes (that test now fails), a refuse rule is
    // added (the legal test now passes). Then a run through the job, followed until done.
    const parisId = answers[0]!.id;
    expect(
      (await api(owner, 'PATCH', `${at('answers')}/${parisId}`, { answer: 'Yes, on the Champs-Élysées.' }))
        .statusCode,
    ).toBe(200);
    expect(
      (
        await api(owner, 'POST', at('guidance'), {
          name: 'No legal advice',
          kind: 'refuse',
          text: 'I cannot give legal advice.',
          triggers: ['lawyer'],
        })
      ).statusCode,
    ).toBe(201);
    await page.reload();
    await page.getByRole('list', { name: 'Test runs' }).getByText('1 passed, 2 failed').waitFor();
    await page.getByRole('button', { name: 'Run tests' }).click();
    await heading(page, 'Test run for Kettle helper').waitFor();
    jobs = t.startJobs(['test-runs'], { 'test-runs': 100 });
    await page.getByText('1 passed, 2 failed.').waitFor({ timeout: 30_000 });
    await page.getByText('Since the previous run: 1 newly failing, 1 fixed.').waitFor();
    const results = page.getByRole('list', { name: 'Results' }).locator('> li');
    expect(await results.count()).toBe(3);
    // Failed first, each with its reply, what was expected and the reasons.
    const top = results.nth(0);
    expect(await top.getAttribute('aria-label')).toBe('delivery promise');
    await top
      .getByRole('list', { name: 'Reasons' })
      .getByText('The reply does not contain "tomorrow".')
      .waitFor();
    await top.getByRole('heading', { name: 'Reply' }).waitFor();
    await top.getByText('Contains: “tomorrow”').waitFor();
    const second = results.nth(1);
    expect(await second.getAttribute('aria-label')).toBe('paris shop');
    await second.locator('.badge', { hasText: 'newly failing' }).waitFor();
    await second.getByText('Yes, on the Champs-Élysées.').waitFor();
    await second.getByText('The reply does not contain "Rivoli".').waitFor();
    const third = results.nth(2);
    expect(await third.getAttribute('aria-label')).toBe('no legal advice');
    await third.locator('.badge', { hasText: 'fixed' }).waitFor();
    await expect.poll(() => page.title()).toBe('Test run · Kettle helper · Kettle Co. · Parley');
    axe.push(...(await checkPage(page, 'steering-test-run')));
    await page.getByRole('link', { name: 'All tests and runs' }).click();
    await heading(page, 'Tests for Kettle helper').waitFor();
    await page.getByRole('list', { name: 'Test runs' }).getByRole('listitem').nth(1).waitFor();
    axe.push(...(await checkPage(page, 'steering-tests')));

    // A conversation a rule hands over: "Handed off by rule: Refunds" in the inbox, and a test from it.
    const handed = await chat(t, owner, { assistantId: assistant, content: 'I want a refund for my kettle' });
    expect(handed.status).toBe(200);
    const conversationId = handed.conversationId!;
    await page.goto(`${base}/w/${ws}/inbox/${conversationId}`);
    await page
      .getByTestId('handoff-rule')
      .getByText('Handed off by rule: Refunds', { exact: true })
      .waitFor();
    await page.getByRole('button', { name: 'Make a test from this conversation' }).click();
    const made = page.getByRole('status').filter({ hasText: 'Test made:' });
    await made.waitFor();
    axe.push(...(await checkPage(page, 'steering-inbox-conversation')));
    await made.getByRole('link').click();
    await heading(page, 'Test for Kettle helper').waitFor();
    const madeForm = page.locator('form.st-form');
    expect(await madeForm.getByLabel('Message 1', { exact: true }).inputValue()).toBe(
      'I want a refund for my kettle',
    );
    expect(await madeForm.getByLabel('Outcome').inputValue()).toBe('handoff');
    await madeForm.getByLabel('Name').fill('refunds go to a person');
    await madeForm.getByRole('button', { name: 'Save test' }).click();
    await heading(page, 'Tests for Kettle helper').waitFor();
    await item(page, 'Tests', 'refunds go to a person').getByText('Outcome: Handed to a person').waitFor();
    axe.push(...(await checkPage(page, 'steering-test')));

    // The rule deleted: the inbox still says a rule handed it over, without the name it cannot read.
    expect((await api(owner, 'DELETE', `${at('guidance')}/${rule.id}`)).statusCode).toBe(204);
    await page.goto(`${base}/w/${ws}/inbox/${conversationId}`);
    await page.getByTestId('handoff-rule').getByText('Handed off by rule', { exact: true }).waitFor();

    expect(axe).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a member reads the rules, answers, tests and runs, with no form or button to change them', async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 800 }, colorScheme: 'light' });
    const page = await signIn(context, member);
    const errors = pageErrors(page);
    await tab(page, 'Guidance').click();
    await item(page, 'Guidance rules', 'No legal advice').waitFor();
    expect(await page.locator('form.st-form').count()).toBe(0);
    expect(await page.getByRole('button', { name: /^(Edit|Delete)/ }).count()).toBe(0);
    expect(await fitsWidth(page)).toBe(true);
    await tab(page, 'Curated answers').click();
    await item(page, 'Curated answers', 'Do you have a shop in Paris?').waitFor();
    expect(await page.locator('form.st-form').count()).toBe(0);
    await tab(page, 'Tests').click();
    await item(page, 'Tests', 'paris shop').waitFor();
    await page.getByRole('list', { name: 'Test runs' }).getByRole('listitem').first().waitFor();
    expect(await page.getByRole('button', { name: 'Run tests' }).count()).toBe(0);
    expect(await page.locator('form.st-form').count()).toBe(0);
    expect(await fitsWidth(page)).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });
});
