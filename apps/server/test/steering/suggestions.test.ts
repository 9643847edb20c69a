import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { messages, suggestions } from '../../src/db/schema/index.ts';
import { widgetSweepStep } from '../../src/features/widget/widget.jobs.ts';
import { setClockOffset } from '../../src/lib/clock.ts';
import { chat } from '../chat/helpers.ts';
import { inbox } from '../inbox/helpers.ts';
import type { TestApp } from '../support/harness.ts';
import type { World } from '../support/world.ts';
import { fromSite, widgetChat } from '../widget/helpers.ts';
import { addRule } from './helpers.ts';
import {
  closeInInbox,
  leaveLead,
  listSuggestions,
  personReplies,
  startSuggestions,
  suggestionsOf,
  visitorSays,
} from './suggestions-setup.ts';

/**
 * docs/measuring.md "Suggestions": a closed conversation's questions that the AI declined, handed
 * off or answered weakly, with the reply of the person who answered them, masked; one a question
 * however often the conversation is closed. Accepting and dismissing: suggestions-accept.test.ts.
 */
let t: TestApp;
let w: World;
let asst: string;
beforeAll(async () => {
  ({ t, w, asst } = await startSuggestions());
});
afterAll(() => t.close());

const rowsOf = (conversationId: string) =>
  t.ctx.db.select().from(suggestions).where(eq(suggestions.conversationId, conversationId));

describe('a closed conversation that a person answered', () => {
  it('a declined question and the reply that followed become an open suggestion, masked', async () => {
    const { s, id } = await visitorSays(t, asst, [
      'Can I pay for order A-10023 by invoice? Call me on 030 1234567.',
    ]);
    const asked = await inbox(t, w.member, 'GET', `/${id}/messages?limit=100`);
    expect(asked.json().data.at(-1)).toMatchObject({ role: 'assistant', outcome: 'declined' });
    // The contact exists with the order number; the lead form matches it by email.
    const made = await t.request({
      method: 'POST',
      url: `/api/workspaces/${w.ws}/contacts`,
      headers: w.owner.headers,
      payload: { name: 'Ada Lovelace', email: 'ada@example.org', customFields: { orderNumber: 'A-10023' } },
    });
    expect(made.statusCode, made.body).toBe(201);
    await leaveLead(t, asst, s, { name: 'Ada Lovelace', email: 'ada@example.org', phone: '+4930123456' });
    await personReplies(
      t,
      w.member,
      id,
      'Hi Ada, yes: invoices are fine for A-10023. Questions? billing@shop.example.com or +1 (555) 123-4567. Payment within 30 days.',
    );
    expect(await suggestionsOf(t, w.owner, asst, id)).toEqual([]);
    await closeInInbox(t, w.member, id);
    const listed = await suggestionsOf(t, w.guest, asst, id);
    expect(listed).toEqual([
      {
        id: expect.stringMatching(/^sug_/),
        question: 'Can I pay for order [order number] by invoice? Call me on [phone].',
        answer:
          'Hi [name], yes: invoices are fine for [order number]. Questions? [email] or [phone]. Payment within 30 days.',
        conversationId: id,
        status: 'open',
        createdAt: expect.any(String),
      },
    ]);
    const [row] = await rowsOf(id);
    expect(row).toMatchObject({ workspaceId: w.ws, assistantId: asst, answerMessageId: expect.any(String) });
  });

  it('a question a handoff rule handed to a person', async () => {
    await addRule(t, w.owner, asst, {
      name: 'refunds',
      kind: 'handoff',
      text: 'To a person.',
      triggers: ['refund'],
    });
    const { id } = await visitorSays(t, asst, ['How do I get a refund for a broken kettle?']);
    const before = await inbox(t, w.member, 'GET', `/${id}/messages?limit=100`);
    expect(before.json().data.at(-1)).toMatchObject({ role: 'assistant', outcome: 'handoff' });
    await personReplies(t, w.member, id, 'Send it back with the form in the box; the refund takes 5 days.');
    await closeInInbox(t, w.member, id);
    expect(await suggestionsOf(t, w.owner, asst, id)).toMatchObject([
      {
        question: 'How do I get a refund for a broken kettle?',
        answer: 'Send it back with the form in the box; the refund takes 5 days.',
      },
    ]);
  });

  it('one person reply answers one question: follow-ups, greetings and requests for a person are none', async () => {
    const { id } = await visitorSays(t, asst, [
      'Hello',
      'Do you ship to Iceland?',
      'yes please',
      'I want to talk to a person',
    ]);
    await personReplies(t, w.member, id, 'Yes, we ship to Iceland for 20 EUR.');
    await personReplies(t, w.member, id, 'Anything else?');
    await closeInInbox(t, w.member, id);
    expect(await suggestionsOf(t, w.owner, asst, id)).toMatchObject([
      {
        question: 'Do you ship to Iceland?',
        answer: 'Yes, we ship to Iceland for 20 EUR.\n\nAnything else?',
      },
    ]);
  });

  it('a question asked while a person holds the conversation is none: the AI never answered it', async () => {
    const { s, id } = await visitorSays(t, asst, ['Is the Kettle Pro dishwasher safe?']);
    await personReplies(t, w.member, id, 'No, rinse it by hand.');
    // Handed off now: the visitor's next message waits for the person, the AI does not answer it.
    const r = await widgetChat(t, asst, s, 'Does the lid come off?');
    expect(r.status, r.res.body).toBe(200);
    await personReplies(t, w.member, id, 'Yes, it clicks off.');
    await closeInInbox(t, w.member, id);
    // Only the first: the AI never answered the second, so it neither declined nor handed it off.
    expect((await suggestionsOf(t, w.owner, asst, id)).map((x) => x.question)).toEqual([
      'Is the Kettle Pro dishwasher safe?',
    ]);
  });
});

