import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { widgetSessions } from '../../src/db/schema/index.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { createWorld, type World } from '../support/world.ts';
import {
  fromSite,
  initWidget,
  NO_RATE_LIMIT,
  type Session,
  SITE,
  sessionUrl,
  widgetAssistant,
  widgetChat,
} from './helpers.ts';

/** Hostile input on the public widget: always a 4xx in the error model, never a 500. */
let t: TestApp;
let w: World;
let asst: string;
let s: Session;

beforeAll(async () => {
  t = await createTestApp(NO_RATE_LIMIT);
  w = await createWorld(t);
  asst = await widgetAssistant(t, w.owner, w.ws, { leadFormFields: ['company'] });
  s = await initWidget(t, asst);
});
afterAll(() => t.close());

const raw = (url: string, payload: string, headers: Record<string, string> = {}) =>
  fromSite(t, {
    method: 'POST',
    url,
    token: s.token,
    headers: { 'content-type': 'application/json', ...headers },
    payload,
  });

describe('bodies', () => {
  it('malformed JSON, prototype keys and wrong content types are 400s', async () => {
    for (const payload of [
      '{"content": ',
      '[1,',
      '{"__proto__": {"x": 1}}',
      '{"constructor": {"prototype": {}}}',
    ]) {
      const res = await raw(`/api/widget/${asst}/chat`, payload);
      expect(res.statusCode, payload).toBe(400);
      expect(res.json().code).toMatch(/^bad_request:/);
    }
    const xml = await raw(sessionUrl(asst, s, 'lead'), '<lead/>', { 'content-type': 'application/xml' });
    expect(xml.statusCode).toBe(400);
  });

  it('a body over the limit is a 413 in the error model', async () => {
    const res = await raw(
      `/api/widget/${asst}/chat`,
      JSON.stringify({ sessionId: s.sessionId, content: 'x'.repeat(2 * 1024 * 1024) }),
    );
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe('payload_too_large:api');
    expect(res.headers['access-control-allow-origin']).toBe(SITE);
  });

  it('wrong types and unknown fields on every body are 400 with details', async () => {
    const cases: Array<[string, unknown]> = [
      [`/api/widget/${asst}/init`, { sessionId: 42 }],
      [`/api/widget/${asst}/init`, { sessionId: null, metadata: 'page' }],
      [`/api/widget/${asst}/init`, { sessionId: null, metadata: { page: 'x', cookie: 'y' } }],
      [`/api/widget/${asst}/init`, { sessionId: null, metadata: { page: 'x'.repeat(2001) } }],
      [`/api/widget/${asst}/init`, { sessionId: ['wss_x'] }],
      [sessionUrl(asst, s, 'lead'), { name: ['a'] }],
      [sessionUrl(asst, s, 'lead'), { name: 'x'.repeat(201) }],
      [sessionUrl(asst, s, 'lead'), { email: 'a@example.com', customFields: ['company'] }],
      [sessionUrl(asst, s, 'lead'), { email: 'a@example.com', customFields: { company: { nested: true } } }],
      [sessionUrl(asst, s, 'feedback'), { rating: true }],
      [sessionUrl(asst, s, 'feedback'), 'positive'],
    ];
    for (const [url, payload] of cases) {
      const res = await raw(url, JSON.stringify(payload));
      expect(res.statusCode, `${url} ${JSON.stringify(payload).slice(0, 60)}`).toBe(400);
      expect(res.json().code).toBe('bad_request:api');
    }
  });

  it('NUL characters are refused with a 400 naming the field', async () => {
    const chat = await widgetChat(t, asst, s, 'hi\u0000there');
    expect(chat.status).toBe(400);
    expect(chat.res.json()).toMatchObject({
      code: 'bad_request:chat',
      details: { content: expect.any(String) },
    });
    const lead = await raw(sessionUrl(asst, s, 'lead'), JSON.stringify({ name: 'A\u0000B' }));
    expect(lead.statusCode).toBe(400);
    expect(lead.json().details.name).toBeDefined();
  });
});

describe('unicode', () => {
  it('round-trips emoji, right-to-left text, combining marks and astral characters', async () => {
    const session = await initWidget(t, asst);
    const text = 'Bonjour 👋🏽 — مرحبا — e\u0301 — 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 — 日本語';
    const r = await widgetChat(t, asst, session, text);
    expect(r.status).toBe(200);
    const history = await fromSite(t, {
      method: 'GET',
      url: sessionUrl(asst, session, 'messages'),
      token: session.token,
    });
    expect(history.json().data[0].content).toBe(text);
    const lead = await fromSite(t, {
      method: 'POST',
      url: sessionUrl(asst, session, 'lead'),
      token: session.token,
      payload: { name: 'Zoë Ñandú 李', email: 'zoe@example.com', customFields: { company: 'Café ☕' } },
    });
    expect(lead.statusCode, lead.body).toBe(201);
  });
});

describe('ids, tokens and headers', () => {
  it('absurd ids in the path are a 404 or 401, never a 500', async () => {
    const long = 'a'.repeat(180);
    const res1 = await fromSite(t, { method: 'POST', url: `/api/widget/${long}/init`, payload: {} });
    expect(res1.statusCode).toBe(404);
    const res2 = await fromSite(t, {
      method: 'GET',
      url: `/api/widget/${asst}/sessions/${encodeURIComponent("' or 1=1 --")}/messages`,
      token: s.token,
    });
    expect(res2.statusCode).toBe(401);
    const res3 = await fromSite(t, { method: 'GET', url: `/api/widget/${asst}/sessions/%E0%A4%A/messages` });
    expect(res3.statusCode).toBeLessThan(500);
  });

  it('oversized or odd Authorization and Origin headers are refused cleanly', async () => {
    for (const authorization of [`Widget ${'x'.repeat(5000)}`, 'Widget \u00e9\u00e9\u00e9', 'widget', '']) {
      const res = await fromSite(t, {
        method: 'GET',
        url: sessionUrl(asst, s, 'messages'),
        headers: { authorization },
      });
      expect(res.statusCode, authorization.slice(0, 20)).toBe(401);
    }
    const res = await fromSite(t, {
      method: 'GET',
      url: `/api/widget/${asst}/config`,
      origin: `https://${'a'.repeat(5000)}.example`,
    });
    expect(res.statusCode).toBe(403);
  });

  it('a lowercase scheme word works (Authorization schemes are case-insensitive)', async () => {
    const res = await fromSite(t, {
      method: 'GET',
      url: sessionUrl(asst, s, 'messages'),
      headers: { authorization: `widget ${s.token}` },
    });
    expect(res.statusCode).toBe(200);
  });

  it('a session token is never stored in clear', async () => {
    const rows = await t.ctx.db.select().from(widgetSessions).where(eq(widgetSessions.assistantId, asst));
    for (const row of rows) expect(row.tokenHash).toMatch(/^[0-9a-f]{64}$/);
  });
});
