import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events } from '../../src/db/schema/index.ts';
import { inbox, openSse } from '../inbox/helpers.ts';
import { type InboxApp, startInbox, visitorOf } from '../inbox/setup.ts';
import { addRule } from '../steering/helpers.ts';
import type { TestUser } from '../support/factories.ts';
import { initWidget, type Session, SITE, widgetChat } from '../widget/helpers.ts';

/**
 * docs/csat.md "In the widget": when a conversation a person replied to closes and the workspace
 * asks, the widget's `ended` event carries the question and the visitor rates it once, 1 to 5,
 * with `POST /api/widget/{assistantId}/csat`; the conversation carries the rating and
 * `conversation.rated` is recorded.
 */
let app: InboxApp;
const TRIGGER = 'a human please';

beforeAll(async () => {
  app = await startInbox();
  await addRule(app.t, app.w.owner, app.asst, {
    name: 'people',
    kind: 'handoff',
    text: 'A person.',
    triggers: [TRIGGER],
  });
  const r = await settings(app.w.owner, { csat: { enabled: true, question: 'How did we do?' } });
  expect(r.statusCode, r.body).toBe(200);
});
afterAll(() => app.t.close());

const settings = (user: TestUser, body?: Record<string, unknown>) =>
  app.t.request({
    method: body ? 'PUT' : 'GET',
    url: `/api/workspaces/${app.w.ws}/inbox-settings`,
    headers: user.headers,
    ...(body ? { payload: body } : {}),
  });

const rate = (s: Session, payload: unknown, assistantId = app.asst) =>
  app.t.request({
    method: 'POST',
    url: `/api/widget/${assistantId}/csat`,
    headers: { origin: SITE, authorization: `Widget ${s.token}` },
    payload: payload as Record<string, unknown>,
  });

/** A widget conversation a person answered, its stream open; returns the session, id and stream. */
async function answeredByPerson() {
  const { s, id } = await visitorOf(app.t, app.asst, TRIGGER);
  const stream = await openSse(`${app.base}/api/widget/${app.asst}/sessions/${s.sessionId}/events`, {
    origin: SITE,
    authorization: `Widget ${s.token}`,
  });
  expect((await inbox(app.t, app.w.member, 'POST', `/${id}/handoff`)).statusCode).toBe(200);
  const replied = await inbox(app.t, app.w.member, 'POST', `/${id}/messages`, { content: 'Here to help.' });
  expect(replied.statusCode, replied.body).toBe(201);
  return { s, id, stream };
}