describe('no suggestion', () => {
  it('when no person replied', async () => {
    const { id } = await visitorSays(t, asst, ['Do you sell gift cards?']);
    await closeInInbox(t, w.member, id);
    expect(await rowsOf(id)).toEqual([]);
  });

  it('for a question the AI answered at 0.5 or more; one below 0.5 is one', async () => {
    const { id } = await visitorSays(t, asst, ['What is the warranty on kettles?']);
    const [reply] = await t.ctx.db
      .select()
      .from(messages)
      .where(eq(messages.conversationId, id))
      .orderBy(messages.createdAt)
      .then((m) => m.filter((x) => x.role === 'assistant'));
    // The boundary exactly: the reply made an answer of 0.5, then 0.49 (the engine's own figures:
    // suggestions-confidence.test.ts).
    await t.ctx.db
      .update(messages)
      .set({ outcome: 'answered', confidence: 0.5 })
      .where(eq(messages.id, reply!.id));
    await personReplies(t, w.member, id, 'Two years.');
    await closeInInbox(t, w.member, id);
    expect(await rowsOf(id)).toEqual([]);

    const low = await visitorSays(t, asst, ['What is the warranty on toasters?']);
    const replies = await t.ctx.db.select().from(messages).where(eq(messages.conversationId, low.id));
    const ai = replies.find((m) => m.role === 'assistant')!;
    await t.ctx.db
      .update(messages)
      .set({ outcome: 'answered', confidence: 0.49 })
      .where(eq(messages.id, ai.id));
    await personReplies(t, w.member, low.id, 'One year.');
    await closeInInbox(t, w.member, low.id);
    expect(await suggestionsOf(t, w.owner, asst, low.id)).toMatchObject([
      { question: 'What is the warranty on toasters?', answer: 'One year.' },
    ]);
  });
});

describe('other ways a conversation closes', () => {
  it('the visitor ending the widget session', async () => {
    const { s, id } = await visitorSays(t, asst, ['Can I change my delivery address?']);
    await personReplies(t, w.member, id, 'Yes, until it ships.');
    const ended = await fromSite(t, {
      method: 'POST',
      url: `/api/widget/${asst}/sessions/${s.sessionId}/end`,
      token: s.token,
    });
    expect(ended.statusCode, ended.body).toBe(200);
    expect(await suggestionsOf(t, w.owner, asst, id)).toMatchObject([
      { question: 'Can I change my delivery address?', answer: 'Yes, until it ships.' },
    ]);
  });

  it('closed, reopened and closed again: no duplicate, the new question added', async () => {
    const first = await chat(t, w.admin, { assistantId: asst, content: 'Do you have a store in Oslo?' });
    expect(first.status).toBe(200);
    const id = first.conversationId!;
    await chat(t, w.admin, { assistantId: asst, conversationId: id, content: 'I want to talk to a person' });
    await personReplies(t, w.member, id, 'No store there; we deliver to Oslo.');
    await closeInInbox(t, w.member, id);
    await closeInInbox(t, w.member, id);
    expect((await suggestionsOf(t, w.owner, asst, id)).map((x) => x.question)).toEqual([
      'Do you have a store in Oslo?',
    ]);
    // Writing again reopens it; the AI declines the new question; a person answers; closed again.
    const again = await chat(t, w.admin, {
      assistantId: asst,
      conversationId: id,
      content: 'Do you deliver on Sundays?',
    });
    expect(again.status, again.res.body).toBe(200);
    await personReplies(t, w.member, id, 'No, Monday to Saturday.');
    await closeInInbox(t, w.member, id);
    expect((await suggestionsOf(t, w.owner, asst, id)).map((x) => [x.question, x.answer])).toEqual([
      ['Do you have a store in Oslo?', 'No store there; we deliver to Oslo.'],
      ['Do you deliver on Sundays?', 'No, Monday to Saturday.'],
    ]);
    expect(await rowsOf(id)).toHaveLength(2);
  });
});

describe('closed by inactivity', () => {
  afterEach(() => setClockOffset(0));

  it('the widget session idle past its timeout, ended by the widget-inactivity job', async () => {
    const { id } = await visitorSays(t, asst, ['Can I order a replacement filter?']);
    await personReplies(t, w.member, id, 'Yes, from the spare parts page.');
    setClockOffset(31 * 60_000);
    while (await widgetSweepStep(t.ctx)) {
      /* until no full batch remains */
    }
    expect(await suggestionsOf(t, w.owner, asst, id)).toMatchObject([
      { question: 'Can I order a replacement filter?', answer: 'Yes, from the spare parts page.' },
    ]);
  });
});

describe('the list', () => {
  it('newest first, paged, filtered by status; bad paging or status is a 400', async () => {
    const all = await listSuggestions(t, w.member, asst, 'limit=2&offset=1');
    expect(all.statusCode, all.body).toBe(200);
    const body = all.json();
    expect(body).toMatchObject({ limit: 2, offset: 1, total: expect.any(Number) });
    expect(body.total).toBeGreaterThanOrEqual(6);
    const every = (await listSuggestions(t, w.member, asst, 'limit=100')).json().data;
    const times = every.map((s: { createdAt: string }) => s.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect(body.data).toEqual(every.slice(1, 3));
    expect((await listSuggestions(t, w.member, asst, 'status=open')).json().total).toBe(body.total);
    expect((await listSuggestions(t, w.member, asst, 'status=dismissed')).json()).toMatchObject({
      data: [],
      total: 0,
    });
    for (const q of ['status=closed', 'status=', 'limit=0', 'limit=101', 'offset=-1', 'limit=abc']) {
      const res = await listSuggestions(t, w.member, asst, q);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().code).toBe('bad_request:api');
    }
  });
});
