import { en } from '@parley/contract/widget-strings/en';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contacts, events, tickets, widgetFeedback, widgetSessions } from '../../src/db/schema/index.ts';
import { newId } from '../../src/lib/ids.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { createWorld, type World } from '../support/world.ts';
import { fromSite, NO_RATE_LIMIT, type Session, SITE, widgetAssistant, widgetChat } from './helpers.ts';

/** docs/widget.md "Form B: the path list", over the same sessions as Form A. */
let t: TestApp;
let w: World;
let asst: string;

beforeAll(async () => {
  t = await createTestApp(NO_RATE_LIMIT);
  w = await createWorld(t);
  asst = await widgetAssistant(
    t,
    w.owner,
    w.ws,
    { welcomeMessage: 'Welcome to Acme', leadFormEnabled: true, leadFormFields: ['email', 'company'] },
    { name: 'Acme Bot', welcomeMessage: 'ignored: the widget has its own' },
  );
});
afterAll(() => t.close());

async function createSession(assistantId = asst): Promise<Session> {
  const res = await fromSite(t, {
    method: 'POST',
    url: `/api/widget/${assistantId}/session`,
    payload: { metadata: { page: `${SITE}/`, userAgent: 'test' } },
  });
  expect(res.statusCode, res.body).toBe(201);
  const data = res.json().data;
  return { sessionId: data.sessionId, token: data.sessionToken };
}

