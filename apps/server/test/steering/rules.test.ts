import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversations, curatedAnswers, messages, workspaceCredits } from '../../src/db/schema/index.ts';
import { chat, messagesOf } from '../chat/helpers.ts';
import { inbound, smsLine } from '../sms/helpers.ts';
import {
  customer,
  type InboundApp,
  inboundReaders,
  startInbound,
  stopInbound,
} from '../sms/inbound-setup.ts';
import { createAssistant } from '../support/factories.ts';
import { waitFor } from '../support/wait.ts';
import { initWidget, widgetAssistant, widgetChat } from '../widget/helpers.ts';
import { addAnswer, addRule } from './helpers.ts';

/**
 * docs/steering.md "Guidance rules", "Curated answers", "Order": handoff and refuse rules and
 * curated answers answer before any model call on the internal chat, the widget and SMS; every
 * enabled rule reaches a remote model's instructions.
 */
let app: InboundApp;
beforeAll(async () => {
  app = await startInbound();
});
afterAll(() => stopInbound(app));

const NOTICE = 'Thanks for your message. A person from our team will answer you here shortly.';
const modelCalls = () => app.llm.requests.length;
const usedCredits = async (ws: string) => {
  const [row] = await app.t.ctx.db
    .select()
    .from(workspaceCredits)
    .where(eq(workspaceCredits.workspaceId, ws));
  return row?.used ?? 0;
};

async function steeredAssistant(extra: Record<string, unknown> = {}) {
  const { t, w } = app;
  const assistantId = await createAssistant(t, w.owner, w.ws, extra);
  const refunds = await addRule(t, w.owner, assistantId, {
    name: 'refunds',
    kind: 'handoff',
    text: 'Refund requests go to a person.',
    triggers: ['refund', 'money back'],
  });
  const legal = await addRule(t, w.owner, assistantId, {
    name: 'no legal advice',
    kind: 'refuse',
    text: 'I cannot give legal advice; please ask a lawyer.',
    triggers: ['lawsuit', 'sue'],
  });
  await addRule(t, w.owner, assistantId, {
    name: 'be brief',
    kind: 'tone',
    text: 'Answer in at most two sentences.',
  });
  await addRule(t, w.owner, assistantId, {
    name: 'disabled one',
    kind: 'refuse',
    text: 'Never said.',
    triggers: ['weather'],
    enabled: false,
  });
  const software = await addAnswer(t, w.owner, assistantId, {
    question: 'Can I return opened software?',
    answer: 'Opened software cannot be returned, only exchanged for the same title.',
    variants: ['Do you take back software that was opened'],
  });
  return { assistantId, refunds, legal, software };
}

