import { and, asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contacts, conversations, events, widgetSessions } from '../../src/db/schema/index.ts';
import { newId } from '../../src/lib/ids.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { createWorld, type World } from '../support/world.ts';
import {
  fromSite,
  initWidget,
  NO_RATE_LIMIT,
  type Session,
  sessionUrl,
  widgetAssistant,
  widgetChat,
} from './helpers.ts';

/** docs/widget.md "Leads and feedback": the lead form (it links the session to a contact) and feedback. */
let t: TestApp;
let w: World;
let asst: string;

beforeAll(async () => {
  t = await createTestApp(NO_RATE_LIMIT);
  w = await createWorld(t);
  asst = await widgetAssistant(t, w.owner, w.ws, {
    leadFormEnabled: true,
    leadFormFields: ['name', 'email', 'phone', 'company', 'plan'],
    leadFormRequiredFields: ['email', 'company'],
  });
});
afterAll(() => t.close());

const lead = (s: Session, payload: Record<string, unknown>, assistantId = asst) =>
  fromSite(t, { method: 'POST', url: sessionUrl(assistantId, s, 'lead'), token: s.token, payload });

const eventsSince = async (workspaceId: string, since: number) =>
  (await t.ctx.db.select().from(events).where(eq(events.workspaceId, workspaceId)).orderBy(asc(events.id)))
    .slice(since)
    .map((e) => ({ type: e.type, data: e.data }));
const eventCount = async (workspaceId: string) =>
  (await t.ctx.db.select().from(events).where(eq(events.workspaceId, workspaceId))).length;

