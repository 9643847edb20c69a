import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversations, widgetSessions } from '../../src/db/schema/index.ts';
import type { TestUser } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { createWorld, type World } from '../support/world.ts';
import {
  fromSite,
  initWidget,
  NO_RATE_LIMIT,
  sessionUrl,
  widgetAssistant,
  widgetChat,
} from '../widget/helpers.ts';

/**
 * docs/canned-responses.md: the workspace's canned responses (fields, the shortcut's uniqueness,
 * variables checked on save, search) and a reply sent by id, rendered for its conversation.
 */
let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await createTestApp(NO_RATE_LIMIT);
  w = await createWorld(t);
});
afterAll(() => t.close());

const base = () => `/api/workspaces/${w.ws}/canned-responses`;
const create = (payload: Record<string, unknown>, user: TestUser = w.owner, ws = w.ws) =>
  t.request({
    method: 'POST',
    url: `/api/workspaces/${ws}/canned-responses`,
    headers: user.headers,
    payload,
  });
const list = async (query = '') => {
  const r = await t.request({ method: 'GET', url: `${base()}${query}`, headers: w.member.headers });
  expect(r.statusCode, r.body).toBe(200);
  return r.json() as { data: Array<{ shortcut: string; title: string }>; total: number };
};

/** A widget conversation whose contact has `lead` (name, email, phone), handed to the inbox. */
async function conversationWith(lead: Record<string, string>) {
  const assistantId = await widgetAssistant(t, w.owner, w.ws);
  const s = await initWidget(t, assistantId);
  const captured = await fromSite(t, {
    method: 'POST',
    url: sessionUrl(assistantId, s, 'lead'),
    token: s.token,
    payload: lead,
  });
  expect(captured.statusCode, captured.body).toBe(201);
  await widgetChat(t, assistantId, s, 'Where is my order?');
  const [session] = await t.ctx.db.select().from(widgetSessions).where(eq(widgetSessions.id, s.sessionId));
  return session!.conversationId!;
}
const replyWith = (conversationId: string, payload: Record<string, unknown>, user: TestUser = w.owner) =>
  t.request({
    method: 'POST',
    url: `/api/inbox/conversations/${conversationId}/messages?workspaceId=${w.ws}`,
    headers: user.headers,
    payload,
  });

describe('canned responses', () => {
  it('create, read, change, delete; listed by shortcut; q finds shortcut or title in any case', async () => {
    const made = await create({
      shortcut: 'refund-time',
      title: 'How long refunds take',
      content: 'Refunds take 5 days.',
    });
    expect(made.statusCode, made.body).toBe(201);
    const c = made.json().data;
    expect(c).toMatchObject({
      shortcut: 'refund-time',
      title: 'How long refunds take',
      content: 'Refunds take 5 days.',
    });
    expect(c.id).toMatch(/^cnd_/);
    await create({ shortcut: 'a_hello', title: 'Grüße 👋', content: 'Hallo {{ contact.name }}!' });
    await create({ shortcut: '100pct', title: 'Discount of 100%', content: 'Free.' });
    expect((await list()).data.map((x) => x.shortcut)).toEqual(['100pct', 'a_hello', 'refund-time']);
    expect((await list('?q=REFUND')).data.map((x) => x.shortcut)).toEqual(['refund-time']);
    expect((await list('?q=gr%C3%BC')).data.map((x) => x.shortcut)).toEqual(['a_hello']);
    expect((await list('?q=%25')).data.map((x) => x.shortcut)).toEqual(['100pct']);
    expect((await list('?limit=1&offset=1')).data.map((x) => x.shortcut)).toEqual(['a_hello']);
    expect((await list()).total).toBe(3);

    const one = `${base()}/${c.id}`;
    const changed = await t.request({
      method: 'PATCH',
      url: one,
      headers: w.admin.headers,
      payload: { title: 'Refunds' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().data).toMatchObject({ title: 'Refunds', shortcut: 'refund-time' });
    const got = await t.request({ method: 'GET', url: one, headers: w.guest.headers });
    expect(got.json().data.title).toBe('Refunds');
    expect((await t.request({ method: 'DELETE', url: one, headers: w.owner.headers })).statusCode).toBe(204);
    expect((await t.request({ method: 'GET', url: one, headers: w.owner.headers })).statusCode).toBe(404);
  });

  it('a taken shortcut is a 409 on create and on change; another workspace may use it', async () => {
    expect((await create({ shortcut: 'dup', title: 'One', content: 'x' })).statusCode).toBe(201);
    const again = await create({ shortcut: 'dup', title: 'Two', content: 'y' });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('conflict:api');
    const other = await create({ shortcut: 'other', title: 'Other', content: 'z' });
    const clash = await t.request({
      method: 'PATCH',
      url: `${base()}/${other.json().data.id}`,
      headers: w.owner.headers,
      payload: { shortcut: 'dup' },
    });
    expect(clash.statusCode).toBe(409);
    const mine = await create({ shortcut: 'dup', title: 'Theirs', content: 'x' }, w.outsider, w.otherWs);
    expect(mine.statusCode, mine.body).toBe(201);
  });

  it('refuses unknown variables, bad shortcuts, wrong types, unknown fields and huge bodies, naming the field', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ shortcut: 'v', title: 'V', content: 'Hi {{contact.nickname}}' }, 'content'],
      [{ shortcut: 'v', title: 'V', content: 'Hi {{}}' }, 'content'],
      [{ shortcut: 'Has Space', title: 'V', content: 'x' }, 'shortcut'],
      [{ shortcut: 'é', title: 'V', content: 'x' }, 'shortcut'],
      [{ shortcut: 'x'.repeat(51), title: 'V', content: 'x' }, 'shortcut'],
      [{ shortcut: 'v', title: '', content: 'x' }, 'title'],
      [{ shortcut: 'v', title: 'V', content: 'x'.repeat(4001) }, 'content'],
      [{ shortcut: 'v', title: 'V', content: 42 }, 'content'],
      [{ shortcut: 'v', title: 'V', content: 'x', extra: true }, 'extra'],
    ];
    for (const [payload, field] of cases) {
      const r = await create(payload);
      expect(r.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(Object.keys(r.json().details ?? {}).join(','), JSON.stringify(payload).slice(0, 80)).toContain(
        field,
      );
    }
    const huge = await create({ shortcut: 'v', title: 'V', content: 'x'.repeat(2_000_000) });
    expect([400, 413]).toContain(huge.statusCode);
    expect((await list('?q=v')).data.filter((x) => x.shortcut === 'v')).toEqual([]);
  });
});

