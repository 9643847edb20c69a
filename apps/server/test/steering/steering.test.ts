import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assistants,
  assistantTests,
  conversations,
  guidanceRules,
  messages,
  testRuns,
} from '../../src/db/schema/index.ts';
import { newId } from '../../src/lib/ids.ts';
import { chat, messagesOf } from '../chat/helpers.ts';
import { createAssistant } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { expectNothingStored } from '../support/stored-rows.ts';
import { createWorld, type World } from '../support/world.ts';
import { addItem, addRule } from './helpers.ts';

/**
 * docs/steering.md "Endpoints": guidance rules, curated answers and tests of an assistant: create,
 * list, read, change, delete; validation; the limits, also under concurrent creation.
 */
let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await createTestApp({ API_RATE_LIMIT_PER_MINUTE: '100000' });
  w = await createWorld(t);
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
  t.request({
    method,
    url,
    headers: w.owner.headers,
    ...(payload !== undefined && { payload: payload as object }),
  });

describe('guidance rules', () => {
  it('201 with defaults, listed oldest first, read, changed, deleted', async () => {
    const a = await createAssistant(t, w.owner, w.ws);
    const res = await call('POST', `/api/assistants/${a}/guidance`, {
      name: ' refunds ',
      kind: 'handoff',
      text: 'Refunds go to a person.',
    });
    expect(res.statusCode, res.body).toBe(201);
    const rule = res.json().data;
    expect(rule).toEqual({
      id: expect.stringMatching(/^gdr_/),
      name: 'refunds',
      kind: 'handoff',
      text: 'Refunds go to a person.',
      triggers: [],
      enabled: true,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    await addRule(t, w.owner, a, { name: 'tone', kind: 'tone', text: 'Be warm.' });
    const list = await call('GET', `/api/assistants/${a}/guidance?limit=10`);
    expect(list.json()).toMatchObject({ total: 2, limit: 10, offset: 0 });
    expect(list.json().data.map((r: { name: string }) => r.name)).toEqual(['refunds', 'tone']);
    const patched = await call('PATCH', `/api/assistants/${a}/guidance/${rule.id}`, {
      triggers: ['refund', 'geld zurück'],
      enabled: false,
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().data).toMatchObject({
      triggers: ['refund', 'geld zurück'],
      enabled: false,
      name: 'refunds',
    });
    const [stored] = await t.ctx.db.select().from(guidanceRules).where(eq(guidanceRules.id, rule.id));
    expect(stored).toMatchObject({ triggers: ['refund', 'geld zurück'], enabled: false, assistantId: a });
    expect((await call('GET', `/api/assistants/${a}/guidance/${rule.id}`)).json().data.enabled).toBe(false);
    expect((await call('DELETE', `/api/assistants/${a}/guidance/${rule.id}`)).statusCode).toBe(204);
    expect((await call('GET', `/api/assistants/${a}/guidance/${rule.id}`)).statusCode).toBe(404);
    expect(await t.ctx.db.select().from(guidanceRules).where(eq(guidanceRules.id, rule.id))).toEqual([]);
  });

  it('each change moves the assistant steering version (what every process reads its rules by)', async () => {
    const a = await createAssistant(t, w.owner, w.ws);
    const version = async () =>
      (await t.ctx.db.select().from(assistants).where(eq(assistants.id, a)))[0]?.steeringVersion;
    expect(await version()).toBe(0);
    const rule = await addRule(t, w.owner, a, { name: 'n', kind: 'tone', text: 't' });
    expect(await version()).toBe(1);
    await call('PATCH', `/api/assistants/${a}/guidance/${rule.id}`, { text: 'u' });
    await call('DELETE', `/api/assistants/${a}/guidance/${rule.id}`);
    expect(await version()).toBe(3);
  });

  it('400 naming each bad field: kinds, lengths, too many triggers, unknown and read-only fields', async () => {
    const a = await createAssistant(t, w.owner, w.ws);
    const cases: Array<[object, string]> = [
      [{ name: 'n', kind: 'other', text: 't' }, 'kind'],
      [{ name: '', kind: 'tone', text: 't' }, 'name'],
      [{ name: 'x'.repeat(101), kind: 'tone', text: 't' }, 'name'],
      [{ name: 'n', kind: 'tone', text: 'x'.repeat(2001) }, 'text'],
      [
        { name: 'n', kind: 'tone', text: 't', triggers: Array.from({ length: 51 }, (_, i) => `w${i}`) },
        'triggers',
      ],
      [{ name: 'n', kind: 'tone', text: 't', triggers: ['x'.repeat(101)] }, 'triggers.0'],
      [{ name: 'n', kind: 'tone', text: 't', triggers: 'refund' }, 'triggers'],
      [{ name: 'n', kind: 'tone', text: 't', enabled: 'yes' }, 'enabled'],
      [{ name: 'n', kind: 'tone', text: 't', usedCount: 3 }, 'usedCount'],
      [{ name: 'n', kind: 'tone', text: 't', id: 'gdr_mine' }, 'id'],
    ];
    for (const [body, field] of cases) {
      await expectNothingStored(t, async () => {
        const res = await call('POST', `/api/assistants/${a}/guidance`, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().code).toBe('bad_request:api');
        expect(Object.keys(res.json().details ?? {}), JSON.stringify(body)).toContain(field);
      });
    }
  });

  it('at most 100 an assistant: the 101st is a 400 naming the limit', async () => {
    const a = await createAssistant(t, w.owner, w.ws);
    await t.ctx.db.insert(guidanceRules).values(
      Array.from({ length: 100 }, (_, i) => ({
        id: newId('gdr'),
        workspaceId: w.ws,
        assistantId: a,
        name: `r${i}`,
        kind: 'tone' as const,
        text: 't',
      })),
    );
    await expectNothingStored(t, async () => {
      const res = await call('POST', `/api/assistants/${a}/guidance`, {
        name: 'one more',
        kind: 'tone',
        text: 't',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'bad_request:api',
        details: { guidance: 'at most 100' },
      });
      expect(res.json().error).toContain('100');
    });
  });

  it('the limit holds when creations race: 30 at once with 95 stored → exactly 5 more', async () => {
    const a = await createAssistant(t, w.owner, w.ws);
    await t.ctx.db.insert(guidanceRules).values(
      Array.from({ length: 95 }, (_, i) => ({
        id: newId('gdr'),
        workspaceId: w.ws,
        assistantId: a,
        name: `r${i}`,
        kind: 'tone' as const,
        text: 't',
      })),
    );
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        call('POST', `/api/assistants/${a}/guidance`, { name: `race ${i}`, kind: 'tone', text: 't' }),
      ),
    );
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(5);
    expect(results.filter((r) => r.statusCode === 400)).toHaveLength(25);
    const [row] = await t.ctx.db
      .select({ n: count() })
      .from(guidanceRules)
      .where(eq(guidanceRules.assistantId, a));
    expect(row?.n).toBe(100);
  });

  it("another assistant's rule is a 404 on this assistant's path", async () => {
    const a = await createAssistant(t, w.owner, w.ws);
    const b = await createAssistant(t, w.owner, w.ws);
    const rule = await addRule(t, w.owner, b, { name: 'n', kind: 'tone', text: 't' });
    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      const res = await call(
        method,
        `/api/assistants/${a}/guidance/${rule.id}`,
        method === 'PATCH' ? { text: 'x' } : undefined,
      );
      expect(res.statusCode, method).toBe(404);
      expect(res.json().code).toBe('not_found:api');
    }
  });
});

