import { SCOPES } from '@parley/contract/scopes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chat } from '../chat/helpers.ts';
import { conversationOfSession, inbox } from '../inbox/helpers.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { expectLoneSurrogate, LONE, MARKER, storedAnywhere } from '../support/hostile-text.ts';
import { createWorld, insertApiKey, type World } from '../support/world.ts';
import {
  initWidget,
  NO_RATE_LIMIT,
  type Session,
  SITE,
  widgetAssistant,
  widgetChat,
} from '../widget/helpers.ts';

/**
 * The routes first found failing or silently changing text on a lone UTF-16 surrogate
 * (docs/decisions/0001-http-conventions.md "Hostile input never reaches the database as a 500"): each answers 400 naming the field,
 * and nothing of the request is stored anywhere. The generic sweep over every route is
 * test/conventions/lone-surrogates.test.ts.
 */
let t: TestApp;
let w: World;
let key: Record<string, string>;
let asst: string;
let session: Session;
let conversationId: string;
let contactId: string;

beforeAll(async () => {
  t = await createTestApp(NO_RATE_LIMIT);
  w = await createWorld(t);
  key = await insertApiKey(t, w.ws, [...SCOPES]);
  asst = await widgetAssistant(t, w.owner, w.ws);
  session = await initWidget(t, asst);
  expect((await widgetChat(t, asst, session, 'Where is my order?')).status).toBe(200);
  conversationId = await conversationOfSession(t, session);
  const contact = await v1('POST', '/contacts', { name: 'Ada', customFields: { plan: 'pro' } });
  expect(contact.statusCode, contact.body).toBe(201);
  contactId = contact.json().data.id;
});
afterAll(() => t.close());

const v1 = (method: 'POST' | 'PATCH', path: string, payload: object) =>
  t.request({ method, url: `/api/v1${path}`, headers: key, payload });

