import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { recordDueBreaches } from '../../src/features/sla/sla.jobs.ts';
import { setClockOffset } from '../../src/lib/clock.ts';
import { inbox } from '../inbox/helpers.ts';
import { type InboxApp, startInbox, visitorOf } from '../inbox/setup.ts';
import { addRule } from '../steering/helpers.ts';
import type { TestUser } from '../support/factories.ts';
import { type Session, SITE, widgetAssistant } from '../widget/helpers.ts';

/**
 * docs/analytics.md "Service", through the API with the clock moved: widget conversations handed
 * over by a guidance rule, answered and closed in the inbox, rated from the widget, their SLA
 * clocks breached by the breach job; every figure of the report and the CSV behind each.
 */
let app: InboxApp;
let second: string;
let standard: string;
let unused: string;
const TRIGGER = 'a human please';
const moveTo = (iso: string) => setClockOffset(Date.parse(iso) - Date.now());
const ids: Record<string, string> = {};

const report = (user: TestUser, query: string, ws = app.w.ws) =>
  app.t.request({
    method: 'GET',
    url: `/api/workspaces/${ws}/analytics/service${query}`,
    headers: user.headers,
  });
const csv = (user: TestUser, query: string, ws = app.w.ws) =>
  app.t.request({
    method: 'GET',
    url: `/api/workspaces/${ws}/analytics/service/conversations.csv${query}`,
    headers: user.headers,
  });

async function policy(body: Record<string, unknown>) {
  const r = await app.t.request({
    method: 'POST',
    url: `/api/workspaces/${app.w.ws}/sla-policies`,
    headers: app.w.owner.headers,
    payload: { businessHoursOnly: false, ...body },
  });
  expect(r.statusCode, r.body).toBe(201);
  return r.json().data.id as string;
}

const rate = async (s: Session, assistantId: string, rating: number, comment?: string) => {
  const r = await app.t.request({
    method: 'POST',
    url: `/api/widget/${assistantId}/csat`,
    headers: { origin: SITE, authorization: `Widget ${s.token}` },
    payload: comment === undefined ? { rating } : { rating, comment },
  });
  expect(r.statusCode, r.body).toBe(201);
};

/** A person's reply, and who holds the conversation after it (default: the one who replied). */
type Step = { at: string; by?: TestUser; assignee?: TestUser | null };
/**
 * A widget conversation handed over at `start`; optionally assigned, answered by a person, closed
 * and rated, each at its own time.
 */
async function story(
  name: string,
  assistantId: string,
  start: string,
  steps: {
    /** When the breach job runs before the reply. */
    check?: string;
    reply?: Step;
    close?: string;
    rating?: { at: string; value: number; comment?: string };
  } = {},
) {
  moveTo(start);
  const { s, id } = await visitorOf(app.t, assistantId, TRIGGER);
  ids[name] = id;
  if (steps.check) {
    moveTo(steps.check);
    await recordDueBreaches(app.t.ctx);
  }
  if (steps.reply) {
    moveTo(steps.reply.at);
    const by = steps.reply.by ?? app.w.member;
    expect((await inbox(app.t, by, 'POST', `/${id}/messages`, { content: 'Here to help.' })).statusCode).toBe(
      201,
    );
    const assignee = steps.reply.assignee === undefined ? by : steps.reply.assignee;
    const r = await inbox(app.t, app.w.owner, 'PATCH', `/${id}`, { assigneeId: assignee?.id ?? null });
    expect(r.statusCode, r.body).toBe(200);
  }
  if (steps.close) {
    moveTo(steps.close);
    expect((await inbox(app.t, app.w.member, 'POST', `/${id}/close`)).statusCode).toBe(200);
  }
  if (steps.rating) {
    moveTo(steps.rating.at);
    await rate(s, assistantId, steps.rating.value, steps.rating.comment);
  }
  return id;
}

const COMMENT = '=HYPERLINK("http://evil.example"), then\na second line';