describe('curated answers', () => {
  it('201 with usedCount 0; variants changed; unicode kept as written', async () => {
    const a = await createAssistant(t, w.owner, w.ws);
    const created = await addItem(t, w.owner, a, 'answers', {
      question: 'Puis-je être remboursé ?',
      answer: 'Oui, sous 30 jours. 🙂',
      variants: ['remboursement possible ?'],
    });
    expect(created).toMatchObject({
      id: expect.stringMatching(/^ans_/),
      question: 'Puis-je être remboursé ?',
      answer: 'Oui, sous 30 jours. 🙂',
      variants: ['remboursement possible ?'],
      usedCount: 0,
    });
    const res = await call('PATCH', `/api/assistants/${a}/answers/${created.id}`, { variants: [] });
    expect(res.json().data.variants).toEqual([]);
    const bad = await call('PATCH', `/api/assistants/${a}/answers/${created.id}`, { usedCount: 10 });
    expect(bad.statusCode).toBe(400);
  });

  it('400 for a question too long, 21 variants or an empty answer', async () => {
    const a = await createAssistant(t, w.owner, w.ws);
    for (const [body, field] of [
      [{ question: 'x'.repeat(501), answer: 'a' }, 'question'],
      [{ question: 'q', answer: 'a', variants: Array.from({ length: 21 }, (_, i) => `v${i}`) }, 'variants'],
      [{ question: 'q', answer: '  ' }, 'answer'],
      [{ question: 'q', answer: 'x'.repeat(4001) }, 'answer'],
    ] as const) {
      const res = await call('POST', `/api/assistants/${a}/answers`, body);
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json().details ?? {})).toContain(field);
    }
  });
});