describe('lead form', () => {
  it('creates a contact, links the session and its conversation; contact.created + lead.captured', async () => {
    const s = await initWidget(t, asst);
    await widgetChat(t, asst, s, 'hello');
    const since = await eventCount(w.ws);
    const res = await lead(s, {
      name: 'Ada Lovelace',
      email: 'Ada@Example.com',
      phone: '+44 20 7946 0018',
      customFields: { company: 'Analytical Engines', plan: 'pro' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const { contactId } = res.json().data;
    expect(res.json()).toEqual({ data: { contactId: expect.stringMatching(/^ct_/) } });
    const [contact] = await t.ctx.db.select().from(contacts).where(eq(contacts.id, contactId));
    expect(contact).toMatchObject({
      workspaceId: w.ws,
      name: 'Ada Lovelace',
      email: 'Ada@Example.com',
      phone: '+442079460018',
      customFields: { company: 'Analytical Engines', plan: 'pro' },
      source: 'widget',
    });
    const [session] = await t.ctx.db.select().from(widgetSessions).where(eq(widgetSessions.id, s.sessionId));
    expect(session?.contactId).toBe(contactId);
    const [conv] = await t.ctx.db
      .select()
      .from(conversations)
      .where(eq(conversations.id, session?.conversationId as string));
    expect(conv?.contactId).toBe(contactId);
    const added = await eventsSince(w.ws, since);
    expect(added.map((e) => e.type)).toEqual(['contact.created', 'lead.captured']);
    expect(added[0]?.data).toMatchObject({ id: contactId, email: 'Ada@Example.com', source: 'widget' });
    expect(added[1]?.data).toMatchObject({
      sessionId: s.sessionId,
      assistantId: asst,
      contactCreated: true,
      contact: { id: contactId },
    });
  });

  it('matches an existing contact by email, case-insensitively: same id, contact.updated', async () => {
    const first = await lead(await initWidget(t, asst), {
      email: 'grace@example.com',
      customFields: { company: 'Navy' },
    });
    const s = await initWidget(t, asst);
    const since = await eventCount(w.ws);
    const again = await lead(s, {
      email: 'GRACE@EXAMPLE.COM',
      name: 'Grace Hopper',
      customFields: { company: 'US Navy' },
    });
    expect(again.statusCode).toBe(201);
    expect(again.json().data.contactId).toBe(first.json().data.contactId);
    expect((await eventsSince(w.ws, since)).map((e) => e.type)).toEqual(['contact.updated', 'lead.captured']);
    const [contact] = await t.ctx.db
      .select()
      .from(contacts)
      .where(eq(contacts.id, first.json().data.contactId));
    expect(contact).toMatchObject({ email: 'grace@example.com', name: 'Grace Hopper' });
    expect(contact?.customFields).toEqual({ company: 'US Navy' });
  });

  it('matches by phone when the email matches nobody, and adds the email', async () => {
    const phoneOnly = await fromSite(t, { method: 'POST', url: `/api/widget/${asst}/init`, payload: {} });
    const s1 = { sessionId: phoneOnly.json().data.sessionId, token: phoneOnly.json().data.sessionToken };
    // A form without the required email: configure a second assistant whose form needs only a phone.
    const phoneAsst = await widgetAssistant(t, w.owner, w.ws, {
      leadFormFields: ['phone'],
      leadFormRequiredFields: ['phone'],
    });
    const p = await initWidget(t, phoneAsst);
    const first = await lead(p, { phone: '+1 415 555 0100' }, phoneAsst);
    expect(first.statusCode, first.body).toBe(201);
    const second = await lead(s1, {
      email: 'new-person@example.com',
      phone: '+14155550100',
      customFields: { company: 'X' },
    });
    expect(second.json().data.contactId).toBe(first.json().data.contactId);
    const [contact] = await t.ctx.db
      .select()
      .from(contacts)
      .where(eq(contacts.id, first.json().data.contactId));
    expect(contact).toMatchObject({ phone: '+14155550100', email: 'new-person@example.com' });
  });

  it('400 for missing required fields, unknown custom keys, bad email or phone, unknown fields', async () => {
    const s = await initWidget(t, asst);
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{ name: 'No Email' }, ['customFields.company', 'email']],
      [{ email: 'a@example.com', customFields: { company: 'C', shoeSize: '44' } }, ['customFields.shoeSize']],
      [{ email: 'not-an-email', customFields: { company: 'C' } }, ['email']],
      [{ email: 'a@example.com', phone: '555-CALL-NOW', customFields: { company: 'C' } }, ['phone']],
      [{ email: 'a@example.com', customFields: { company: 'C' }, isAdmin: true }, ['isAdmin']],
      [{ email: 'a@example.com', customFields: { company: 42 } }, ['customFields.company']],
      [{ email: 'a@example.com', customFields: { company: '' } }, ['customFields.company']],
    ];
    for (const [payload, fields] of cases) {
      const res = await lead(s, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().code).toBe('bad_request:api');
      expect(Object.keys(res.json().details).sort(), JSON.stringify(payload)).toEqual(fields);
    }
    const [session] = await t.ctx.db.select().from(widgetSessions).where(eq(widgetSessions.id, s.sessionId));
    expect(session?.contactId).toBeNull();
  });

  it('a lead needs some way to reach the person when the form requires nothing', async () => {
    const open = await widgetAssistant(t, w.owner, w.ws, { leadFormFields: ['topic'] });
    const s = await initWidget(t, open);
    const res = await lead(s, { customFields: { topic: 'billing' } }, open);
    expect(res.statusCode).toBe(400);
    expect(res.json().details._).toBeDefined();
    expect((await lead(s, { name: 'Sam', customFields: { topic: 'billing' } }, open)).statusCode).toBe(201);
  });

  it('403 plan_limit_reached when a new contact would pass the plan quota; a match still works', async () => {
    const free = await widgetAssistant(t, w.freeOwner, w.freeWs);
    const rows = Array.from({ length: 100 }, (_, i) => ({
      id: newId('ct'),
      workspaceId: w.freeWs,
      email: `c${i}@example.com`,
    }));
    await t.ctx.db.insert(contacts).values(rows);
    const s = await initWidget(t, free);
    const res = await lead(s, { email: 'one-too-many@example.com' }, free);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({
      code: 'plan_limit_reached',
      details: { resource: 'contacts', limit: 100 },
    });
    const matched = await lead(s, { email: 'C7@example.com' }, free);
    expect(matched.statusCode).toBe(201);
    expect(matched.json().data.contactId).toBe(rows[7]?.id);
  });

  it('two sessions submitting one new email at once make one contact', async () => {
    const [a, b] = [await initWidget(t, asst), await initWidget(t, asst)];
    const payload = { email: 'race@example.com', customFields: { company: 'R' } };
    const [ra, rb] = await Promise.all([lead(a, payload), lead(b, payload)]);
    expect([ra.statusCode, rb.statusCode]).toEqual([201, 201]);
    expect(ra.json().data.contactId).toBe(rb.json().data.contactId);
    const found = await t.ctx.db
      .select()
      .from(contacts)
      .where(and(eq(contacts.workspaceId, w.ws), eq(contacts.email, 'race@example.com')));
    expect(found).toHaveLength(1);
  });
});

describe('feedback', () => {
  const feedback = (s: Session, payload: Record<string, unknown>) =>
    fromSite(t, { method: 'POST', url: sessionUrl(asst, s, 'feedback'), token: s.token, payload });

  it('on an AI reply of the session, or on the whole session: 201 {data: {id}}', async () => {
    const s = await initWidget(t, asst);
    const r = await widgetChat(t, asst, s, 'hello');
    const messageId = (r.events.at(-1) as { messageId: string }).messageId;
    const one = await feedback(s, { messageId, rating: 'positive', comment: 'Great 👍' });
    expect(one.statusCode, one.body).toBe(201);
    expect(one.json()).toEqual({ data: { id: expect.stringMatching(/^fb_/) } });
    expect((await feedback(s, { rating: 'negative' })).statusCode).toBe(201);
  });

  it('404 for the visitor’s own message, another session’s reply, or an unknown id', async () => {
    const s = await initWidget(t, asst);
    await widgetChat(t, asst, s, 'hello');
    const other = await initWidget(t, asst);
    const r = await widgetChat(t, asst, other, 'hello');
    const othersReply = (r.events.at(-1) as { messageId: string }).messageId;
    const history = await fromSite(t, {
      method: 'GET',
      url: sessionUrl(asst, s, 'messages'),
      token: s.token,
    });
    const own = history.json().data.find((m: { role: string }) => m.role === 'user').id;
    for (const messageId of [own, othersReply, 'msg_unknown']) {
      const res = await feedback(s, { messageId, rating: 'positive' });
      expect(res.statusCode, messageId).toBe(404);
    }
    const fresh = await initWidget(t, asst);
    expect((await feedback(fresh, { messageId: othersReply, rating: 'positive' })).statusCode).toBe(404);
  });

  it('400 for a missing or unknown rating, a long comment, unknown fields', async () => {
    const s = await initWidget(t, asst);
    for (const payload of [
      {},
      { rating: 'up' },
      { rating: 'positive', comment: 'x'.repeat(2001) },
      { rating: 'positive', stars: 5 },
      { rating: 'positive', messageId: 7 },
    ]) {
      const res = await feedback(s, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().code).toBe('bad_request:api');
    }
  });
});

it('contact events carry the contact shape of docs/contacts-and-tickets.md', async () => {
  const rows = await t.ctx.db
    .select()
    .from(events)
    .where(and(eq(events.workspaceId, w.ws), inArray(events.type, ['contact.created', 'contact.updated'])));
  expect(rows.length).toBeGreaterThan(0);
  for (const row of rows) {
    expect(Object.keys(row.data).sort()).toEqual(
      ['createdAt', 'customFields', 'email', 'id', 'labels', 'name', 'phone', 'source', 'updatedAt'].sort(),
    );
  }
});
