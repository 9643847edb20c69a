import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { conversations, widgetSessions } from '../../src/db/schema/index.ts';
import { aiResolutionStep, settleDue } from '../../src/features/analytics/ai-resolution.ts';
import { changeConversation } from '../../src/features/conversations/conversation-states.ts';
import { setClockOffset } from '../../src/lib/clock.ts';
import { addSource, drainIngestion } from '../knowledge/helpers.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { waitFor } from '../support/wait.ts';
import { createWorld, type World } from '../support/world.ts';
import {
  fromSite,
  initWidget,
  NO_RATE_LIMIT,
  type Session,
  sessionUrl,
  widgetAssistant,
  widgetChat,
} from '../widget/helpers.ts';
import { seedConversation } from './helpers.ts';

/**
 * docs/measuring.md "Resolution": the AI analytics of widget conversations with the offline
 * responder (it answers the opening hours from its knowledge, says "I don't know" to anything
 * else: declined, and hands over when asked for a person), settled by the `ai-resolution` job
 * once the clock is 8 days on.
 */
let t: TestApp;
let w: World;
let knows: string;
let other: string;
const DAY = 86_400_000;
const HOURS = 'What are your opening hours?';
const UNKNOWN = 'What is the airspeed of a swallow?';

beforeAll(async () => {
  t = await createTestApp(NO_RATE_LIMIT);
  w = await createWorld(t);
  knows = await widgetAssistant(t, w.owner, w.ws);
  await addSource(t, w.owner, knows, {
    type: 'qa',
    pairs: [{ question: HOURS, answer: 'We are open from 9 to 5, Monday to Friday.' }],
  });
  await drainIngestion(t);
  other = await widgetAssistant(t, w.owner, w.ws);
});
afterEach(() => setClockOffset(0));
afterAll(() => t.close());

/** A widget conversation: the visitor's messages, each answered; ended by the visitor unless `open`. */
async function visit(
  assistantId: string,
  questions: string[],
  opts: { open?: boolean; takeover?: boolean } = {},
) {
  const s = await initWidget(t, assistantId);
  for (const q of questions) expect((await widgetChat(t, assistantId, s, q)).status).toBe(200);
  const id = await conversationOf(s);
  if (opts.takeover) {
    // A person takes over unasked, then gives it back to the AI (the reason is cleared).
    expect((await inbox(id, 'handoff')).statusCode).toBe(200);
    expect((await inbox(id, 'release')).statusCode).toBe(200);
  }
  if (!opts.open) {
    const end = await fromSite(t, { method: 'POST', url: sessionUrl(assistantId, s, 'end'), token: s.token });
    expect(end.statusCode, end.body).toBe(200);
  }
  return id;
}

async function conversationOf(s: Session) {
  const [row] = await t.ctx.db.select().from(widgetSessions).where(eq(widgetSessions.id, s.sessionId));
  return row?.conversationId as string;
}

const inbox = (id: string, action: 'handoff' | 'release') =>
  t.request({ method: 'POST', url: `/api/inbox/conversations/${id}/${action}`, headers: w.owner.headers });