describe('tests', () => {
  it('201 with turns and expectations; 1-10 turns; unknown expectation keys refused', async () => {
    const a = await createAssistant(t, w.owner, w.ws);
    const created = await addItem(t, w.owner, a, 'tests', {
      name: 'returns',
      turns: [{ content: 'Hi' }, { content: 'Can I return shoes?' }],
      expect: { outcome: 'answered', contains: ['30 days'], notContains: ['never'], cites: ['src_x'] },
    });
    expect(created).toMatchObject({
      id: expect.stringMatching(/^tst_/),
      turns: [{ content: 'Hi' }, { content: 'Can I return shoes?' }],
      expect: { outcome: 'answered', contains: ['30 days'], notContains: ['never'], cites: ['src_x'] },
    });
    for (const body of [
      { name: 'n', turns: [] },
      { name: 'n', turns: Array.from({ length: 11 }, () => ({ content: 'q' })) },
      { name: 'n', turns: [{ content: 'q' }], expect: { outcome: 'great' } },
      { name: 'n', turns: [{ content: 'q' }], expect: { sounds: 'right' } },
    ]) {
      expect((await call('POST', `/api/assistants/${a}/tests`, body)).statusCode, JSON.stringify(body)).toBe(
        400,
      );
    }
  });

  it('at most 200 an assistant: the 201st is a 400 naming the limit', async () => {
    const a = await createAssistant(t, w.owner, w.ws);
    await t.ctx.db.insert(assistantTests).values(
      Array.from({ length: 200 }, (_, i) => ({
        id: newId('tst'),
        workspaceId: w.ws,
        assistantId: a,
        name: `t${i}`,
        turns: [{ content: 'q' }],
      })),
    );
    await expectNothingStored(t, async () => {
      const res = await call('POST', `/api/assistants/${a}/tests`, {
        name: 'one more',
        turns: [{ content: 'q' }],
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'bad_request:api',
        details: { tests: 'at most 200' },
      });
    });
  });

  it('a change to tests starts no run; a change to rules does, when the assistant has tests', async () => {
    const a = await createAssistant(t, w.owner, w.ws);
    const runsOf = () => t.ctx.db.select().from(testRuns).where(eq(testRuns.assistantId, a));
    await addRule(t, w.owner, a, { name: 'n', kind: 'tone', text: 't' });
    expect(await runsOf()).toEqual([]);
    await addItem(t, w.owner, a, 'tests', { name: 'n', turns: [{ content: 'q' }] });
    expect(await runsOf()).toEqual([]);
    await addRule(t, w.owner, a, { name: 'm', kind: 'tone', text: 't' });
    await addItem(t, w.owner, a, 'answers', { question: 'q', answer: 'a' });
    const runs = await runsOf();
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ status: 'queued', trigger: 'guidance' });
  });
});

describe('a test from a conversation', () => {
  it("its customer messages become the turns; the AI reply's outcome and sources the expectation", async () => {
    const a = await createAssistant(t, w.owner, w.ws);
    const conversationId = newId('conv');
    await t.ctx.db
      .insert(conversations)
      .values({ id: conversationId, workspaceId: w.ws, assistantId: a, channel: 'widget', title: 'Returns' });
    const at = (s: number) => new Date(Date.UTC(2026, 10, 1, 10, 0, s));
    const msg = (role: 'user' | 'assistant' | 'agent', content: string, s: number, extra = {}) => ({
      id: newId('msg'),
      workspaceId: w.ws,
      conversationId,
      role,
      content,
      createdAt: at(s),
      ...extra,
    });
    const citation = { index: 1, chunkId: 'chk_1', sourceId: 'src_returns', title: 'Returns', url: null };
    await t.ctx.db.insert(messages).values([
      msg('user', 'Hi', 1),
      msg('assistant', 'Hello!', 2, { outcome: 'answered' }),
      msg('user', 'Can I return shoes?', 3),
      msg('assistant', 'Yes, within 30 days [1].', 4, {
        outcome: 'answered',
        citations: [citation, citation],
      }),
    ]);
    const res = await call('POST', `/api/assistants/${a}/tests/from-conversation`, { conversationId });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({
      name: 'From: Returns',
      turns: [{ content: 'Hi' }, { content: 'Can I return shoes?' }],
      expect: { outcome: 'answered', cites: ['src_returns'] },
    });
  });

  it("a conversation of another assistant, another workspace or a colleague's private chat is a 404", async () => {
    const a = await createAssistant(t, w.owner, w.ws);
    const b = await createAssistant(t, w.owner, w.ws);
    const ids = { other: newId('conv'), privateChat: newId('conv') };
    await t.ctx.db.insert(conversations).values([
      { id: ids.other, workspaceId: w.ws, assistantId: b, channel: 'widget' },
      { id: ids.privateChat, workspaceId: w.ws, assistantId: a, channel: 'chat', startedBy: w.member.id },
    ]);
    for (const conversationId of [ids.other, ids.privateChat, 'conv_missing']) {
      await expectNothingStored(t, async () => {
        const res = await call('POST', `/api/assistants/${a}/tests/from-conversation`, { conversationId });
        expect(res.statusCode, conversationId).toBe(404);
      });
    }
  });
});

describe('the offline responder', () => {
  it("says it does not know: outcome declined; asked for a person next, the handoff's reason is declined", async () => {
    const a = await createAssistant(t, w.owner, w.ws);
    const first = await chat(t, w.owner, { assistantId: a, content: 'What is the airspeed of a swallow?' });
    const listed = await messagesOf(t, w.owner, first.conversationId!);
    expect(listed.at(-1)).toMatchObject({ role: 'assistant', outcome: 'declined' });
    await chat(t, w.owner, {
      assistantId: a,
      conversationId: first.conversationId,
      content: 'Then let me talk to a person',
    });
    const [conv] = await t.ctx.db
      .select()
      .from(conversations)
      .where(eq(conversations.id, first.conversationId!));
    expect(conv).toMatchObject({ status: 'handoff', handoffReason: 'declined' });
  });
});