describe('a lone surrogate is a 400 naming the field, on the routes of issue 28', () => {
  it('POST /api/v1/messages', async () => {
    expectLoneSurrogate(await v1('POST', '/messages', { conversationId, content: LONE }), 'content');
  });

  it('POST /api/v1/contacts: custom field keys and values, and the name', async () => {
    expectLoneSurrogate(
      await v1('POST', '/contacts', { name: 'Bo', customFields: { [LONE]: 'gold' } }),
      `customFields.${LONE}`,
    );
    expectLoneSurrogate(
      await v1('POST', '/contacts', { name: 'Bo', customFields: { tier: LONE } }),
      'customFields.tier',
    );
    expectLoneSurrogate(await v1('POST', '/contacts', { name: LONE }), 'name');
  });

  it('PATCH /api/v1/contacts/{id}', async () => {
    expectLoneSurrogate(await v1('PATCH', `/contacts/${contactId}`, { name: LONE }), 'name');
    expectLoneSurrogate(
      await v1('PATCH', `/contacts/${contactId}`, { customFields: { plan: LONE } }),
      'customFields.plan',
    );
    const res = await t.request({ method: 'GET', url: `/api/v1/contacts/${contactId}`, headers: key });
    expect(res.json().data).toMatchObject({ name: 'Ada', customFields: { plan: 'pro' } });
  });

  it('an inbox reply', async () => {
    expect((await inbox(t, w.member, 'POST', `/${conversationId}/handoff`)).statusCode).toBe(200);
    const res = await inbox(t, w.member, 'POST', `/${conversationId}/messages`, { content: LONE });
    expectLoneSurrogate(res, 'content');
  });

  it("the public widget's chat: bad_request:chat, before any stream", async () => {
    const res = await widgetChat(t, asst, session, LONE);
    expectLoneSurrogate(res.res, 'content', 'bad_request:chat');
  });

  it('the internal chat: bad_request:chat instead of a stream ending in internal_server_error', async () => {
    const res = await chat(t, w.member, { assistantId: asst, content: `Hi ${LONE}` });
    expectLoneSurrogate(res.res, 'content', 'bad_request:chat');
    expect(res.conversationId).toBeUndefined();
  });

  it('ticket subjects and workspace names are refused, not changed to U+FFFD', async () => {
    const ticket = await t.request({
      method: 'POST',
      url: `/api/workspaces/${w.ws}/tickets`,
      headers: w.owner.headers,
      payload: { subject: LONE, priority: 'high' },
    });
    expectLoneSurrogate(ticket, 'subject');
    const created = await t.request({
      method: 'POST',
      url: '/api/workspaces',
      headers: w.owner.headers,
      payload: { name: LONE },
    });
    expectLoneSurrogate(created, 'name');
    const renamed = await t.request({
      method: 'PATCH',
      url: `/api/workspaces/${w.ws}`,
      headers: w.owner.headers,
      payload: { name: LONE },
    });
    expectLoneSurrogate(renamed, 'name');
  });

  it('at any depth, reported with the path Zod would give', async () => {
    let nested: unknown = [LONE];
    for (let i = 0; i < 200; i++) nested = [nested];
    const res = await v1('POST', '/contacts', { customFields: { deep: nested } });
    expectLoneSurrogate(res, `customFields.deep.${Array(201).fill('0').join('.')}`);
  });

  it('before the resources are looked up, like a parse error', async () => {
    const res = await v1('PATCH', '/contacts/ct_does-not-exist', { name: LONE });
    expectLoneSurrogate(res, 'name');
  });

  it('a body that is not UTF-8 (a lone surrogate written as raw bytes) is a 400, not U+FFFD', async () => {
    const raw = (text: string, bytes: number[]) => {
      const [before, after] = text.split('@');
      return Buffer.concat([Buffer.from(before ?? ''), Buffer.from(bytes), Buffer.from(after ?? '')]);
    };
    const headers = { 'content-type': 'application/json' };
    const contact = await t.request({
      method: 'POST',
      url: '/api/v1/contacts',
      headers: { ...key, ...headers },
      payload: raw(`{"name": "${MARKER}@"}`, [0xed, 0xa0, 0x80]),
    });
    expectLoneSurrogate(contact, '_', 'bad_request:api', /not valid UTF-8/);
    const widget = await t.request({
      method: 'POST',
      url: `/api/widget/${asst}/chat`,
      headers: { ...headers, origin: SITE, authorization: `Widget ${session.token}` },
      payload: raw(`{"content": "${MARKER}@", "sessionId": "${session.sessionId}"}`, [0xff]),
    });
    expectLoneSurrogate(widget, '_', 'bad_request:chat', /not valid UTF-8/);
    // Valid UTF-8 sent raw (not escaped) is read as is.
    const ok = await t.request({
      method: 'POST',
      url: '/api/v1/contacts',
      headers: { ...key, ...headers },
      payload: Buffer.from(JSON.stringify({ name: 'Zoë 🦜 raw' })),
    });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().data.name).toBe('Zoë 🦜 raw');
  });

  it('keeps well-formed text as sent: pairs (emoji), U+FFFD itself, other scripts', async () => {
    const name = `Zoë 李雷 🦜 \ufffd ${MARKER}-ok`;
    const res = await v1('POST', '/contacts', { name, customFields: { '🦜': '👍🏽' } });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ name, customFields: { '🦜': '👍🏽' } });
  });

  it('stored nothing of any refused request, anywhere', async () => {
    // The accepted contact above carries `${MARKER}-ok`; a refused request would carry MARKER + U+FFFD.
    expect(await storedAnywhere(t, `${MARKER}\ufffd`)).toEqual([]);
    expect(await storedAnywhere(t, MARKER)).toContain('contacts');
  });

  it("still reads the widget's bodyless POSTs sent as JSON as no body", async () => {
    const res = await t.request({
      method: 'POST',
      url: `/api/widget/${asst}/sessions/${session.sessionId}/end`,
      headers: { 'content-type': 'application/json', origin: SITE, authorization: `Widget ${session.token}` },
      payload: '',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.status).toBe('ended');
  });
});
