import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessHours } from '../../src/db/schema/index.ts';
import type { TestUser } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { expectLoneSurrogate, LONE, storedAnywhere } from '../support/hostile-text.ts';
import { createWorld, type World } from '../support/world.ts';

/**
 * docs/business-hours.md "Endpoints", "Rules": none set answers `{data: null}`; PUT replaces the
 * whole setting (owners and admins), PUT null goes back to always open; every member reads; each
 * rule's 400 names its field.
 */
let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await createTestApp();
  w = await createWorld(t);
});
afterAll(() => t.close());

const url = (ws = w.ws) => `/api/workspaces/${ws}/business-hours`;
const get = (user: TestUser = w.owner, ws = w.ws) =>
  t.request({ method: 'GET', url: url(ws), headers: user.headers });
const put = (payload: unknown, user: TestUser = w.owner, ws = w.ws) =>
  t.request({
    method: 'PUT',
    url: url(ws),
    headers: { ...user.headers, 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  });

const day = [{ open: '09:00', close: '17:00' }];
const week = { mon: day, tue: day, wed: day, thu: day, fri: day, sat: [], sun: [] };
const valid = {
  timezone: 'Europe/Paris',
  week,
  holidays: ['2026-12-25', '2026-01-01'],
  outsideHoursMessage: 'Our team is away right now.',
};
const withWeek = (patch: Record<string, unknown>) => ({ ...valid, week: { ...week, ...patch } });

describe('business hours', () => {
  it('none set → {data: null}; PUT sets them (holidays sorted, without repeats); every member reads them; PUT null clears', async () => {
    for (const user of [w.owner, w.admin, w.member, w.guest]) {
      const r = await get(user);
      expect(r.statusCode, r.body).toBe(200);
      expect(r.json()).toEqual({ data: null });
    }
    const saved = await put({
      ...valid,
      week: {
        ...week,
        sat: [
          { open: '14:00', close: '18:00' },
          { open: '10:00', close: '12:00' },
        ],
      },
      holidays: ['2026-12-25', '2026-01-01', '2026-12-25'],
      outsideHoursMessage: '  Nous sommes fermés — 営業時間外です 🌙  ',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const expected = {
      timezone: 'Europe/Paris',
      week: {
        ...week,
        sat: [
          { open: '10:00', close: '12:00' },
          { open: '14:00', close: '18:00' },
        ],
      },
      holidays: ['2026-01-01', '2026-12-25'],
      outsideHoursMessage: 'Nous sommes fermés — 営業時間外です 🌙',
      updatedAt: expect.any(String),
    };
    expect(saved.json().data).toEqual(expected);
    for (const user of [w.admin, w.member, w.guest]) expect((await get(user)).json().data).toEqual(expected);

    const replaced = await put({ ...valid, timezone: 'america/new_york', holidays: undefined }, w.admin);
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json().data).toMatchObject({ timezone: 'America/New_York', holidays: [], week });

    const cleared = await put(null, w.admin);
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json()).toEqual({ data: null });
    expect((await get()).json()).toEqual({ data: null });
    expect(await t.ctx.db.select().from(businessHours).where(eq(businessHours.workspaceId, w.ws))).toEqual(
      [],
    );
    // Clearing what is not set is the same answer.
    expect((await put(null)).json()).toEqual({ data: null });
  });

  it('overnight shifts are two ranges; 24:00 closes a day; ranges may touch', async () => {
    const r = await put(
      withWeek({
        fri: [
          { open: '09:00', close: '12:00' },
          { open: '12:00', close: '17:00' },
          { open: '22:00', close: '24:00' },
        ],
        sat: [{ open: '00:00', close: '06:00' }],
      }),
    );
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().data.week.fri).toHaveLength(3);
    expect((await put(null)).statusCode).toBe(200);
  });

  it('members and guests may not write (403); another workspace is a 404 and stays untouched', async () => {
    for (const user of [w.member, w.guest]) {
      const r = await put(valid, user);
      expect(r.statusCode).toBe(403);
      expect(r.json().code).toBe('forbidden:api');
    }
    expect((await put(valid, w.owner, w.otherWs)).statusCode).toBe(404);
    expect((await get(w.owner, w.otherWs)).statusCode).toBe(404);
    expect((await get(w.outsider, w.otherWs)).json()).toEqual({ data: null });
    const theirs = await put({ ...valid, timezone: 'Asia/Tokyo' }, w.outsider, w.otherWs);
    expect(theirs.statusCode, theirs.body).toBe(200);
    expect((await get()).json().data?.timezone).not.toBe('Asia/Tokyo');
  });

  it('refuses every broken rule with a 400 naming the field', async () => {
    const ranges = (...r: Array<[string, string]>) => r.map(([open, close]) => ({ open, close }));
    const cases: Array<[unknown, string]> = [
      [{ ...valid, timezone: 'Mars/Olympus' }, 'timezone'],
      [{ ...valid, timezone: '+01:00' }, 'timezone'],
      [{ ...valid, timezone: '' }, 'timezone'],
      [{ ...valid, timezone: 'E'.repeat(65) }, 'timezone'],
      [{ ...valid, timezone: 3 }, 'timezone'],
      [withWeek({ mon: ranges(['9:00', '17:00']) }), 'week.mon.0.open'],
      [withWeek({ mon: ranges(['24:00', '24:00']) }), 'week.mon.0.open'],
      [withWeek({ mon: ranges(['09:00', '24:01']) }), 'week.mon.0.close'],
      [withWeek({ mon: ranges(['09:60', '17:00']) }), 'week.mon.0.open'],
      [withWeek({ mon: ranges(['17:00', '09:00']) }), 'week.mon.0.close'],
      [withWeek({ mon: ranges(['09:00', '09:00']) }), 'week.mon.0.close'],
      [withWeek({ mon: ranges(['22:00', '06:00']) }), 'week.mon.0.close'],
      [withWeek({ tue: ranges(['09:00', '12:00'], ['11:00', '14:00']) }), 'week.tue'],
      [
        withWeek({
          wed: ranges(
            ...Array.from({ length: 11 }, (_, i): [string, string] => [`0${i % 10}:00`, `0${i % 10}:30`]),
          ),
        }),
        'week.wed',
      ],
      [withWeek({ thu: [{ open: '09:00', close: '17:00', note: 'x' }] }), 'week.thu.0.note'],
      [withWeek({ fri: null }), 'week.fri'],
      [withWeek({ holiday: [] }), 'week.holiday'],
      [{ ...valid, week: { mon: day } }, 'week.tue'],
      [{ ...valid, holidays: ['2026-02-30'] }, 'holidays.0'],
      [{ ...valid, holidays: ['25/12/2026'] }, 'holidays.0'],
      [{ ...valid, holidays: Array.from({ length: 367 }, () => '2026-01-01') }, 'holidays'],
      [{ ...valid, outsideHoursMessage: '   ' }, 'outsideHoursMessage'],
      [{ ...valid, outsideHoursMessage: 'x'.repeat(501) }, 'outsideHoursMessage'],
      [{ ...valid, outsideHoursMessage: undefined }, 'outsideHoursMessage'],
      [{ ...valid, extra: true }, 'extra'],
      [[valid], '_'],
    ];
    for (const [payload, field] of cases) {
      const r = await put(payload);
      const label = JSON.stringify(payload).slice(0, 120);
      expect(r.statusCode, label).toBe(400);
      expect(r.json().code, label).toBe('bad_request:api');
      expect(Object.keys(r.json().details ?? {}), label).toContain(field);
    }
    expect((await get()).json().data).toBeNull();
  });

  it('a message of 500 characters is taken; a huge body, a missing body and a lone surrogate are refused and store nothing', async () => {
    const long = await put({ ...valid, outsideHoursMessage: '🌙'.repeat(250) });
    expect(long.statusCode, long.body).toBe(200);
    await put(null);
    const huge = await put({ ...valid, outsideHoursMessage: 'x'.repeat(2_000_000) });
    expect([400, 413]).toContain(huge.statusCode);
    await put(valid);
    const empty = await t.request({ method: 'PUT', url: url(), headers: w.owner.headers });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().details).toEqual({ _: expect.stringContaining('null to remove them') });
    expect((await get()).json().data).not.toBeNull();
    await put(null);
    expectLoneSurrogate(await put({ ...valid, outsideHoursMessage: LONE }), 'outsideHoursMessage');
    expect(await storedAnywhere(t)).toEqual([]);
    expect((await get()).json().data).toBeNull();
  });
});
