import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { conversations, messages } from '../../src/db/schema/index.ts';
import { addCalendarDays, wallTime } from '../../src/features/business-hours/schedule.ts';
import { playRun } from '../../src/features/steering/test-runs.jobs.ts';
import { claimRun } from '../../src/features/steering/test-runs.repo.ts';
import { now, setClockOffset } from '../../src/lib/clock.ts';
import { chat } from '../chat/helpers.ts';
import { inbound, smsLine } from '../sms/helpers.ts';
import {
  customer,
  type InboundApp,
  inboundReaders,
  startInbound,
  stopInbound,
} from '../sms/inbound-setup.ts';
import { addItem, addRule } from '../steering/helpers.ts';
import { createAssistant } from '../support/factories.ts';
import { waitFor } from '../support/wait.ts';
import {
  fromSite,
  initWidget,
  NO_RATE_LIMIT,
  sessionUrl,
  widgetAssistant,
  widgetChat,
} from '../widget/helpers.ts';
import { PARIS_OFFICE, setHours, travelTo } from './helpers.ts';

/**
 * docs/business-hours.md "The message": a handoff outside business hours (a guidance rule, the
 * customer asking, a reply withheld for low confidence) tells the customer when a person is back,
 * on the widget, the internal chat and SMS; inside business hours the customer hears what they
 * always did.
 */
let app: InboundApp;
beforeAll(async () => {
  app = await startInbound(NO_RATE_LIMIT);
  await setHours(app.t, app.w.owner, app.w.ws, PARIS_OFFICE);
});
afterEach(() => setClockOffset(0));
afterAll(() => stopInbound(app));

const NOTICE = 'Thanks for your message. A person from our team will answer you here shortly.';
/** Saturday 10:00 in Paris, the office open Monday to Friday 09:00-17:00. */
const OUTSIDE = "Our team is away for now. We're back Monday at 09:00 (Europe/Paris).";
const DRAFT = 'Our return window is 30 days.';
const handoffTurn = [
  { toolCall: { name: 'request_human', args: { reason: 'wants a person' } } },
  { text: 'Connecting you.' },
];
const readers = inboundReaders(() => app);

/** An assistant with a handoff rule on "refund" and, when asked, a minimum confidence. */
async function assistantWithRule(assistantId: string, minConfidence = 0) {
  await addRule(app.t, app.w.owner, assistantId, {
    name: 'refunds',
    kind: 'handoff',
    text: 'People handle refunds.',
    triggers: ['refund'],
  });
  if (minConfidence > 0) {
    const r = await app.t.request({
      method: 'PATCH',
      url: `/api/assistants/${assistantId}`,
      headers: app.w.owner.headers,
      payload: { minConfidence },
    });
    expect(r.statusCode, r.body).toBe(200);
  }
  return assistantId;
}

const lastAssistantMessage = async (conversationId: string) => {
  const rows = await app.t.ctx.db
    .select()
    .from(messages)
    .where(eq(messages.conversationId, conversationId))
    .orderBy(messages.createdAt);
  return rows.filter((m) => m.role === 'assistant' && !m.withheld).at(-1);
};
const conversationOf = async (assistantId: string) =>
  (await app.t.ctx.db.select().from(conversations).where(eq(conversations.assistantId, assistantId)))[0];

/** The three handoffs on one widget session each (a handed-off conversation takes no more AI turns). */
async function widgetHandoffs() {
  const { t, w } = app;
  const said: Record<string, string> = {};
  const rule = await assistantWithRule(await widgetAssistant(t, w.owner, w.ws));
  said.rule = (await widgetChat(t, rule, await initWidget(t, rule), 'I want a refund')).text;
  const asked = await widgetAssistant(t, w.owner, w.ws);
  const s = await initWidget(t, asked);
  app.llm.script(handoffTurn);
  said.asked = (await widgetChat(t, asked, s, 'Can I talk to someone?')).text;
  const weak = await assistantWithRule(await widgetAssistant(t, w.owner, w.ws), 0.6);
  app.llm.script([{ text: DRAFT }]);
  said.weak = (await widgetChat(t, weak, await initWidget(t, weak), 'What is your return policy?')).text;
  for (const [kind, id] of [
    ['rule', rule],
    ['asked', asked],
    ['weak', weak],
  ] as const) {
    const conv = await conversationOf(id);
    expect(conv?.status, kind).toBe('handoff');
    // Stored as the message the customer sees (the widget's history lists it).
    expect((await lastAssistantMessage(conv!.id))?.content, kind).toBe(said[kind]);
  }
  const history = await fromSite(t, { method: 'GET', url: sessionUrl(asked, s, 'messages'), token: s.token });
  expect(history.json().data.at(-1).content).toBe(said.asked);
  return said;
}