beforeAll(async () => {
  app = await startInbox();
  second = await widgetAssistant(app.t, app.w.owner, app.w.ws, {}, { name: '+Second, "the" bot' });
  for (const a of [app.asst, second]) {
    await addRule(app.t, app.w.owner, a, {
      name: 'people',
      kind: 'handoff',
      text: 'A person.',
      triggers: [TRIGGER],
    });
  }
  const settings = await app.t.request({
    method: 'PUT',
    url: `/api/workspaces/${app.w.ws}/inbox-settings`,
    headers: app.w.owner.headers,
    payload: { csat: { enabled: true, question: 'How did we do?' } },
  });
  expect(settings.statusCode, settings.body).toBe(200);
  standard = await policy({ name: 'Standard', priority: 10, firstResponseMinutes: 30 });
  unused = await policy({
    name: 'SMS only',
    priority: 20,
    firstResponseMinutes: 5,
    appliesTo: { channels: ['sms'] },
  });

  // Before the 7 days, inside the 30: answered in 2 minutes, closed after 5, rated 1.
  await story('old', app.asst, '2026-11-20T10:00:00Z', {
    reply: { at: '2026-11-20T10:02:00Z' },
    close: '2026-11-20T10:05:00Z',
    rating: { at: '2026-11-20T10:06:00Z', value: 1 },
  });
  // Answered in 4 minutes, closed after 2 h 10 min, rated 5 with a hostile comment: met.
  await story('c1', app.asst, '2026-12-08T10:00:00Z', {
    reply: { at: '2026-12-08T10:04:00Z' },
    close: '2026-12-08T12:10:00Z',
    rating: { at: '2026-12-08T12:15:00Z', value: 5, comment: COMMENT },
  });
  // Nobody within 30 minutes: breached at 09:30; answered by the admin at 10:00, closed at 11:00, rated 2.
  await story('c2', app.asst, '2026-12-09T09:00:00Z', {
    check: '2026-12-09T09:31:00Z',
    reply: { at: '2026-12-09T10:00:00Z', by: app.w.admin },
    close: '2026-12-09T11:00:00Z',
    rating: { at: '2026-12-09T11:05:00Z', value: 2 },
  });
  // The second assistant's, nobody holding it when rated (the next day): 10 min, 20 min, rated 4.
  await story('c3', second, '2026-12-09T14:00:00Z', {
    reply: { at: '2026-12-09T14:10:00Z', assignee: null },
    close: '2026-12-09T14:20:00Z',
    rating: { at: '2026-12-10T09:00:00Z', value: 4 },
  });
  // Still waiting and breached: counted as breached, not in the times.
  await story('c4', app.asst, '2026-12-11T08:00:00Z');
  // Still waiting, in time: not counted.
  await story('c5', app.asst, '2026-12-12T11:50:00Z');
  moveTo('2026-12-12T12:00:00Z');
  await recordDueBreaches(app.t.ctx);
}, 60_000);
afterAll(() => app.t.close());
afterEach(() => setClockOffset(0));

describe('the service report', () => {
  it('7 days: ratings, SLA per policy, the medians and the days', async () => {
    moveTo('2026-12-12T12:00:00Z');
    const r = await report(app.w.guest, '?period=7d');
    expect(r.statusCode, r.body).toBe(200);
    const d = r.json().data;
    expect(d.csat).toEqual({
      responses: 3,
      average: expect.closeTo(11 / 3, 9),
      satisfied: expect.closeTo(2 / 3, 9),
      byAgent: [
        { userId: app.w.admin.id, name: 'Admin', responses: 1, average: 2 },
        { userId: app.w.member.id, name: 'Member', responses: 1, average: 5 },
        { userId: null, name: 'Unassigned', responses: 1, average: 4 },
      ],
      byAssistant: [
        { assistantId: app.asst, name: expect.any(String), responses: 2, average: 3.5 },
        { assistantId: second, name: '+Second, "the" bot', responses: 1, average: 4 },
      ],
    });
    expect(d.sla).toEqual({
      policies: [
        { policyId: standard, name: 'Standard', met: 2, breached: 2, metRate: 0.5 },
        { policyId: unused, name: 'SMS only', met: 0, breached: 0, metRate: null },
      ],
    });
    // First replies after 240, 3600 and 600 s; closings after 7800, 7200 and 1200 s.
    expect(d.firstResponseMedianSeconds).toBe(600);
    expect(d.resolutionMedianSeconds).toBe(7200);
    const zero = { responses: 0, average: null, breaches: 0 };
    expect(d.byDay).toEqual([
      { date: '2026-12-06', ...zero },
      { date: '2026-12-07', ...zero },
      { date: '2026-12-08', responses: 1, average: 5, breaches: 0 },
      { date: '2026-12-09', responses: 1, average: 2, breaches: 1 },
      { date: '2026-12-10', responses: 1, average: 4, breaches: 0 },
      { date: '2026-12-11', responses: 0, average: null, breaches: 1 },
      { date: '2026-12-12', ...zero },
    ]);
  });

  it('30 days (the default) takes the older conversation in; a quiet week is nulls and zeros', async () => {
    moveTo('2026-12-12T12:00:00Z');
    const d = (await report(app.w.member, '')).json().data;
    expect(d.csat.responses).toBe(4);
    expect(d.csat.average).toBe(3);
    expect(d.csat.satisfied).toBe(0.5);
    expect(d.csat.byAgent.find((a: { userId: string }) => a.userId === app.w.member.id)).toEqual({
      userId: app.w.member.id,
      name: 'Member',
      responses: 2,
      average: 3,
    });
    expect(d.sla.policies[0]).toMatchObject({ met: 3, breached: 2, metRate: 0.6 });
    // 120, 240, 600, 3600 → 420; 300, 1200, 7200, 7800 → 4200.
    expect(d.firstResponseMedianSeconds).toBe(420);
    expect(d.resolutionMedianSeconds).toBe(4200);
    expect(d.byDay).toHaveLength(30);
    expect(d.byDay[0].date).toBe('2026-11-13');

    moveTo('2026-12-26T12:00:00Z');
    const quiet = (await report(app.w.member, '?period=7d')).json().data;
    expect(quiet.csat).toEqual({
      responses: 0,
      average: null,
      satisfied: null,
      byAgent: [],
      byAssistant: [],
    });
    expect(quiet.sla.policies.map((p: { metRate: null }) => p.metRate)).toEqual([null, null]);
    expect(quiet.firstResponseMedianSeconds).toBeNull();
    expect(quiet.resolutionMedianSeconds).toBeNull();
    expect(quiet.byDay).toHaveLength(7);
  });

  it('period and figure are checked; unknown fields refused', async () => {
    for (const q of ['?period=1y', '?period=7d&period=30d', '?period=7d&extra=1']) {
      const r = await report(app.w.owner, q);
      expect(r.statusCode, q).toBe(400);
      expect(r.json().code).toBe('bad_request:api');
    }
    expect((await report(app.w.owner, '?period=1y')).json().details).toHaveProperty('period');
    for (const q of ['?period=7d', '?period=7d&figure=all', '?figure=csat&period=1y']) {
      expect((await csv(app.w.owner, q)).statusCode, q).toBe(400);
    }
  });

  it("another workspace's figures stay its own", async () => {
    moveTo('2026-12-12T12:00:00Z');
    const other = await report(app.w.outsider, '?period=7d', app.w.otherWs);
    expect(other.statusCode).toBe(200);
    expect(other.json().data.csat.responses).toBe(0);
    expect(other.json().data.sla.policies).toEqual([]);
    expect(other.json().data.firstResponseMedianSeconds).toBeNull();
    expect((await report(app.w.outsider, '?period=7d')).statusCode).toBe(404);
    expect((await csv(app.w.outsider, '?period=7d&figure=csat')).statusCode).toBe(404);
    expect((await csv(app.w.outsider, '?period=7d&figure=csat', app.w.otherWs)).body).toBe(
      'conversation_id,assistant,assignee,channel,handed_off_at,first_response_at,closed_at,rating,comment,policy,breaches\r\n',
    );
  });
});

