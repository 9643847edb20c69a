import { eq } from 'drizzle-orm';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contacts, conversations } from '../../src/db/schema/index.ts';
import { newId } from '../../src/lib/ids.ts';
import type { TestUser } from '../support/factories.ts';
import type { TestApp } from '../support/harness.ts';
import { createWorld, type World } from '../support/world.ts';
import { checkPage, startDashboard } from './dashboard-helpers.ts';
import {
  answerTo,
  ask,
  hasChromium,
  pageErrors,
  type Site,
  shot,
  startSite,
  widget,
  widgetAssistant,
} from './helpers.ts';

/**
 * The inbox in the dashboard (docs/dashboard.md "Inbox"), in Chromium against the real server and
 * the built-in offline responder: a visitor in the widget on a customer's page (another origin)
 * and an agent in the dashboard talking live, the conversation view (authors, sources, tool steps),
 * filters, unread counts, "Load more", and a guest who only reads.
 */

if (!hasChromium) console.warn('Dashboard inbox tests skipped: /usr/bin/chromium is missing.');

const REFUNDS = 'Refunds reach your card within 5 business days.';

let t: TestApp;
let base: string;
let browser: Browser;
let site: Site;
let w: World;
let asst: string;

beforeAll(async () => {
  if (!hasChromium) return;
  ({ t, base, browser } = await startDashboard({ WIDGET_RATE_LIMIT_PER_MINUTE: '10000' }));
  w = await createWorld(t);
  asst = await widgetAssistant(t, w.owner, w.ws, [
    { question: 'How long do refunds take?', answer: REFUNDS },
  ]);
  site = await startSite(base);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await t?.close();
});

/** A browser context signed in as `user` (the API's session cookie), and its page. */
async function signedIn(user: TestUser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
  const value = user.cookie.slice(user.cookie.indexOf('=') + 1);
  await context.addCookies([{ name: 'parley.session-token', value, url: base }]);
  return { context, page: await context.newPage() };
}

/**
 * What went wrong on a dashboard page: console errors, uncaught exceptions, and answers of 400 or
 * more (a guest must not be sent a request that can only be a 403).
 */
function problems(page: Page): string[] {
  const found: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') found.push(`console error: ${m.text()}`);
  });
  page.on('pageerror', (e) => found.push(`uncaught: ${e.message}`));
  page.on('response', (r) => {
    if (r.status() >= 400) found.push(`${r.status()}: ${r.request().method()} ${r.url()}`);
  });
  return found;
}

/** Marks the page so a reload (which would lose the mark) is noticed. */
const markPage = (page: Page) => page.evaluate(() => Object.assign(window, { notReloaded: true }));
const stillSamePage = (page: Page) =>
  page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded === true);

/** The dashboard's messages of the open conversation. */
const thread = (page: Page) => page.getByRole('list', { name: 'Messages' });