describe('on the internal chat', () => {
  it('a handoff rule hands over before any model call: reason rule, the rule named, the customer told, no credit', async () => {
    const { t, w } = app;
    const a = await steeredAssistant();
    const before = modelCalls();
    const credits = await usedCredits(w.ws);
    const r = await chat(t, w.owner, { assistantId: a.assistantId, content: 'I want my MONEY back, now!' });
    expect(r.status).toBe(200);
    expect(r.text).toBe(NOTICE);
    expect(modelCalls()).toBe(before);
    const [conv] = await t.ctx.db.select().from(conversations).where(eq(conversations.id, r.conversationId!));
    expect(conv).toMatchObject({ status: 'handoff', handoffReason: 'rule', handoffRuleId: a.refunds.id });
    const stored = await t.ctx.db.select().from(messages).where(eq(messages.conversationId, conv!.id));
    expect(stored.map((m) => [m.role, m.content, m.outcome])).toEqual(
      expect.arrayContaining([
        ['user', 'I want my MONEY back, now!', null],
        ['system', 'Handed off by rule: refunds', null],
        ['assistant', NOTICE, 'handoff'],
      ]),
    );
    expect(await usedCredits(w.ws)).toBe(credits);
    // The inbox shows why.
    const inbox = await t.request({
      method: 'GET',
      url: `/api/inbox/conversations/${conv!.id}`,
      headers: w.owner.headers,
    });
    expect(inbox.statusCode, inbox.body).toBe(200);
    expect(inbox.json().data).toMatchObject({ handoffReason: 'rule', handoffRuleId: a.refunds.id });
  });

  it('a refuse rule answers its text, outcome declined, one credit; a disabled rule does nothing', async () => {
    const { t, w } = app;
    const a = await steeredAssistant();
    const before = modelCalls();
    const credits = await usedCredits(w.ws);
    const r = await chat(t, w.owner, { assistantId: a.assistantId, content: 'Can I sue you?' });
    expect(r.text).toBe('I cannot give legal advice; please ask a lawyer.');
    expect(modelCalls()).toBe(before);
    expect(await usedCredits(w.ws)).toBe(credits + 1);
    const listed = await messagesOf(t, w.owner, r.conversationId!);
    expect(listed.at(-1)).toMatchObject({ role: 'assistant', outcome: 'declined', curatedAnswerId: null });
    app.llm.script([{ text: 'Sunny.' }]);
    const weather = await chat(t, w.owner, { assistantId: a.assistantId, content: 'How is the weather?' });
    expect(weather.text).toBe('Sunny.');
    expect(modelCalls()).toBe(before + 1);
  });

  it('triggers match whole words only, in any case and without accents', async () => {
    const { t, w } = app;
    const assistantId = await createAssistant(t, w.owner, w.ws);
    await addRule(t, w.owner, assistantId, {
      name: 'remboursement',
      kind: 'refuse',
      text: 'Refused.',
      triggers: ['Rémboursement', '返金'],
    });
    for (const content of [
      'REMBOURSEMENT svp',
      'un remboursement?',
      'je veux un rémboursement.',
      '返金してください',
    ]) {
      const r = await chat(t, w.owner, { assistantId, content });
      expect(r.text, content).toBe('Refused.');
    }
    app.llm.script([{ text: 'From the model.' }]);
    const r = await chat(t, w.owner, { assistantId, content: 'remboursements et refunding' });
    expect(r.text).toBe('From the model.');
  });

  it('a curated answer is given verbatim without a model call, named on the message; usedCount counts', async () => {
    const { t, w } = app;
    const a = await steeredAssistant();
    const before = modelCalls();
    const first = await chat(t, w.owner, {
      assistantId: a.assistantId,
      content: 'can i return OPENED software',
    });
    const second = await chat(t, w.owner, {
      assistantId: a.assistantId,
      content: 'Do you take back software that was opened?',
    });
    for (const r of [first, second]) {
      expect(r.text).toBe('Opened software cannot be returned, only exchanged for the same title.');
      const listed = await messagesOf(t, w.owner, r.conversationId!);
      expect(listed.at(-1)).toMatchObject({ outcome: 'curated', curatedAnswerId: a.software.id });
    }
    expect(modelCalls()).toBe(before);
    const [row] = await t.ctx.db.select().from(curatedAnswers).where(eq(curatedAnswers.id, a.software.id));
    expect(row?.usedCount).toBe(2);
  });

  it('near misses go to the model: another product, the opposite condition', async () => {
    const { t, w } = app;
    const a = await steeredAssistant();
    for (const content of ['can I return shoes', 'Can I return unopened software?', 'opened software']) {
      const before = modelCalls();
      app.llm.script([{ text: 'Model answer.' }]);
      const r = await chat(t, w.owner, { assistantId: a.assistantId, content });
      expect(r.text, content).toBe('Model answer.');
      expect(modelCalls(), content).toBe(before + 1);
    }
  });

  it("every enabled rule is in a remote model's instructions, and the model's reply is `answered`", async () => {
    const { t, w } = app;
    const a = await steeredAssistant();
    app.llm.script([{ text: 'Hello.' }]);
    const r = await chat(t, w.owner, { assistantId: a.assistantId, content: 'Hi there' });
    const body = JSON.stringify(app.llm.requests.at(-1)?.body);
    expect(body).toContain('Refund requests go to a person.');
    expect(body).toContain('I cannot give legal advice; please ask a lawyer.');
    expect(body).toContain('Answer in at most two sentences.');
    expect(body).toContain('refund, money back');
    expect(body).not.toContain('Never said.');
    const listed = await messagesOf(t, w.owner, r.conversationId!);
    expect(listed.at(-1)).toMatchObject({ outcome: 'answered', curatedAnswerId: null });
  });

  it('a change to the rules is seen by the next turn', async () => {
    const { t, w } = app;
    const assistantId = await createAssistant(t, w.owner, w.ws);
    app.llm.script([{ text: 'Model.' }]);
    expect((await chat(t, w.owner, { assistantId, content: 'tell me about pricing' })).text).toBe('Model.');
    const rule = await addRule(t, w.owner, assistantId, {
      name: 'pricing',
      kind: 'refuse',
      text: 'Ask sales.',
      triggers: ['pricing'],
    });
    expect((await chat(t, w.owner, { assistantId, content: 'tell me about pricing' })).text).toBe(
      'Ask sales.',
    );
    await t.request({
      method: 'PATCH',
      url: `/api/assistants/${assistantId}/guidance/${rule.id}`,
      headers: w.owner.headers,
      payload: { enabled: false },
    });
    app.llm.script([{ text: 'Model again.' }]);
    expect((await chat(t, w.owner, { assistantId, content: 'tell me about pricing' })).text).toBe(
      'Model again.',
    );
  });
});