/** The three handoffs over SMS, each from its own customer; returns the texts they were sent. */
async function smsHandoffs() {
  const { t, w, provider } = app;
  const rule = await smsLine(t, provider, w.owner, w.ws);
  await assistantWithRule(rule.assistantId);
  const asked = await smsLine(t, provider, w.owner, w.ws);
  const weak = await smsLine(t, provider, w.owner, w.ws);
  await assistantWithRule(weak.assistantId, 0.6);
  const sent: Record<string, string | undefined> = {};
  for (const [kind, line, text, script] of [
    ['rule', rule, 'I want a refund', null],
    ['asked', asked, 'Can I talk to someone?', handoffTurn],
    ['weak', weak, 'What is your return policy?', [{ text: DRAFT }]],
  ] as const) {
    const from = customer();
    if (script) app.llm.script([...script]);
    await inbound(t, line, from, text);
    await waitFor(() => readers.sentTo(from).length === 1, 15_000, `the ${kind} reply`);
    sent[kind] = readers.sentTo(from)[0]?.body;
    expect((await conversationOf(line.assistantId))?.status, kind).toBe('handoff');
  }
  return sent;
}

describe('outside business hours', () => {
  it('the widget: a rule, the customer asking and a withheld reply each tell when a person is back', async () => {
    travelTo('sat', '10:00');
    expect(await widgetHandoffs()).toEqual({
      rule: OUTSIDE,
      asked: `Connecting you.\n\n${OUTSIDE}`,
      weak: OUTSIDE,
    });
  });

  it('SMS: the same texts are sent to the customer', async () => {
    travelTo('sat', '10:00');
    expect(await smsHandoffs()).toEqual({
      rule: OUTSIDE,
      asked: `Connecting you.\n\n${OUTSIDE}`,
      weak: OUTSIDE,
    });
  });

  it('the internal chat, a later weekday, a holiday and a message with any script', async () => {
    const { t, w } = app;
    travelTo('wed', '18:00');
    const assistantId = await assistantWithRule(await createAssistant(t, w.owner, w.ws));
    const tomorrow = await chat(t, w.owner, { assistantId, content: 'refund please' });
    expect(tomorrow.text).toBe("Our team is away for now. We're back tomorrow at 09:00 (Europe/Paris).");
    const thursday = addCalendarDays(wallTime(now(), 'Europe/Paris').date, 1);
    await setHours(t, w.owner, w.ws, {
      ...PARIS_OFFICE,
      holidays: [thursday],
      outsideHoursMessage: 'Fermé — 閉店 🌙',
    });
    const friday = await chat(t, w.owner, { assistantId, content: 'refund please' });
    expect(friday.text).toBe("Fermé — 閉店 🌙 We're back Friday at 09:00 (Europe/Paris).");
    await setHours(t, w.owner, w.ws, PARIS_OFFICE);
  });

  it('a test run shows the text a customer would get now', async () => {
    const { t, w } = app;
    travelTo('sat', '10:00');
    const assistantId = await assistantWithRule(await createAssistant(t, w.owner, w.ws));
    await addItem(t, w.owner, assistantId, 'tests', {
      name: 'refunds go to a person',
      turns: [{ content: 'I want a refund' }],
      expect: { outcome: 'handoff', contains: ["We're back Monday"] },
    });
    const started = await t.request({
      method: 'POST',
      url: `/api/assistants/${assistantId}/test-runs`,
      headers: w.owner.headers,
    });
    expect(started.statusCode, started.body).toBe(202);
    for (;;) {
      const run = await claimRun(t.ctx.db, t.ctx.config.testRuns.leaseMs);
      if (!run) break;
      await playRun(t.ctx, run);
    }
    const got = await t.request({
      method: 'GET',
      url: `/api/assistants/${assistantId}/test-runs/${started.json().data.id}`,
      headers: w.owner.headers,
    });
    expect(got.json().data.results[0]).toMatchObject({ passed: true, reply: OUTSIDE });
  });
});

describe('inside business hours', () => {
  it('nothing changes on the widget and over SMS', async () => {
    travelTo('wed', '12:00');
    expect(await widgetHandoffs()).toEqual({ rule: NOTICE, asked: 'Connecting you.', weak: NOTICE });
    expect(await smsHandoffs()).toEqual({ rule: NOTICE, asked: 'Connecting you.', weak: NOTICE });
  });
});
