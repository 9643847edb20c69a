import { and, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { conversations, events, widgetSessions } from '../../src/db/schema/index.ts';
import { widgetSweepStep } from '../../src/features/widget/widget.jobs.ts';
import { setClockOffset } from '../../src/lib/clock.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { waitFor } from '../support/wait.ts';
import { createWorld, type World } from '../support/world.ts';
import { initWidget, NO_RATE_LIMIT, type Session, widgetAssistant, widgetChat } from './helpers.ts';

/** docs/widget.md "Inactivity": a session ends after the configured inactivity (default 30 minutes). */
let t: TestApp;
let w: World;
let asst: string;
let quick: string;
const MINUTE = 60_000;

beforeAll(async () => {
  t = await createTestApp(NO_RATE_LIMIT);
  w = await createWorld(t);
  asst = await widgetAssistant(t, w.owner, w.ws);
  quick = await widgetAssistant(t, w.owner, w.ws, { sessionTimeoutMinutes: 5 });
});
afterEach(() => setClockOffset(0));
afterAll(() => t.close());

const sessionRow = async (s: Session) =>
  (await t.ctx.db.select().from(widgetSessions).where(eq(widgetSessions.id, s.sessionId)))[0];
const endedEvents = async (s: Session) =>
  (
    await t.ctx.db
      .select()
      .from(events)
      .where(and(eq(events.workspaceId, w.ws), eq(events.type, 'conversation.ended')))
  ).filter((e) => e.data.sessionId === s.sessionId);

async function sweep() {
  while (await widgetSweepStep(t.ctx)) {
    /* until no full batch remains */
  }
}

describe('inactivity end', () => {
  it('ends a session idle past 30 minutes (default) with conversation.ended; then no more chat', async () => {
    const s = await initWidget(t, asst);
    await widgetChat(t, asst, s, 'hello');
    setClockOffset(29 * MINUTE);
    await sweep();
    expect((await sessionRow(s))?.status).toBe('active');

    setClockOffset(31 * MINUTE);
    await sweep();
    const row = await sessionRow(s);
    expect(row?.status).toBe('ended');
    expect(row?.endedAt).toBeInstanceOf(Date);
    const ended = await endedEvents(s);
    expect(ended).toHaveLength(1);
    expect(ended[0]?.data).toMatchObject({
      sessionId: s.sessionId,
      conversationId: row?.conversationId,
      reason: 'inactivity',
      status: 'ended',
      messageCount: 2,
    });
    const [conv] = await t.ctx.db
      .select()
      .from(conversations)
      .where(eq(conversations.id, row?.conversationId as string));
    expect(conv?.status).toBe('closed');

    const r = await widgetChat(t, asst, s, 'still there?');
    expect(r.status).toBe(400);
    expect(r.res.json().code).toBe('bad_request:chat');
    // A second sweep, and an explicit end, add nothing.
    await sweep();
    const end = await t.request({
      method: 'POST',
      url: `/api/widget/${asst}/sessions/${s.sessionId}/end`,
      headers: { origin: 'https://shop.example.com', authorization: `Widget ${s.token}` },
    });
    expect(end.statusCode).toBe(200);
    expect(end.json().data.endedAt).toBe(row?.endedAt?.toISOString());
    expect(await endedEvents(s)).toHaveLength(1);
  });

  it('follows the widget’s own sessionTimeoutMinutes; activity restarts the clock', async () => {
    const short = await initWidget(t, quick);
    const long = await initWidget(t, asst);
    setClockOffset(4 * MINUTE);
    await widgetChat(t, quick, short, 'hello'); // activity at +4
    setClockOffset(8 * MINUTE);
    await sweep();
    expect((await sessionRow(short))?.status).toBe('active');
    setClockOffset(10 * MINUTE);
    await sweep();
    expect((await sessionRow(short))?.status).toBe('ended');
    expect((await sessionRow(long))?.status).toBe('active');
  });

  it('a recent message in the conversation (an agent’s reply) keeps the session open', async () => {
    const s = await initWidget(t, asst);
    await widgetChat(t, asst, s, 'hello');
    const row = await sessionRow(s);
    // Fixture: an agent replied 25 minutes later (what the inbox does).
    await t.ctx.db
      .update(conversations)
      .set({ lastMessageAt: sql`now() + interval '25 minutes'` })
      .where(eq(conversations.id, row?.conversationId as string));
    setClockOffset(40 * MINUTE);
    await sweep();
    expect((await sessionRow(s))?.status).toBe('active');
    setClockOffset(56 * MINUTE);
    await sweep();
    expect((await sessionRow(s))?.status).toBe('ended');
  });

  it('the widget-inactivity job runs the sweep in the background until stopped', async () => {
    const s = await initWidget(t, asst);
    setClockOffset(31 * MINUTE);
    const jobs = t.startJobs(['widget-inactivity'], { 'widget-inactivity': 10 });
    try {
      await waitFor(
        async () => {
          t.ctx.jobs.wake('widget-inactivity');
          return (await sessionRow(s))?.status === 'ended';
        },
        5000,
        'the session ended by the job',
      );
      expect(await endedEvents(s)).toHaveLength(1);
    } finally {
      await jobs.stop();
    }
  });
});
