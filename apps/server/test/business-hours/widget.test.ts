import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addCalendarDays, wallTime } from '../../src/features/business-hours/schedule.ts';
import { setClockOffset } from '../../src/lib/clock.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { createWorld, type World } from '../support/world.ts';
import { fromSite, initWidget, NO_RATE_LIMIT, widgetAssistant } from '../widget/helpers.ts';
import { PARIS_OFFICE, setHours, travelTo } from './helpers.ts';

/**
 * docs/business-hours.md "Widget": the init config (Form A) and `GET /config` (Form B) say whether
 * a person answers now (`teamOnline`) and when the team opens next (`nextOpenAt`).
 */
let t: TestApp;
let w: World;
let assistantId: string;
beforeAll(async () => {
  t = await createTestApp(NO_RATE_LIMIT);
  w = await createWorld(t);
  assistantId = await widgetAssistant(t, w.owner, w.ws);
});
afterEach(() => setClockOffset(0));
afterAll(() => t.close());

const inParis = (iso: string | null) =>
  new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/Paris',
    weekday: 'long',
    hour: '2-digit',
    minute: '2-digit',
  }).format(new Date(iso ?? Number.NaN));

const team = async () => {
  const init = (await initWidget(t, assistantId)).data.config;
  const config = await fromSite(t, { method: 'GET', url: `/api/widget/${assistantId}/config` });
  expect(config.statusCode, config.body).toBe(200);
  const b = config.json().data;
  expect({ teamOnline: b.teamOnline, nextOpenAt: b.nextOpenAt }).toEqual({
    teamOnline: init.teamOnline,
    nextOpenAt: init.nextOpenAt,
  });
  return { teamOnline: init.teamOnline as boolean, nextOpenAt: init.nextOpenAt as string | null };
};

describe('teamOnline and nextOpenAt', () => {
  it('always open without hours; open inside them; outside them, the next opening (skipping the weekend and a holiday)', async () => {
    expect(await team()).toEqual({ teamOnline: true, nextOpenAt: null });
    await setHours(t, w.owner, w.ws, PARIS_OFFICE);

    travelTo('wed', '12:00');
    expect(await team()).toEqual({ teamOnline: true, nextOpenAt: null });

    const wednesdayEvening = travelTo('wed', '18:30');
    const thursday = new Date(wednesdayEvening.getTime() + (14 * 60 + 30) * 60_000);
    expect(await team()).toEqual({ teamOnline: false, nextOpenAt: thursday.toISOString() });

    const saturday = travelTo('sat', '10:00');
    const status = await team();
    expect(status.teamOnline).toBe(false);
    expect(inParis(status.nextOpenAt)).toBe('Monday 09:00');

    const monday = addCalendarDays(wallTime(saturday, 'Europe/Paris').date, 2);
    await setHours(t, w.owner, w.ws, { ...PARIS_OFFICE, holidays: [monday] });
    expect(inParis((await team()).nextOpenAt)).toBe('Tuesday 09:00');
  });

  it('a week without any opening: offline, with no next opening; cleared hours: always open again', async () => {
    const closed: never[] = [];
    await setHours(t, w.owner, w.ws, {
      ...PARIS_OFFICE,
      week: { mon: closed, tue: closed, wed: closed, thu: closed, fri: closed, sat: closed, sun: closed },
    });
    expect(await team()).toEqual({ teamOnline: false, nextOpenAt: null });
    await setHours(t, w.owner, w.ws, null);
    expect(await team()).toEqual({ teamOnline: true, nextOpenAt: null });
  });
});