describe('GET /api/widget/{assistantId}/config', () => {
  it('returns the public configuration (never the allowlist), with the CORS headers', async () => {
    const res = await fromSite(t, { method: 'GET', url: `/api/widget/${asst}/config` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(SITE);
    expect(res.json()).toEqual({
      data: {
        assistantName: 'Acme Bot',
        welcomeMessage: 'Welcome to Acme',
        primaryColor: '#4f46e5',
        position: 'bottom-right',
        leadFormEnabled: true,
        leadFormFields: ['email', 'company'],
        leadFormRequiredFields: [],
        // No business hours set: always open (docs/business-hours.md "Widget").
        teamOnline: true,
        nextOpenAt: null,
        // No languages sent, no Accept-Language: the workspace's default (docs/languages.md "Widget").
        language: 'en',
        direction: 'ltr',
        strings: en,
      },
    });
  });
});

describe('POST /api/widget/{assistantId}/session', () => {
  it('201 {sessionId, sessionToken}; works without a body; the token chats on the shared path', async () => {
    const s = await createSession();
    expect(s.sessionId).toMatch(/^wss_/);
    const bare = await fromSite(t, { method: 'POST', url: `/api/widget/${asst}/session` });
    expect(bare.statusCode, bare.body).toBe(201);
    const r = await widgetChat(t, asst, s, 'hello');
    expect(r.status).toBe(200);
    expect(r.text).toBe('Hello! How can I help you today?');
  });

  it('400 for unknown fields', async () => {
    const res = await fromSite(t, {
      method: 'POST',
      url: `/api/widget/${asst}/session`,
      payload: { admin: true },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'bad_request:api', details: { admin: 'Unknown field' } });
  });
});

describe('GET /api/widget/{assistantId}/history?sessionId=', () => {
  it('is the session history; the sessionId must be the token’s', async () => {
    const s = await createSession();
    await widgetChat(t, asst, s, 'hello');
    const res = await fromSite(t, {
      method: 'GET',
      url: `/api/widget/${asst}/history?sessionId=${s.sessionId}`,
      token: s.token,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((m: { role: string; content: string }) => [m.role, m.content])).toEqual([
      ['user', 'hello'],
      ['assistant', 'Hello! How can I help you today?'],
    ]);
    const other = await createSession();
    const wrong = await fromSite(t, {
      method: 'GET',
      url: `/api/widget/${asst}/history?sessionId=${other.sessionId}`,
      token: s.token,
    });
    expect(wrong.statusCode).toBe(401);
    const missing = await fromSite(t, { method: 'GET', url: `/api/widget/${asst}/history`, token: s.token });
    expect(missing.statusCode).toBe(400);
  });
});

describe('POST /api/widget/{assistantId}/lead and /feedback', () => {
  it('captures a lead (sessionId in the body): contact, link, lead.captured', async () => {
    const s = await createSession();
    const res = await fromSite(t, {
      method: 'POST',
      url: `/api/widget/${asst}/lead`,
      token: s.token,
      payload: { sessionId: s.sessionId, email: 'b-lead@example.com', customFields: { company: 'Initech' } },
    });
    expect(res.statusCode, res.body).toBe(201);
    const { contactId } = res.json().data;
    const [contact] = await t.ctx.db.select().from(contacts).where(eq(contacts.id, contactId));
    expect(contact).toMatchObject({ email: 'b-lead@example.com', customFields: { company: 'Initech' } });
    const [session] = await t.ctx.db.select().from(widgetSessions).where(eq(widgetSessions.id, s.sessionId));
    expect(session?.contactId).toBe(contactId);
    const captured = await t.ctx.db
      .select()
      .from(events)
      .where(and(eq(events.workspaceId, w.ws), eq(events.type, 'lead.captured')))
      .orderBy(asc(events.id));
    expect(captured.at(-1)?.data).toMatchObject({ sessionId: s.sessionId, contact: { id: contactId } });
  });

  it('takes feedback on the session or on a reply', async () => {
    const s = await createSession();
    const r = await widgetChat(t, asst, s, 'hello');
    const finish = r.events.at(-1) as { messageId: string };
    for (const payload of [
      { sessionId: s.sessionId, rating: 'positive' },
      { sessionId: s.sessionId, rating: 'negative', messageId: finish.messageId, comment: 'meh' },
    ]) {
      const res = await fromSite(t, {
        method: 'POST',
        url: `/api/widget/${asst}/feedback`,
        token: s.token,
        payload,
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().data.id).toMatch(/^fb_/);
    }
    const rows = await t.ctx.db
      .select()
      .from(widgetFeedback)
      .where(eq(widgetFeedback.sessionId, s.sessionId));
    expect(rows.map((f) => [f.rating, f.messageId, f.comment])).toEqual([
      ['up', null, null],
      ['down', finish.messageId, 'meh'],
    ]);
  });

  it('401 when the body names another session than the token', async () => {
    const s = await createSession();
    const other = await createSession();
    const res = await fromSite(t, {
      method: 'POST',
      url: `/api/widget/${asst}/feedback`,
      token: s.token,
      payload: { sessionId: other.sessionId, rating: 'positive' },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('unauthorized:widget');
  });
});

describe('POST /api/widget/tickets/create', () => {
  const create = (s: Session, body: Record<string, unknown>, assistantId = asst) =>
    fromSite(t, {
      method: 'POST',
      url: '/api/widget/tickets/create',
      token: s.token,
      payload: {
        assistantId,
        sessionId: s.sessionId,
        subject: 'Broken kettle',
        description: 'It leaks.',
        ...body,
      },
    });

  it('201 {ticketId}: linked to the conversation and the contact the email finds or creates', async () => {
    const s = await createSession();
    await widgetChat(t, asst, s, 'hello');
    const res = await create(s, { email: 'Ticket-Person@Example.com' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.headers['access-control-allow-origin']).toBe(SITE);
    const { ticketId } = res.json().data;
    expect(ticketId).toMatch(/^tkt_/);
    const [ticket] = await t.ctx.db.select().from(tickets).where(eq(tickets.id, ticketId));
    const [session] = await t.ctx.db.select().from(widgetSessions).where(eq(widgetSessions.id, s.sessionId));
    expect(ticket).toMatchObject({
      workspaceId: w.ws,
      subject: 'Broken kettle',
      description: 'It leaks.',
      status: 'open',
      conversationId: session?.conversationId,
      contactId: session?.contactId,
    });
    expect(ticket?.contactId).toMatch(/^ct_/);
    // Without email and without a lead, the ticket has no contact.
    const anon = await createSession();
    const second = await create(anon, {});
    expect(second.statusCode).toBe(201);
    const [t2] = await t.ctx.db.select().from(tickets).where(eq(tickets.id, second.json().data.ticketId));
    expect(t2?.contactId).toBeNull();
  });

  it('checks the body’s assistant: unknown 404, another assistant’s session 401, missing 400', async () => {
    const s = await createSession();
    const unknown = await create(s, {}, 'asst_nope');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('not_found:widget');
    const otherAsst = await widgetAssistant(t, w.owner, w.ws);
    const foreign = await create(s, {}, otherAsst);
    expect(foreign.statusCode).toBe(401);
    const missing = await fromSite(t, {
      method: 'POST',
      url: '/api/widget/tickets/create',
      token: s.token,
      payload: { sessionId: s.sessionId, subject: 'x', description: 'y' },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().details.assistantId).toBeDefined();
    const invalid = await create(s, { subject: '', email: 'not-an-email' });
    expect(invalid.statusCode).toBe(400);
    expect(Object.keys(invalid.json().details).sort()).toEqual(['email', 'subject']);
  });

  it('403 plan_limit_reached when the plan’s tickets are used up', async () => {
    const free = await widgetAssistant(t, w.freeOwner, w.freeWs);
    await t.ctx.db
      .insert(tickets)
      .values(
        Array.from({ length: 50 }, (_, i) => ({ id: newId('tkt'), workspaceId: w.freeWs, subject: `t${i}` })),
      );
    const s = await createSession(free);
    const res = await create(s, {}, free);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('plan_limit_reached');
  });
});
