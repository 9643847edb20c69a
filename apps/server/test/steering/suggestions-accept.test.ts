import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assistants, curatedAnswers, suggestions } from '../../src/db/schema/index.ts';
import { newId } from '../../src/lib/ids.ts';
import { chat, messagesOf } from '../chat/helpers.ts';
import { createAssistant } from '../support/factories.ts';
import type { TestApp } from '../support/harness.ts';
import { expectNothingStored } from '../support/stored-rows.ts';
import type { World } from '../support/world.ts';
import {
  closeInInbox,
  listSuggestions,
  personReplies,
  settle,
  startSuggestions,
  suggestionsOf,
  visitorSays,
} from './suggestions-setup.ts';

/**
 * docs/measuring.md "Suggestions": accepting one makes a curated answer through the steering
 * service (its limit, the steering version), with the edited words if given; dismissing one;
 * either only once; hostile bodies refused with nothing stored.
 */
let t: TestApp;
let w: World;
let asst: string;
beforeAll(async () => {
  ({ t, w, asst } = await startSuggestions());
});
afterAll(() => t.close());

/** A new open suggestion: a declined question, a person's reply, closed. */
async function suggestion(question: string, answer = 'A person’s answer.', assistantId = asst) {
  const { id } = await visitorSays(t, assistantId, [question]);
  await personReplies(t, w.member, id, answer);
  await closeInInbox(t, w.member, id);
  const [s] = await suggestionsOf(t, w.owner, assistantId, id);
  if (!s) throw new Error('no suggestion made');
  return s;
}

const statusOf = async (id: string) =>
  (await t.ctx.db.select().from(suggestions).where(eq(suggestions.id, id)))[0]?.status;
const steeringVersion = async () =>
  (await t.ctx.db.select().from(assistants).where(eq(assistants.id, asst)))[0]?.steeringVersion;

describe('accept', () => {
  it('as it is: 201 with the curated answer, the steering version moved; a second accept or a dismiss is a 409', async () => {
    const s = await suggestion('Do you gift wrap?', 'Yes, for 3 EUR at checkout.');
    const version = await steeringVersion();
    const res = await settle(t, w.admin, asst, s.id, 'accept', {});
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({ data: { answerId: expect.stringMatching(/^ans_/) } });
    const answerId = res.json().data.answerId;
    const answer = await t.request({
      method: 'GET',
      url: `/api/assistants/${asst}/answers/${answerId}`,
      headers: w.guest.headers,
    });
    expect(answer.json().data).toMatchObject({
      question: 'Do you gift wrap?',
      answer: 'Yes, for 3 EUR at checkout.',
      variants: [],
    });
    expect(await steeringVersion()).toBe((version ?? 0) + 1);
    const [row] = await t.ctx.db.select().from(suggestions).where(eq(suggestions.id, s.id));
    expect(row).toMatchObject({ status: 'accepted', curatedAnswerId: answerId });
    const accepted = (await listSuggestions(t, w.member, asst, 'status=accepted')).json().data;
    expect(accepted.map((x: { id: string }) => x.id)).toContain(s.id);

    for (const action of ['accept', 'dismiss'] as const) {
      const again = await expectNothingStored(t, () =>
        settle(t, w.admin, asst, s.id, action, action === 'accept' ? {} : undefined),
      );
      expect(again.statusCode, again.body).toBe(409);
      expect(again.json()).toMatchObject({ code: 'conflict:api', details: { status: 'accepted' } });
    }
  });

  it('with edits and no body at all; the curated answer then answers the same question in chat', async () => {
    const s = await suggestion('Can I collect my order in person?', 'hi, yes you can i think');
    const res = await settle(t, w.owner, asst, s.id, 'accept', {
      answer: '  Yes: collect it at Main Street 1, Monday to Friday, 9 to 17.  ',
    });
    expect(res.statusCode, res.body).toBe(201);
    const r = await chat(t, w.owner, { assistantId: asst, content: 'can I collect my order in person' });
    expect(r.text).toBe('Yes: collect it at Main Street 1, Monday to Friday, 9 to 17.');
    const [, reply] = await messagesOf(t, w.owner, r.conversationId!);
    expect(reply).toMatchObject({ outcome: 'curated', curatedAnswerId: res.json().data.answerId });

    const bare = await suggestion('Do you sell spare lids?', 'Yes.');
    const noBody = await t.request({
      method: 'POST',
      url: `/api/assistants/${asst}/suggestions/${bare.id}/accept`,
      headers: w.owner.headers,
    });
    expect(noBody.statusCode, noBody.body).toBe(201);
  });

  it('a stored question longer than a curated answer allows: a 400 naming it until edited', async () => {
    const long = `Hello, ${'I bought a kettle last week and '.repeat(20)}can I return it?`;
    const s = await suggestion(long);
    const res = await expectNothingStored(t, () => settle(t, w.owner, asst, s.id, 'accept', {}));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'bad_request:api',
      details: { question: expect.stringMatching(/500/) },
    });
    const edited = await settle(t, w.owner, asst, s.id, 'accept', { question: 'Can I return a kettle?' });
    expect(edited.statusCode, edited.body).toBe(201);
  });

  it("at the assistant's curated-answer limit: the steering service's 400, the suggestion stays open", async () => {
    const full = await createAssistant(t, w.owner, w.ws);
    await t.ctx.db.insert(curatedAnswers).values(
      Array.from({ length: 500 }, (_, i) => ({
        id: newId('ans'),
        workspaceId: w.ws,
        assistantId: full,
        question: `Question ${i}`,
        answer: 'Answer.',
      })),
    );
    await t.request({
      method: 'PATCH',
      url: `/api/assistants/${full}/widget`,
      headers: w.owner.headers,
      payload: { isEnabled: true, allowedDomains: ['shop.example.com'] },
    });
    const s = await suggestion('Do you price match?', 'No.', full);
    const res = await expectNothingStored(t, () => settle(t, w.owner, full, s.id, 'accept', {}));
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual({ answers: 'at most 500' });
    expect(await statusOf(s.id)).toBe('open');
  });

  it('two accepts at once: one curated answer, the other a 409', async () => {
    const s = await suggestion('Is there a student discount?', 'No, sorry.');
    const results = await Promise.all([1, 2].map(() => settle(t, w.owner, asst, s.id, 'accept', {})));
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    const made = await t.ctx.db
      .select()
      .from(curatedAnswers)
      .where(eq(curatedAnswers.question, 'Is there a student discount?'));
    expect(made).toHaveLength(1);
  });
});