describe('the survey in the widget', () => {
  it('settings: the question is part of the inbox settings; 1-200 characters', async () => {
    expect((await settings(app.w.guest)).json().data.csat).toEqual({
      enabled: true,
      question: 'How did we do?',
    });
    for (const question of ['', '   ', 'x'.repeat(201), 5]) {
      expect((await settings(app.w.owner, { csat: { question } })).statusCode).toBe(400);
    }
    expect((await settings(app.w.owner, { csat: { enabled: 'yes' } })).statusCode).toBe(400);
    expect((await settings(app.w.owner, { csat: { enabled: true, extra: 1 } })).statusCode).toBe(400);
    expect((await settings(app.w.member, { csat: { enabled: false } })).statusCode).toBe(403);
    expect((await settings(app.w.owner)).json().data.csat).toEqual({
      enabled: true,
      question: 'How did we do?',
    });
  });

  it('closed after a person replied: `ended` asks; the rating is stored once, carried and recorded', async () => {
    const { s, id, stream } = await answeredByPerson();
    expect((await rate(s, { rating: 5 })).statusCode).toBe(409); // not closed yet
    await inbox(app.t, app.w.member, 'POST', `/${id}/close`);
    expect(await stream.until((e) => e.type === 'ended')).toEqual({
      type: 'ended',
      csat: { question: 'How did we do?' },
    });
    const r = await rate(s, { rating: 4, comment: '  Quick and kind 👍  ' });
    expect(r.statusCode, r.body).toBe(201);
    // The widget on the site reads the answer: CORS for its origin, as on every widget route.
    expect(r.headers['access-control-allow-origin']).toBe(SITE);
    expect(r.json().data).toEqual({ rating: 4, comment: 'Quick and kind 👍', ratedAt: expect.any(String) });
    const again = await rate(s, { rating: 1 });
    expect(again.statusCode).toBe(409);
    expect(again.headers['access-control-allow-origin']).toBe(SITE);
    const c = (await inbox(app.t, app.w.guest, 'GET', `/${id}`)).json().data;
    expect(c.csat).toEqual(r.json().data);
    const rated = (
      await app.t.ctx.db.select().from(events).where(eq(events.type, 'conversation.rated'))
    ).filter((e) => (e.data as { conversationId: string }).conversationId === id);
    expect(rated).toHaveLength(1);
    expect(rated[0]!.data).toMatchObject({
      rating: 4,
      comment: 'Quick and kind 👍',
      assigneeId: app.w.member.id,
    });
    // A widget that opens the ended session's stream later hears `ended` with no question (rated).
    const late = await openSse(`${app.base}/api/widget/${app.asst}/sessions/${s.sessionId}/events`, {
      origin: SITE,
      authorization: `Widget ${s.token}`,
    });
    expect(await late.until((e) => e.type === 'ended')).toEqual({ type: 'ended' });
  });

  it('many ratings at once: one is stored, the others are 409', async () => {
    const { s, id } = await answeredByPerson();
    await inbox(app.t, app.w.member, 'POST', `/${id}/close`);
    const results = await Promise.all([1, 2, 3, 4, 5, 1, 2, 3].map((rating) => rate(s, { rating })));
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 409)).toHaveLength(7);
  });

  it('no question when only the AI answered, when it is off, or without the session token', async () => {
    const s = await initWidget(app.t, app.asst);
    await widgetChat(app.t, app.asst, s, 'Hello');
    const ended = await app.t.request({
      method: 'POST',
      url: `/api/widget/${app.asst}/sessions/${s.sessionId}/end`,
      headers: { origin: SITE, authorization: `Widget ${s.token}` },
    });
    expect(ended.statusCode).toBe(200);
    expect((await rate(s, { rating: 5 })).statusCode).toBe(409);
    const fresh = await initWidget(app.t, app.asst);
    expect((await rate(fresh, { rating: 5 })).statusCode).toBe(409); // no conversation yet

    await settings(app.w.owner, { csat: { enabled: false } });
    const { s: off, id, stream } = await answeredByPerson();
    await inbox(app.t, app.w.member, 'POST', `/${id}/close`);
    expect(await stream.until((e) => e.type === 'ended')).toEqual({ type: 'ended' });
    expect((await rate(off, { rating: 5 })).statusCode).toBe(409);
    await settings(app.w.owner, { csat: { enabled: true } });

    const noToken = await app.t.request({
      method: 'POST',
      url: `/api/widget/${app.asst}/csat`,
      headers: { origin: SITE },
      payload: { rating: 5 },
    });
    expect(noToken.statusCode).toBe(401);
    const otherSite = await app.t.request({
      method: 'POST',
      url: `/api/widget/${app.asst}/csat`,
      headers: { origin: 'https://evil.example.com', authorization: `Widget ${off.token}` },
      payload: { rating: 5 },
    });
    expect(otherSite.statusCode).toBe(403);
  });

  it.each([
    [{ rating: 0 }],
    [{ rating: 6 }],
    [{ rating: 4.5 }],
    [{ rating: '5' }],
    [{}],
    [{ rating: 5, comment: 'x'.repeat(1001) }],
    [{ rating: 5, comment: 7 }],
    [{ rating: 5, stars: 5 }],
  ])('%j → 400, nothing stored', async (body) => {
    const { s, id } = await answeredByPerson();
    await inbox(app.t, app.w.member, 'POST', `/${id}/close`);
    const r = await rate(s, body);
    expect(r.statusCode, r.body).toBe(400);
    expect((await inbox(app.t, app.w.guest, 'GET', `/${id}`)).json().data.csat).toBeNull();
  });
});
