import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contacts, tickets } from '../../src/db/schema/index.ts';
import { newId } from '../../src/lib/ids.ts';
import type { TestUser } from '../support/factories.ts';
import type { TestApp } from '../support/harness.ts';
import { createWorld, type World } from '../support/world.ts';
import { checkPage, startDashboard } from './dashboard-helpers.ts';
import { hasChromium, pageErrors } from './helpers.ts';

/**
 * The contacts and tickets pages (docs/dashboard.md "Contacts and tickets") in Chromium against the
 * real server: search, create, edit, delete; ticket filters and changes, `closed` read-only; the
 * API's refusals said in words (a duplicate email, a full plan, a change to a closed ticket); a
 * guest offered nothing to change; the tickets page in Spanish (the account's language).
 */

if (!hasChromium) console.warn('Dashboard contacts and tickets tests skipped: /usr/bin/chromium is missing.');

let t: TestApp;
let base: string;
let browser: Browser;
let w: World;

beforeAll(async () => {
  if (!hasChromium) return;
  ({ t, base, browser } = await startDashboard());
  w = await createWorld(t);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

async function signedIn(user: TestUser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
  const value = user.cookie.slice(user.cookie.indexOf('=') + 1);
  await context.addCookies([{ name: 'parley.session-token', value, url: base }]);
  return { context, page: await context.newPage() };
}

describe.skipIf(!hasChromium)('contacts and tickets', { timeout: 120_000 }, () => {
  it('contacts: create, a duplicate email refused in words, search, edit, delete', async () => {
    const { context, page } = await signedIn(w.member);
    const errors = pageErrors(page);
    await page.goto(`${base}/w/${w.ws}/contacts`);
    await page.getByText('No contacts yet').waitFor();
    const form = page.getByRole('form', { name: 'Add a contact' });
    const list = page.getByRole('list', { name: 'Contacts' });

    // Nothing filled in: said before any request.
    await form.getByRole('button', { name: 'Add contact' }).click();
    await form.getByText('Give at least a name, an email or a phone number.').waitFor();

    await form.getByLabel('Name').fill('Ada');
    await form.getByLabel('Email').fill('ada@example.com');
    await form.getByLabel('Phone').fill('+1 (415) 555-0100');
    await form.getByRole('button', { name: 'Add contact' }).click();
    const ada = list.getByRole('listitem').filter({ hasText: 'ada@example.com' });
    await ada.waitFor();
    expect(await ada.textContent()).toContain('+14155550100');
    expect(await ada.textContent()).toContain('dashboard');
    expect(await form.getByLabel('Name').inputValue()).toBe('');

    // The same email in other letters: 409, said with what to do.
    await form.getByLabel('Name').fill('Someone else');
    await form.getByLabel('Email').fill('ADA@example.com');
    await form.getByRole('button', { name: 'Add contact' }).click();
    await form
      .getByText('Another contact already has this email. Search for it and edit that contact instead.')
      .waitFor();
    await form.getByLabel('Email').fill('grace@example.com');
    await form.getByRole('button', { name: 'Add contact' }).click();
    await list.getByText('Someone else').waitFor();
    await page.getByRole('heading', { name: 'All contacts (2)' }).waitFor();

    // Search.
    const search = page.getByRole('searchbox', { name: 'Search contacts' });
    await search.fill('ada');
    await search.press('Enter');
    await page.getByRole('heading', { name: 'Matching “ada” (1)' }).waitFor();
    await search.fill('nobody-like-this');
    await search.press('Enter');
    await page.getByText('No contact matches').waitFor();
    await search.fill('');
    await search.press('Enter');
    await page.getByRole('heading', { name: 'All contacts (2)' }).waitFor();
    expect(await checkPage(page, 'contacts')).toEqual([]);

    // Edit: the name changed, the phone cleared; an email another contact holds is refused.
    await ada.getByRole('button', { name: 'Edit Ada' }).click();
    const edit = page.getByRole('form', { name: 'Edit Ada' });
    await edit.getByLabel('Email').fill('grace@example.com');
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.getByText(/^Another contact already has this email/).waitFor();
    await edit.getByLabel('Email').fill('ada@example.com');
    await edit.getByLabel('Name').fill('Ada Lovelace');
    await edit.getByLabel('Phone').fill('');
    await edit.getByRole('button', { name: 'Save' }).click();
    const renamed = list.getByRole('listitem').filter({ hasText: 'Ada Lovelace' });
    await renamed.waitFor();
    expect(await renamed.textContent()).not.toContain('+1415');

    // Delete, after the question in place.
    await renamed.getByRole('button', { name: 'Delete Ada Lovelace' }).click();
    await renamed.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('heading', { name: 'All contacts (1)' }).waitFor();
    expect(await list.getByText('Ada Lovelace').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('tickets: create, change status, priority and assignee, filter, close for good (read-only after)', async () => {
    const { context, page } = await signedIn(w.member);
    const errors = pageErrors(page);
    await page.goto(`${base}/w/${w.ws}/tickets`);
    await page.getByText('No tickets yet').waitFor();
    const form = page.getByRole('form', { name: 'Open a ticket' });
    await form.getByLabel('Subject').fill('Kettle leaks');
    await form.getByLabel('Description').fill('Water on the counter after each use.');
    await form.getByLabel('Priority').selectOption('high');
    await form.getByLabel('Assignee').selectOption({ label: 'Admin' });
    await form.getByRole('button', { name: 'Open ticket' }).click();
    const ticket = page.getByRole('listitem', { name: 'Kettle leaks' });
    await ticket.waitFor();
    expect(await ticket.locator('.badge').allTextContents()).toEqual(['Open', 'High']);
    expect(await ticket.getByLabel('Assignee').inputValue()).toBe(w.admin.id);
    await form.getByLabel('Subject').fill('Lid squeaks');
    await form.getByRole('button', { name: 'Open ticket' }).click();
    await page.getByRole('listitem', { name: 'Lid squeaks' }).waitFor();

    // Changes, each saved at once.
    await ticket.getByLabel('Status').selectOption('pending');
    await expect.poll(() => ticket.locator('.badge').first().textContent()).toBe('Pending');
    await ticket.getByLabel('Priority').selectOption('urgent');
    await expect.poll(() => ticket.locator('.badge').nth(1).textContent()).toBe('Urgent');
    await ticket.getByLabel('Assignee').selectOption({ label: 'Member' });
    await expect.poll(() => ticket.getByLabel('Assignee').inputValue()).toBe(w.member.id);
    await ticket.getByLabel('Status').selectOption('resolved');
    await expect.poll(() => ticket.textContent()).toContain('resolved ');

    // Filters.
    const filters = page.getByRole('form', { name: 'Filters' });
    await filters.getByLabel('Status').selectOption('resolved');
    await page.getByRole('heading', { name: 'Matching tickets (1)' }).waitFor();
    await filters.getByLabel('Priority').selectOption('low');
    await page.getByText('No ticket matches these filters').waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.getByRole('heading', { name: 'All tickets (2)' }).waitFor();
    expect(await checkPage(page, 'tickets')).toEqual([]);

    // Close for good: asked first, then read-only.
    await ticket.getByRole('button', { name: 'Close ticket Kettle leaks' }).click();
    await ticket.getByRole('button', { name: 'Close for good' }).click();
    await ticket.getByText('Closed tickets are final and cannot be changed.').waitFor();
    expect(await ticket.getByRole('combobox').count()).toBe(0);
    expect(await ticket.textContent()).toContain('assigned to you');

    // A ticket closed elsewhere while this page shows it: the change is refused in words.
    const squeak = page.getByRole('listitem', { name: 'Lid squeaks' });
    await squeak.getByLabel('Status').waitFor();
    const other = (await t.ctx.db.select().from(tickets)).find((r) => r.subject === 'Lid squeaks');
    const closed = await t.request({
      method: 'PATCH',
      url: `/api/workspaces/${w.ws}/tickets/${other!.id}`,
      headers: w.owner.headers,
      payload: { status: 'closed' },
    });
    expect(closed.statusCode).toBe(200);
    await squeak.getByLabel('Priority').selectOption('low');
    await squeak.getByText('This ticket is closed; a closed ticket cannot be changed').waitFor();
    await squeak.getByText('Closed tickets are final and cannot be changed.').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a full plan is said in words, for contacts and for tickets', async () => {
    // The Free plan: 100 contacts and 50 tickets, already there.
    await t.ctx.db.insert(contacts).values(
      Array.from({ length: 100 }, (_, i) => ({
        id: newId('ct'),
        workspaceId: w.freeWs,
        name: `Customer ${i}`,
        source: 'api',
      })),
    );
    await t.ctx.db.insert(tickets).values(
      Array.from({ length: 50 }, (_, i) => ({
        id: newId('tkt'),
        workspaceId: w.freeWs,
        subject: `Old ${i}`,
      })),
    );
    const { context, page } = await signedIn(w.freeOwner);
    await page.goto(`${base}/w/${w.freeWs}/contacts`);
    const form = page.getByRole('form', { name: 'Add a contact' });
    await form.getByLabel('Name').fill('One too many');
    await form.getByRole('button', { name: 'Add contact' }).click();
    await form
      .getByText(
        "Plan limit reached: this workspace's plan includes 100 contacts. Delete some or upgrade the plan to add more.",
      )
      .waitFor();
    await page.goto(`${base}/w/${w.freeWs}/tickets`);
    const ticketForm = page.getByRole('form', { name: 'Open a ticket' });
    await ticketForm.getByLabel('Subject').fill('One too many');
    await ticketForm.getByRole('button', { name: 'Open ticket' }).click();
    await ticketForm.getByText(/^Plan limit reached: this workspace's plan includes 50 tickets\./).waitFor();
    await context.close();
  });

  it('a guest reads contacts and tickets and is offered nothing to change', async () => {
    const { context, page } = await signedIn(w.guest);
    const errors = pageErrors(page);
    await page.goto(`${base}/w/${w.ws}/contacts`);
    await page.getByRole('list', { name: 'Contacts' }).getByText('Someone else').waitFor();
    await page
      .getByText('Guests can read contacts; members, admins and owners add and change them.')
      .waitFor();
    expect(await page.getByRole('form', { name: 'Add a contact' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^(Edit|Delete)/ }).count()).toBe(0);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tickets' }).click();
    await page.getByRole('listitem', { name: 'Kettle leaks' }).waitFor();
    await page
      .getByText('Guests can read tickets; members, admins and owners open and change them.')
      .waitFor();
    expect(await page.getByRole('form', { name: 'Open a ticket' }).count()).toBe(0);
    expect(await page.getByRole('list', { name: 'Tickets' }).getByRole('combobox').count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Close ticket/ }).count()).toBe(0);
    expect(await checkPage(page, 'tickets-guest')).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('tickets in the account language (Spanish): words, badges and dates', async () => {
    const es = { method: 'PATCH', url: '/api/account', headers: w.member.headers } as const;
    expect((await t.request({ ...es, payload: { language: 'es' } })).statusCode).toBe(200);
    const { context, page } = await signedIn(w.member);
    const errors = pageErrors(page);
    await page.goto(`${base}/w/${w.ws}/tickets`);
    await page.getByRole('heading', { name: 'Todos los tickets (2)' }).waitFor();
    const ticket = page.getByRole('listitem', { name: 'Kettle leaks' });
    expect(await ticket.locator('.badge').allTextContents()).toEqual(['Cerrado', 'Urgente']);
    await ticket.getByText('Los tickets cerrados son definitivos y no se pueden modificar.').waitFor();
    // "Abierto el 27 nov 2026, 7:25 · resuelto el …": the dates in Spanish.
    expect(await ticket.getByText(/^Abierto el /).textContent()).toMatch(
      /\d{1,2} [a-z]{3,4}\.? \d{4}.* · resuelto el /,
    );
    const form = page.getByRole('form', { name: 'Abrir un ticket' });
    await form.getByLabel('Asunto').waitFor();
    await form.getByRole('option', { name: 'Urgente' }).waitFor({ state: 'attached' });
    await page.getByRole('form', { name: 'Filtros' }).getByLabel('Estado').waitFor();
    expect(await checkPage(page, 'tickets-es')).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
    await t.request({ ...es, payload: { language: null } });
  });
});