describe('on the widget', () => {
  it('rules and curated answers answer the visitor; the handoff shows in the conversation', async () => {
    const { t, w } = app;
    const assistantId = await widgetAssistant(t, w.owner, w.ws);
    const rule = await addRule(t, w.owner, assistantId, {
      name: 'refunds',
      kind: 'handoff',
      text: 'People handle refunds.',
      triggers: ['refund'],
    });
    await addAnswer(t, w.owner, assistantId, { question: 'What are your opening hours?', answer: '9 to 5.' });
    const s = await initWidget(t, assistantId);
    const before = modelCalls();
    expect((await widgetChat(t, assistantId, s, 'what are your opening hours')).text).toBe('9 to 5.');
    expect((await widgetChat(t, assistantId, s, 'I need a refund')).text).toBe(NOTICE);
    expect(modelCalls()).toBe(before);
    const [conv] = await t.ctx.db
      .select()
      .from(conversations)
      .where(eq(conversations.assistantId, assistantId));
    expect(conv).toMatchObject({
      channel: 'widget',
      status: 'handoff',
      handoffReason: 'rule',
      handoffRuleId: rule.id,
    });
  });
});

describe('over SMS', () => {
  const readers = inboundReaders(() => app);

  it('a refuse rule, a curated answer and a handoff rule each answer by SMS without a model call', async () => {
    const { t, w, provider } = app;
    const line = await smsLine(t, provider, w.owner, w.ws);
    await addRule(t, w.owner, line.assistantId, {
      name: 'legal',
      kind: 'refuse',
      text: 'No legal advice by text.',
      triggers: ['lawyer'],
    });
    const rule = await addRule(t, w.owner, line.assistantId, {
      name: 'cancel',
      kind: 'handoff',
      text: 'Cancellations go to a person.',
      triggers: ['cancel my order'],
    });
    await addAnswer(t, w.owner, line.assistantId, {
      question: 'Do you deliver on Sundays?',
      answer: 'No, Monday to Saturday.',
    });
    const from = customer();
    const before = modelCalls();
    await inbound(t, line, from, 'Should I get a LAWYER?');
    await waitFor(() => readers.sentTo(from).length === 1, 15_000, 'the refusal');
    await inbound(t, line, from, 'do you deliver on sundays');
    await waitFor(() => readers.sentTo(from).length === 2, 15_000, 'the curated answer');
    await inbound(t, line, from, 'Please cancel my order.');
    await waitFor(() => readers.sentTo(from).length === 3, 15_000, 'the handoff notice');
    expect(readers.sentTo(from).map((m) => m.body)).toEqual([
      'No legal advice by text.',
      'No, Monday to Saturday.',
      NOTICE,
    ]);
    expect(modelCalls()).toBe(before);
    const [conv] = await readers.conversationsOf(line.assistantId);
    expect(conv).toMatchObject({ status: 'handoff', handoffReason: 'rule', handoffRuleId: rule.id });
    const stored = await readers.messagesIn(conv!.id);
    expect(stored.filter((m) => m.role === 'assistant').map((m) => m.outcome)).toEqual([
      'declined',
      'curated',
      'handoff',
    ]);
  });
});

describe('handoff reasons', () => {
  const reasonOf = async (id: string) =>
    (await app.t.ctx.db.select().from(conversations).where(eq(conversations.id, id)))[0]?.handoffReason;
  const inboxCall = (id: string, action: 'handoff' | 'release') =>
    app.t.request({
      method: 'POST',
      url: `/api/inbox/conversations/${id}/${action}`,
      headers: app.w.owner.headers,
    });

  it('the handoff tool: customer_asked, or declined right after a declined reply; a person taking over: agent; back to the AI: none', async () => {
    const { t, w } = app;
    const assistantId = await createAssistant(t, w.owner, w.ws);
    await addRule(t, w.owner, assistantId, {
      name: 'legal',
      kind: 'refuse',
      text: 'No legal advice.',
      triggers: ['lawyer'],
    });
    const handoffTurn = [
      { toolCall: { name: 'request_human', args: { reason: 'wants a person' } } },
      { text: 'Connecting you.' },
    ];

    app.llm.script(handoffTurn);
    const asked = await chat(t, w.owner, { assistantId, content: 'Can I talk to someone?' });
    expect(await reasonOf(asked.conversationId!)).toBe('customer_asked');

    const declined = await chat(t, w.owner, { assistantId, content: 'Do I need a lawyer?' });
    expect(declined.text).toBe('No legal advice.');
    app.llm.script(handoffTurn);
    await chat(t, w.owner, {
      assistantId,
      conversationId: declined.conversationId,
      content: 'A person, please',
    });
    const second = { id: declined.conversationId! };
    expect(await reasonOf(second.id)).toBe('declined');

    // Back to the AI: no reason; a person taking over unasked: agent.
    expect((await inboxCall(second.id, 'release')).statusCode).toBe(200);
    expect(await reasonOf(second.id)).toBeNull();
    const taken = await inboxCall(second.id, 'handoff');
    expect(taken.json().data).toMatchObject({
      status: 'handoff',
      handoffReason: 'agent',
      handoffRuleId: null,
    });
  });
});