describe('a reply by canned response', () => {
  it('renders the variables for the conversation; a missing value is empty; the text is stored as given', async () => {
    const made = await create({
      shortcut: 'greet',
      title: 'Greeting',
      content:
        'Hi {{contact.name}} ({{contact.email}}, {{ contact.phone }}), {{agent.name}} of {{workspace.name}} here about {{conversation.id}}.',
    });
    const id = await conversationWith({ name: '<img src=x onerror=alert(1)>', email: 'ana@example.com' });
    const r = await replyWith(id, { cannedResponseId: made.json().data.id });
    expect(r.statusCode, r.body).toBe(201);
    const owner = await t.request({ method: 'GET', url: '/api/account', headers: w.owner.headers });
    const ws = await t.request({ method: 'GET', url: `/api/workspaces/${w.ws}`, headers: w.owner.headers });
    expect(r.json().data).toMatchObject({
      role: 'agent',
      content: `Hi <img src=x onerror=alert(1)> (ana@example.com, ), ${owner.json().data.name} of ${ws.json().data.name} here about ${id}.`,
    });
    // It was a reply like any other: the person took the conversation over.
    const [conv] = await t.ctx.db.select().from(conversations).where(eq(conversations.id, id));
    expect(conv).toMatchObject({ status: 'handoff', assigneeId: w.owner.id });
  });

  it("the reply box previews it rendered for the conversation; another workspace's is a 404", async () => {
    const made = await create({ shortcut: 'preview', title: 'Preview', content: 'Dear {{contact.name}},' });
    const theirs = await create(
      { shortcut: 'preview', title: 'T', content: 'Not yours' },
      w.outsider,
      w.otherWs,
    );
    const id = await conversationWith({ name: 'Dana', email: 'dana@example.com' });
    const url = (cannedId: string) =>
      `/api/inbox/conversations/${id}/canned-responses/${cannedId}?workspaceId=${w.ws}`;
    const r = await t.request({ method: 'GET', url: url(made.json().data.id), headers: w.member.headers });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().data).toMatchObject({ shortcut: 'preview', content: 'Dear Dana,' });
    const other = await t.request({
      method: 'GET',
      url: url(theirs.json().data.id),
      headers: w.member.headers,
    });
    expect(other.statusCode).toBe(404);
    // A preview changes nothing.
    const [conv] = await t.ctx.db.select().from(conversations).where(eq(conversations.id, id));
    expect(conv).toMatchObject({ status: 'open', assigneeId: null });
  });

  it("another workspace's canned response, both or neither field: 400, nothing sent, nothing changed", async () => {
    const theirs = await create(
      { shortcut: 'theirs', title: 'T', content: 'Not yours' },
      w.outsider,
      w.otherWs,
    );
    const id = await conversationWith({ email: 'bo@example.com' });
    const tries: Array<[Record<string, unknown>, string]> = [
      [{ cannedResponseId: theirs.json().data.id }, 'cannedResponseId'],
      [{ cannedResponseId: 'cnd_missing' }, 'cannedResponseId'],
      [{ content: 'Hi', cannedResponseId: theirs.json().data.id }, 'content'],
      [{}, 'content'],
    ];
    for (const [payload, field] of tries) {
      const r = await replyWith(id, payload);
      expect(r.statusCode, JSON.stringify(payload)).toBe(400);
      expect(r.json().details).toHaveProperty(field);
    }
    const [conv] = await t.ctx.db.select().from(conversations).where(eq(conversations.id, id));
    expect(conv).toMatchObject({ status: 'open', assigneeId: null });
  });

  it('one that renders empty for the conversation is a 400', async () => {
    const made = await create({ shortcut: 'phone-only', title: 'Phone', content: '{{contact.phone}}' });
    const id = await conversationWith({ email: 'cy@example.com' });
    const r = await replyWith(id, { cannedResponseId: made.json().data.id });
    expect(r.statusCode).toBe(400);
  });
});