describe('dismiss', () => {
  it('200 with the suggestion dismissed; then accept or dismiss is a 409', async () => {
    const s = await suggestion('Do you ship pets?', 'No.');
    const res = await settle(t, w.admin, asst, s.id, 'dismiss');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ id: s.id, status: 'dismissed', question: 'Do you ship pets?' });
    expect((await listSuggestions(t, w.guest, asst, 'status=dismissed')).json().data[0].id).toBe(s.id);
    for (const action of ['accept', 'dismiss'] as const) {
      const again = await settle(t, w.admin, asst, s.id, action);
      expect(again.statusCode).toBe(409);
      expect(again.json().details).toEqual({ status: 'dismissed' });
    }
  });
});

describe('hostile input', () => {
  it('wrong types, unknown fields, empty or too long text, huge bodies: refused, nothing stored', async () => {
    const s = await suggestion('Do you repair toasters?', 'Only under warranty.');
    const bad: unknown[] = [
      { question: 5 },
      { answer: null },
      { answer: ['a'] },
      { question: '   ' },
      { question: 'x'.repeat(501) },
      { answer: 'x'.repeat(4001) },
      { status: 'accepted' },
      { curatedAnswerId: 'ans_x', question: 'ok' },
      ['question'],
      'question',
    ];
    for (const payload of bad) {
      const res = await expectNothingStored(t, () => settle(t, w.owner, asst, s.id, 'accept', payload));
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().code).toBe('bad_request:api');
    }
    const huge = await expectNothingStored(t, () =>
      settle(t, w.owner, asst, s.id, 'accept', { answer: 'x'.repeat(3 * 1024 * 1024) }),
    );
    expect(huge.statusCode).toBe(413);
    const malformed = await t.request({
      method: 'POST',
      url: `/api/assistants/${asst}/suggestions/${s.id}/accept`,
      headers: { ...w.owner.headers, 'content-type': 'application/json' },
      payload: '{"question": ',
    });
    expect(malformed.statusCode).toBe(400);
    expect(await statusOf(s.id)).toBe('open');

    const unicode = await settle(t, w.owner, asst, s.id, 'accept', {
      question: 'Reparieren Sie Toaster in Zürich? 🍞',
      answer: 'Nur mit Garantie — تحت الضمان فقط.',
    });
    expect(unicode.statusCode, unicode.body).toBe(201);
    const [made] = await t.ctx.db
      .select()
      .from(curatedAnswers)
      .where(eq(curatedAnswers.id, unicode.json().data.answerId));
    expect(made).toMatchObject({ question: 'Reparieren Sie Toaster in Zürich? 🍞' });
  });

  it('an id of another assistant, an unknown or malformed id: 404', async () => {
    const other = await createAssistant(t, w.owner, w.ws);
    const s = await suggestion('Do you sell descaler?', 'Yes.');
    for (const [assistantId, id] of [
      [other, s.id],
      [asst, 'sug_01jdunknown'],
      [asst, `${s.id}x`],
    ] as const) {
      const res = await settle(t, w.owner, assistantId, id, 'dismiss');
      expect(res.statusCode, `${assistantId} ${id}`).toBe(404);
      expect(res.json().code).toBe('not_found:api');
    }
    expect(await statusOf(s.id)).toBe('open');
  });
});