async function figures(query = 'period=30d', user = w.member) {
  const res = await t.request({
    method: 'GET',
    url: `/api/workspaces/${w.ws}/analytics/ai?${query}`,
    headers: user.headers,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

const row = async (id: string | undefined) =>
  (
    await t.ctx.db
      .select()
      .from(conversations)
      .where(eq(conversations.id, id ?? ''))
  )[0];
const today = () => new Date().toISOString().slice(0, 10);

describe('AI analytics: involvement, resolution, handoffs, outcomes', () => {
  const ids: Record<string, string> = {};

  it('counts hand-made conversations; resolution stays pending before the job settles it', async () => {
    ids.resolved = await visit(knows, [HOURS]);
    ids.open = await visit(knows, [HOURS], { open: true });
    ids.declined = await visit(knows, [UNKNOWN]);
    ids.asked = await visit(knows, [HOURS, 'I want to talk to a person']);
    ids.declinedThenAsked = await visit(knows, [UNKNOWN, 'Then let me talk to a person']);
    ids.takenOver = await visit(knows, [HOURS], { takeover: true });
    ids.reopened = await visit(knows, [HOURS]);
    ids.unanswered = await seedConversation(t, w.ws, knows, {
      channel: 'widget',
      at: new Date(),
      turns: [{ question: 'Anyone?' }],
    });
    ids.otherAssistant = await visit(other, [UNKNOWN]);
    expect((await row(ids.asked))?.handoffReason).toBe('customer_asked');
    expect((await row(ids.declinedThenAsked))?.handoffReason).toBe('declined');
    expect((await row(ids.takenOver))?.handoffReason).toBeNull();

    const f = await figures();
    expect(f).toMatchObject({
      period: '30d',
      conversations: 9,
      involved: 8,
      resolvedByAi: 0,
      // Ended, last reply answered, never handed over: resolved once 7 days pass.
      resolvedByAiPending: 2,
      aiResolutionRate: null,
      // The released takeover counts as agent (its last change into handoff was a takeover).
      handoffs: { customer_asked: 1, rule: 0, low_confidence: 0, declined: 1, agent: 1 },
      // Replies: hours x5 answered; 3 "I don't know"; 2 handoff replies.
      outcomes: { answered: 5, declined: 3, handoff: 2, curated: 0 },
    });
    expect(f.byDay).toHaveLength(30);
    expect(f.byDay.at(-1)).toEqual({ date: today(), involved: 8, resolvedByAi: 0, handoffs: 3 });
    expect(f.byDay.slice(0, -1).every((d: { involved: number }) => d.involved === 0)).toBe(true);
  });

  it('8 days on: still pending until the job runs; the job settles every ended conversation once', async () => {
    setClockOffset(8 * DAY);
    expect(await figures()).toMatchObject({
      resolvedByAi: 0,
      resolvedByAiPending: 2,
      aiResolutionRate: null,
    });

    const jobs = t.startJobs(['ai-resolution'], { 'ai-resolution': 20 });
    try {
      await waitFor(async () => (await row(ids.otherAssistant))?.aiResolution != null, 10_000, 'settled');
    } finally {
      await jobs.stop();
    }
    const settledAt = (await row(ids.resolved))?.aiResolutionAt;
    expect((await row(ids.resolved))?.aiResolution).toBe('resolved');
    expect((await row(ids.reopened))?.aiResolution).toBe('resolved');
    for (const k of ['declined', 'asked', 'declinedThenAsked', 'takenOver', 'otherAssistant']) {
      expect((await row(ids[k] as string))?.aiResolution, k).toBe('unresolved');
    }
    // Not ended, or no AI reply: nothing to settle.
    expect((await row(ids.open))?.aiResolution).toBeNull();
    expect((await row(ids.unanswered))?.aiResolution).toBeNull();

    const f = await figures();
    expect(f).toMatchObject({
      involved: 8,
      resolvedByAi: 2,
      resolvedByAiPending: 0,
      aiResolutionRate: 2 / 7,
    });
    expect(f.byDay.find((d: { date: string }) => d.date === today())).toEqual({
      date: today(),
      involved: 8,
      resolvedByAi: 2,
      handoffs: 3,
    });
    // Settling again changes nothing.
    expect(await settleDue(t.ctx)).toEqual([]);
    expect((await row(ids.resolved))?.aiResolutionAt).toEqual(settledAt);

    // One assistant's figures.
    expect(await figures(`period=30d&assistantId=${other}`)).toMatchObject({
      conversations: 1,
      involved: 1,
      resolvedByAi: 0,
      resolvedByAiPending: 0,
      aiResolutionRate: 0,
      handoffs: { customer_asked: 0, rule: 0, low_confidence: 0, declined: 0, agent: 0 },
      outcomes: { answered: 0, declined: 1, handoff: 0, curated: 0 },
    });
    // Outside the 7-day period now.
    expect(await figures('period=7d')).toMatchObject({
      conversations: 0,
      involved: 0,
      aiResolutionRate: null,
    });
  });

  it('a reopened conversation leaves the count at once; the job clears it, and settles it unresolved after its new end', async () => {
    setClockOffset(8 * DAY);
    // The customer writing again into a closed conversation reopens it (as the SMS and chat paths do).
    await changeConversation(
      t.ctx,
      { workspaceId: w.ws, id: ids.reopened as string },
      { kind: 'reopen' },
      {
        type: 'visitor',
        id: null,
      },
    );
    expect(await figures()).toMatchObject({
      resolvedByAi: 1,
      resolvedByAiPending: 0,
      aiResolutionRate: 1 / 6,
    });
    await settleJobPass();
    expect((await row(ids.reopened))?.aiResolution).toBeNull();

    await changeConversation(
      t.ctx,
      { workspaceId: w.ws, id: ids.reopened as string },
      { kind: 'close' },
      {
        type: 'system',
        id: null,
      },
    );
    // Ended again, but reopened once: never pending again.
    expect(await figures()).toMatchObject({
      resolvedByAi: 1,
      resolvedByAiPending: 0,
      aiResolutionRate: 1 / 6,
    });
    setClockOffset(16 * DAY);
    await settleJobPass();
    expect((await row(ids.reopened))?.aiResolution).toBe('unresolved');
    expect(await figures()).toMatchObject({
      resolvedByAi: 1,
      resolvedByAiPending: 0,
      aiResolutionRate: 1 / 7,
    });
  });
});

async function settleJobPass() {
  while (await aiResolutionStep(t.ctx)) {
    /* until no full batch remains */
  }
}

describe('settling at once from two processes', () => {
  it('settles each conversation once', async () => {
    const a = await widgetAssistant(t, w.owner, w.ws);
    const mine = [await visit(a, [UNKNOWN]), await visit(a, [UNKNOWN]), await visit(a, [UNKNOWN])];
    setClockOffset(30 * DAY);
    const [one, two] = await Promise.all([settleDue(t.ctx), settleDue(t.ctx)]);
    const both = [...(one ?? []), ...(two ?? [])];
    expect(new Set(both).size).toBe(both.length);
    for (const id of mine) expect(both).toContain(id);
    expect(await settleDue(t.ctx)).toEqual([]);
  });
});

describe('AI analytics requests', () => {
  it('a bad period or an unknown field is a 400; an unknown or foreign assistant a 404', async () => {
    for (const q of ['period=1y', 'period=7d&extra=1']) {
      const res = await t.request({
        method: 'GET',
        url: `/api/workspaces/${w.ws}/analytics/ai?${q}`,
        headers: w.owner.headers,
      });
      expect(res.statusCode, q).toBe(400);
      expect(res.json().code).toBe('bad_request:api');
    }
    const foreign = await widgetAssistant(t, w.outsider, w.otherWs);
    for (const id of ['asst_missing', foreign]) {
      const res = await t.request({
        method: 'GET',
        url: `/api/workspaces/${w.ws}/analytics/ai?assistantId=${id}`,
        headers: w.owner.headers,
      });
      expect(res.statusCode, id).toBe(404);
      expect(res.json().code).toBe('not_found:api');
    }
    // Every member reads them, guests included, and sees the same figures.
    const owners = await figures('period=90d', w.owner);
    for (const user of [w.admin, w.member, w.guest])
      expect(await figures('period=90d', user)).toEqual(owners);
    expect(owners.byDay).toHaveLength(90);
    expect((await figures('', w.guest)).period).toBe('30d');
  });
});