describe.skipIf(!hasChromium)('the inbox', { timeout: 120_000 }, () => {
  it('a visitor and an agent talk live: the conversation appears, the agent takes over and replies, releases, the AI answers again', async () => {
    const { context: agentContext, page: agent } = await signedIn(w.member);
    const agentErrors = problems(agent);
    await agent.goto(`${base}/w/${w.ws}/inbox`);
    await agent.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();
    await agent.getByText('No conversations yet').waitFor();
    await markPage(agent);

    // The visitor, on the customer's website (another origin), asks the AI.
    const visitorContext = await browser.newContext({ viewport: { width: 1100, height: 800 } });
    const visitor = await visitorContext.newPage();
    const visitorErrors = pageErrors(visitor);
    const ui = widget(visitor);
    await visitor.goto(site.url(asst));
    await ui.launcher.click();
    await ui.panel.waitFor();
    await ask(visitor, 'How long do refunds take?');
    await answerTo(visitor, REFUNDS).waitFor();

    // It appears in the agent's inbox without a reload, unread.
    const row = agent.locator('.inbox-row', { hasText: 'How long do refunds take?' });
    await row.waitFor();
    expect(await stillSamePage(agent)).toBe(true);
    await expect.poll(() => row.locator('.unread-count').textContent()).toMatch(/^2/);
    expect(await row.textContent()).toContain('AI answering');
    expect(await row.textContent()).toContain('Website widget');
    expect(await row.textContent()).toContain('Kettle helper');
    await shot(agent, 'dashboard-inbox-list');

    // The conversation: the customer's question, the AI's answer with its source.
    await row.getByRole('link').click();
    await agent.getByRole('heading', { name: 'How long do refunds take?', level: 1 }).waitFor();
    const ai = thread(agent).locator('li.msg[data-role="assistant"]', { hasText: REFUNDS });
    await ai.waitFor();
    expect(await ai.locator('.who').textContent()).toContain('AI');
    expect(await ai.getByRole('list', { name: 'Sources' }).textContent()).toMatch(/^\[1\] \S/);
    const question = thread(agent).locator('li.msg[data-role="user"]');
    expect(await question.locator('.who').textContent()).toContain('Customer');
    expect(await agent.getByTestId('conversation-status').textContent()).toBe('AI answering');

    // Take over: the agent answers now.
    await agent.getByRole('button', { name: 'Take over' }).click();
    await expect.poll(() => agent.getByTestId('conversation-status').textContent()).toBe('Person answering');
    await agent.getByText('You are answering.').waitFor();
    expect(await agent.getByRole('combobox', { name: 'Assignee' }).inputValue()).toBe(w.member.id);
    // The visitor's open widget says at once that a person, named, is answering now.
    const person = visitor.locator('[data-parley-widget] div.person');
    await person.filter({ hasText: 'Member is answering' }).waitFor();

    const reply = 'Hi, this is Member from the team. Your refund was sent today.';
    await agent.getByRole('textbox', { name: 'Your reply' }).fill(reply);
    await agent.getByRole('button', { name: 'Send reply' }).click();
    const sent = thread(agent).locator('li.msg[data-role="agent"]', { hasText: reply });
    await sent.waitFor();
    expect(await sent.locator('.who').textContent()).toContain('Member');

    // The visitor's open widget shows the reply at once, from a person: named, with no thumbs.
    const agentReply = visitor.locator('[data-parley-widget] .msg.bot', { hasText: reply });
    await agentReply.waitFor();
    expect(await agentReply.locator('.who').textContent()).toBe('Member');
    expect(await agentReply.locator('.rate').count()).toBe(0);
    await shot(visitor, 'dashboard-inbox-widget-person');
    // The visitor writes: the agent sees it arrive live, and the AI does not answer it.
    const answersBefore = await ui.answers.count();
    await (await ask(visitor, 'Thank you, when will I see it?')).finished();
    await thread(agent).locator('li.msg[data-role="user"]', { hasText: 'when will I see it?' }).waitFor();
    expect(await ui.answers.count()).toBe(answersBefore);
    expect(await thread(agent).locator('li.msg[data-role="assistant"]').count()).toBe(1);
    await shot(agent, 'dashboard-inbox-conversation');

    // Release to the AI: the AI answers the next question again.
    await agent.getByRole('button', { name: 'Release to AI' }).click();
    await expect.poll(() => agent.getByTestId('conversation-status').textContent()).toBe('AI answering');
    await agent.getByText('The AI is answering.').waitFor();
    await expect.poll(() => person.isVisible()).toBe(false);
    await ask(visitor, 'How long do refunds take?');
    await expect.poll(() => answerTo(visitor, REFUNDS).count()).toBe(2);
    await expect
      .poll(() => thread(agent).locator('li.msg[data-role="assistant"]', { hasText: REFUNDS }).count())
      .toBe(2);
    expect(await stillSamePage(agent)).toBe(true);

    // Back in the list the conversation has no unread messages: it was open the whole time.
    await agent.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Inbox' }).click();
    await row.waitFor();
    expect(await row.locator('.unread-count').count()).toBe(0);

    // Close: the list shows it closed, and a new message from the visitor bumps the row.
    await row.getByRole('link').click();
    await agent.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => agent.getByTestId('conversation-status').textContent()).toBe('Closed');
    expect(await agent.getByRole('textbox', { name: 'Your reply' }).count()).toBe(0);
    await agent.getByText('This conversation is closed, so it takes no reply.').waitFor();
    // On the widget a closed conversation does not open again: the visitor starts a new chat.
    await agent
      .getByText('Closed. The customer’s chat has ended: if they write again, a new chat starts.')
      .waitFor();

    expect(agentErrors).toEqual([]);
    expect(visitorErrors).toEqual([]);
    await visitorContext.close();
    await agentContext.close();
  });

  it('tool steps in words, a ticket from the conversation, assigning, unread counts that follow new messages', async () => {
    const { context, page } = await signedIn(w.admin);
    await page.goto(`${base}/w/${w.ws}/inbox`);
    await page.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();
    await markPage(page);

    // A visitor asks for a person: the AI's request_human tool hands the conversation off.
    const visitorContext = await browser.newContext();
    const visitor = await visitorContext.newPage();
    const ui = widget(visitor);
    await visitor.goto(site.url(asst));
    await ui.launcher.click();
    await ask(visitor, 'I want to talk to a human please');
    await visitor.locator('[data-parley-widget] .msg.bot', { hasText: 'member of our team' }).waitFor();
    // Nobody has taken it yet: the visitor is told a person has been asked, not that one answers.
    await visitor
      .locator('[data-parley-widget] div.person', {
        hasText: 'A person from the team has been asked to answer',
      })
      .waitFor();

    const row = page.locator('.inbox-row', { hasText: 'talk to a human' });
    await row.waitFor();
    await expect.poll(() => row.locator('.badge').textContent()).toBe('Person asked for');
    expect(await row.textContent()).toContain('Unassigned');
    // The visitor saw two messages; the note that a person was asked for is not one of them.
    expect(await row.textContent()).toContain('2 messages');
    // Filters: status and assignee.
    await page.getByRole('combobox', { name: 'Status' }).selectOption('handoff');
    await page.waitForURL(/status=handoff/);
    await row.waitFor();
    expect(await page.locator('.inbox-row', { hasText: 'How long do refunds take?' }).count()).toBe(0);
    await page.getByRole('combobox', { name: 'Assignee' }).selectOption('unassigned');
    await row.waitFor();
    await page.getByRole('combobox', { name: 'Assignee' }).selectOption('me');
    await page.getByText('No conversation matches these filters').waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await row.waitFor();
    expect(await stillSamePage(page)).toBe(true);
    expect(await checkPage(page, 'inbox')).toEqual([]);

    await row.getByRole('link').click();
    const ai = thread(page).locator('li.msg[data-role="assistant"]');
    await ai.waitFor();
    // The tool step in words, the code name only in its tooltip.
    const step = ai.getByRole('list', { name: 'Tool steps' }).getByRole('listitem');
    expect(await step.textContent()).toBe('Asked for a person');
    expect(await step.getAttribute('title')).toBe('request_human');
    await page.getByText('A person has been asked for; nobody has taken it yet.').waitFor();
    expect(await page.getByTestId('conversation-status').textContent()).toBe('Person asked for');

    // Assign to the member, then take it: the assignee stays until changed.
    await page.getByRole('combobox', { name: 'Assignee' }).selectOption({ label: 'Member' });
    await page.getByText('Member is answering.').waitFor();
    await expect.poll(() => page.getByTestId('conversation-status').textContent()).toBe('Person answering');
    expect(await page.getByRole('button', { name: 'Take over' }).count()).toBe(0);
    await page.getByRole('combobox', { name: 'Assignee' }).selectOption('');
    await page.getByRole('button', { name: 'Take over' }).click();
    await page.getByText('You are answering.').waitFor();

    // A ticket from the conversation.
    await page.getByRole('button', { name: 'Create a ticket' }).click();
    const form = page.getByRole('form', { name: 'New ticket' });
    await form.getByLabel('Subject').fill('Refund not received');
    await form.getByLabel('Priority').selectOption('high');
    await form.getByRole('button', { name: 'Create ticket' }).click();
    const tickets = page.getByRole('list', { name: 'Tickets of this conversation' });
    await tickets.getByText('Refund not received').waitFor();
    expect(await tickets.textContent()).toContain('High');
    await tickets.getByRole('link', { name: 'Refund not received' }).click();
    await page.waitForURL(/\/tickets\?conversation=/);
    await page.getByRole('list', { name: 'Tickets' }).getByText('Refund not received').waitFor();
    expect(await checkPage(page, 'tickets-of-conversation')).toEqual([]);

    // Unread: the inbox counts messages since this user last had the conversation open.
    await page.goto(`${base}/w/${w.ws}/inbox`);
    await row.waitFor();
    expect(await row.locator('.unread-count').count()).toBe(0);
    await markPage(page);
    await ask(visitor, 'Are you there?');
    await expect.poll(() => row.locator('.unread-count').textContent()).toMatch(/^1/);
    expect(await stillSamePage(page)).toBe(true);
    // Another member has not opened it: every message counts for them.
    const other = await signedIn(w.owner);
    await other.page.goto(`${base}/w/${w.ws}/inbox`);
    const theirs = other.page.locator('.inbox-row', { hasText: 'talk to a human' });
    // Every message counts for them: the same number as the row's message count.
    await expect
      .poll(async () => {
        const text = (await theirs.textContent()) ?? '';
        return (await theirs.locator('.unread-count').textContent())?.startsWith(
          /(\d+) messages/.exec(text)?.[1] ?? 'none',
        );
      })
      .toBe(true);
    await other.context.close();
    await visitorContext.close();
    await context.close();
  });

  it('"Load more" pages through the list; a guest reads everything and is offered nothing to change', async () => {
    // 30 more conversations, older than the ones above.
    const at = Date.now() - 86_400_000;
    await t.ctx.db.insert(conversations).values(
      Array.from({ length: 30 }, (_, i) => ({
        id: newId('conv'),
        workspaceId: w.ws,
        assistantId: asst,
        channel: 'widget' as const,
        status: 'open' as const,
        title: `Old question ${i + 1}`,
        messageCount: 0,
        lastMessageAt: new Date(at - i * 60_000),
        createdAt: new Date(at - i * 60_000),
      })),
    );
    // The conversation the guest opens is linked to a contact: its card shows the customer.
    const [contact] = await t.ctx.db
      .insert(contacts)
      .values({ id: newId('ct'), workspaceId: w.ws, name: 'Ada Lovelace', email: 'ada@example.com' })
      .returning();
    await t.ctx.db
      .update(conversations)
      .set({ contactId: contact!.id })
      .where(eq(conversations.title, 'I want to talk to a human please'));
    const { context, page } = await signedIn(w.guest);
    const errors = problems(page);
    await page.goto(`${base}/w/${w.ws}/inbox`);
    const rows = page.locator('.inbox-row');
    await expect.poll(() => rows.count()).toBe(25);
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => rows.count()).toBe(32);
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
    expect(await rows.last().textContent()).toContain('Old question 30');

    // Read-only: the messages, but no reply box and no button the API would refuse.
    await page.locator('.inbox-row', { hasText: 'talk to a human' }).getByRole('link').click();
    await thread(page).locator('li.msg[data-role="assistant"]').first().waitFor();
    await page.getByText('Guests can read the inbox but not answer.').waitFor();
    for (const name of ['Take over', 'Release to AI', 'Close', 'Create a ticket', 'Send reply']) {
      expect(await page.getByRole('button', { name }).count(), name).toBe(0);
    }
    const view = page.locator('section.conversation');
    expect(await view.getByRole('textbox').count()).toBe(0);
    expect(await view.getByRole('combobox').count()).toBe(0);
    expect(await page.getByText(/^Assignee: /).textContent()).toBe('Assignee: Admin');
    const customer = page.getByRole('definition');
    expect(await customer.allTextContents()).toEqual(['Ada Lovelace', 'ada@example.com']);
    expect(await checkPage(page, 'inbox-conversation-guest')).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