describe('the CSV behind each figure', () => {
  const lines = async (figure: string) => {
    moveTo('2026-12-12T12:00:00Z');
    const r = await csv(app.w.guest, `?period=7d&figure=${figure}`);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(r.headers['content-disposition']).toBe(`attachment; filename="service-${figure}-7d.csv"`);
    // To the minute: the clock keeps running after a move.
    return r.body.replace(/(T\d\d:\d\d):\d\d\.\d{3}Z/g, '$1Z');
  };
  const idsOf = (body: string) =>
    body
      .split('\r\n')
      .slice(1)
      .filter((l) => /^conv_/.test(l))
      .map((l) => l.split(',')[0]);

  it('each figure lists the conversations it counts, in order', async () => {
    expect(idsOf(await lines('csat'))).toEqual([ids.c1, ids.c2, ids.c3]);
    expect(idsOf(await lines('sla_met'))).toEqual([ids.c1, ids.c3]);
    expect(idsOf(await lines('sla_breached'))).toEqual([ids.c2, ids.c4]);
    expect(idsOf(await lines('first_response'))).toEqual([ids.c1, ids.c2, ids.c3]);
    expect(idsOf(await lines('resolution'))).toEqual([ids.c1, ids.c2, ids.c3]);
  });

  it('every column, quoted where needed and formulas defused', async () => {
    const body = await lines('csat');
    const rows = body.split('\r\n');
    expect(rows[0]).toBe(
      'conversation_id,assistant,assignee,channel,handed_off_at,first_response_at,closed_at,rating,comment,policy,breaches',
    );
    // The comment's quotes doubled, its comma and line break kept inside the quotes, its `=` defused.
    expect(body).toContain(
      `${ids.c1},Helper,Member,widget,2026-12-08T10:00Z,2026-12-08T10:04Z,2026-12-08T12:10Z,5,"'=HYPERLINK(""http://evil.example""), then\na second line",Standard,\r\n`,
    );
    expect(body).toContain(
      `${ids.c2},Helper,Admin,widget,2026-12-09T09:00Z,2026-12-09T10:00Z,2026-12-09T11:00Z,2,,Standard,first_response 2026-12-09T09:30Z\r\n`,
    );
    expect(body).toContain(
      `${ids.c3},"'+Second, ""the"" bot",,widget,2026-12-09T14:00Z,2026-12-09T14:10Z,2026-12-09T14:20Z,4,,Standard,\r\n`,
    );
    const breached = await lines('sla_breached');
    expect(breached).toContain(`${ids.c4},Helper,,widget,2026-12-11T08:00Z,,,,,Standard,first_response `);
  });
});
