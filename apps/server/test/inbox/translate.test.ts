import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversations, messages, workspaceCredits } from '../../src/db/schema/index.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { type LlmServer, startLlmServer } from '../support/llm-server.ts';
import { securitySuite } from '../support/security.ts';
import { changedTables, expectNothingStored, snapshotRows } from '../support/stored-rows.ts';
import { createWorld, ownerOf, setUsed, type World } from '../support/world.ts';
import { fromSite, NO_RATE_LIMIT, SITE, widgetAssistant } from '../widget/helpers.ts';
import { inbox, openSse } from './helpers.ts';
import { startInbox, visitorOf } from './setup.ts';

/**
 * Translation in the inbox (docs/languages.md "Translation"), against the OpenAI-compatible
 * stand-in: a message translated for the agent, a reply sent translated with the person's words
 * kept, a credit each, and nothing stored or sent when the model fails.
 */
let llm: LlmServer;
let t: TestApp;
let w: World;
let asst: string;
let base: string;

beforeAll(async () => {
  llm = await startLlmServer({ instant: true });
  ({ t, w, asst, base } = await startInbox({
    AI_PROVIDER: 'openai',
    AI_BASE_URL: `${llm.url}/v1`,
    AI_MODEL: 'stand-in',
  }));
});
afterAll(async () => {
  await t?.close();
  await llm.close();
});

const SPANISH = '¿Dónde está mi pedido? Lo pedí hace una semana y no ha llegado.';

/** A widget conversation whose first message is `content`; its id and that message's id. */
async function customer(app: TestApp, assistantId: string, member: World['member'], content = SPANISH) {
  const { s, id } = await visitorOf(app, assistantId, content);
  const listed = await inbox(app, member, 'GET', `/${id}/messages?limit=100`);
  const first = listed.json().data[0] as { id: string; content: string };
  return { s, id, messageId: first.id };
}

const used = async (workspaceId = w.ws) =>
  (await t.ctx.db.select().from(workspaceCredits).where(eq(workspaceCredits.workspaceId, workspaceId)))[0]
    ?.used ?? 0;

/** The last request the stand-in got to translate: its instruction and the text. */
function translationRequest() {
  const found = llm.requests
    .map((r) => r.body as { messages: Array<{ role: string; content: unknown }>; stream?: boolean })
    .filter((b) => String(b.messages[0]?.content).startsWith('Translate'))
    .at(-1);
  if (!found) throw new Error('the stand-in got no translation request');
  return {
    system: String(found.messages[0]?.content),
    text: found.messages[1]?.content,
    stream: found.stream,
  };
}

const translate = (id: string, messageId: string, body: unknown, user = w.member) =>
  inbox(t, user, 'POST', `/${id}/messages/${messageId}/translate`, body as Record<string, unknown>);

describe('translating a message', () => {
  it('answers the translation, the language it was in and the target; the model is told the target by name', async () => {
    const { id, messageId } = await customer(t, asst, w.member);
    const before = await used();
    llm.script([{ text: 'Where is my order? I ordered it a week ago and it has not arrived.' }]);
    // Whoever reads the conversation may ask: a guest too.
    const res = await translate(id, messageId, { to: 'en' }, w.guest);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      data: {
        text: 'Where is my order? I ordered it a week ago and it has not arrived.',
        from: 'es',
        to: 'en',
      },
    });
    const sent = translationRequest();
    expect(sent.system).toContain('into English (en)');
    expect(sent.text).toBe(SPANISH);
    expect(await used()).toBe(before + 1);

    // Into Japanese: named in the instruction; an answer's own spacing is trimmed.
    llm.script([{ text: '  注文はどこですか？\n' }]);
    const ja = await translate(id, messageId, { to: 'ja' });
    expect(ja.json().data).toEqual({ text: '注文はどこですか？', from: 'es', to: 'ja' });
    expect(translationRequest().system).toContain('into Japanese (ja)');
  });

  it('a message too short to tell takes the conversation’s language as `from`', async () => {
    const { s, id } = await customer(t, asst, w.member);
    await fromSite(t, {
      method: 'POST',
      url: `/api/widget/${asst}/chat`,
      token: s.token,
      payload: { content: 'ok', sessionId: s.sessionId },
    });
    const listed = (await inbox(t, w.member, 'GET', `/${id}/messages?limit=100`)).json().data as Array<{
      id: string;
      content: string;
    }>;
    const short = listed.find((m) => m.content === 'ok');
    llm.script([{ text: 'ok' }]);
    const res = await translate(id, short?.id ?? '', { to: 'en' });
    expect(res.json().data).toEqual({ text: 'ok', from: 'es', to: 'en' });
  });

  it('refuses a bad body with 400, a message not of this conversation with 404; nothing stored', async () => {
    const { id, messageId } = await customer(t, asst, w.member);
    const other = await customer(t, asst, w.member);
    for (const body of [
      {},
      { to: 'xx' },
      { to: 'EN' },
      { to: 5 },
      { to: 'en', extra: 1 },
      { to: 'e\u0000n' },
      { to: 'e\u0001n' },
      { to: '\ud800' },
      { to: 'en', note: 'a lone \udc00 surrogate' },
    ]) {
      const what = JSON.stringify(body);
      const res = await expectNothingStored(t, () => translate(id, messageId, body), what);
      expect(res.statusCode, `${what} ${res.body}`).toBe(400);
      expect(res.json().code).toBe('bad_request:api');
    }
    const huge = await expectNothingStored(t, () =>
      translate(id, messageId, { to: 'x'.repeat(3 * 1024 * 1024) }),
    );
    expect(huge.statusCode).toBe(413);
    for (const mid of ['msg_unknown', other.messageId, 'x'.repeat(101)]) {
      const res = await expectNothingStored(t, () => translate(id, mid, { to: 'en' }), mid.slice(0, 20));
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json().code).toBe('not_found:api');
    }
  });

  it('the model failing is the chat’s upstream failure (500), with the credit given back', async () => {
    const { id, messageId } = await customer(t, asst, w.member);
    const before = await used();
    llm.failBeforeFirstToken(503);
    const res = await translate(id, messageId, { to: 'en' });
    expect(res.statusCode, res.body).toBe(500);
    expect(res.json()).toMatchObject({
      code: 'internal_server_error:api',
      error: expect.stringMatching(/try again/),
    });
    expect(await used()).toBe(before);
    llm.script([{ text: '' }]);
    expect((await translate(id, messageId, { to: 'en' })).statusCode).toBe(500);
    expect(await used()).toBe(before);
  });

  it('no credits left: 403 credits_limit_exceeded before the model is called', async () => {
    const { id, messageId } = await customer(t, asst, w.member);
    const current = await used();
    const requests = llm.requests.length;
    await setUsed(t, w.ws, 1_200);
    try {
      const res = await translate(id, messageId, { to: 'en' });
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json().code).toBe('credits_limit_exceeded');
      expect(llm.requests.length).toBe(requests);
    } finally {
      await setUsed(t, w.ws, current);
    }
  });
});

describe('a reply sent translated', () => {
  it('the channel carries the translation, the message keeps the person’s words; usage and a credit recorded', async () => {
    const { s, id } = await customer(t, asst, w.member);
    const stream = await openSse(`${base}/api/widget/${asst}/sessions/${s.sessionId}/events`, {
      origin: SITE,
      authorization: `Widget ${s.token}`,
    });
    const before = await used();
    llm.script([{ text: 'Tu pedido sale mañana. 📦' }]);
    const res = await inbox(t, w.member, 'POST', `/${id}/messages`, {
      content: 'Your order ships tomorrow. 📦',
      translateTo: 'es',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({
      role: 'agent',
      content: 'Tu pedido sale mañana. 📦',
      originalContent: 'Your order ships tomorrow. 📦',
      usage: { promptTokens: expect.any(Number), completionTokens: expect.any(Number) },
    });
    expect(translationRequest()).toMatchObject({ text: 'Your order ships tomorrow. 📦' });
    expect(translationRequest().system).toContain('into Spanish (es)');
    expect(await used()).toBe(before + 1);

    // Delivered translated on the widget, live and in its history.
    const live = await stream.until((e) => e.type === 'message', 'the agent reply');
    stream.close();
    expect(live).toMatchObject({ message: { role: 'assistant', content: 'Tu pedido sale mañana. 📦' } });
    expect(JSON.stringify(live)).not.toContain('Your order ships tomorrow');
    const history = await fromSite(t, {
      method: 'GET',
      url: `/api/widget/${asst}/sessions/${s.sessionId}/messages`,
      token: s.token,
    });
    expect(history.json().data.at(-1)).toMatchObject({ content: 'Tu pedido sale mañana. 📦' });

    // The inbox shows both; every other message has originalContent null.
    const listed = (await inbox(t, w.guest, 'GET', `/${id}/messages?limit=100`)).json().data as Array<{
      role: string;
      originalContent: string | null;
    }>;
    expect(listed.map((m) => [m.role, m.originalContent])).toEqual([
      ['user', null],
      ['assistant', null],
      ['agent', 'Your order ships tomorrow. 📦'],
    ]);
    const conversation = (await inbox(t, w.member, 'GET', `/${id}`)).json().data;
    expect(conversation).toMatchObject({ status: 'handoff', assigneeId: w.member.id });
  });

  it('a failed translation stores nothing, sends nothing and takes nothing over; the credit goes back', async () => {
    const { id } = await customer(t, asst, w.member);
    const before = await snapshotRows(t);
    const credits = await used();
    // An HTTP error; a connection dropped twice (once is tried again, providers/llm/remote.ts).
    const failures = [
      () => llm.failBeforeFirstToken(500),
      () => llm.script([{ reset: true }, { reset: true }]),
    ];
    for (const fail of failures) {
      fail();
      const res = await inbox(t, w.member, 'POST', `/${id}/messages`, {
        content: 'On its way',
        translateTo: 'fr',
      });
      expect(res.statusCode, res.body).toBe(500);
      expect(res.json().code).toBe('internal_server_error:api');
    }
    // Only the credit row's updated_at moved (reserved, then given back).
    const after = await snapshotRows(t);
    expect(changedTables(before, after).filter((x) => !x.startsWith('workspace_credits '))).toEqual([]);
    expect(await used()).toBe(credits);
    const [row] = await t.ctx.db.select().from(conversations).where(eq(conversations.id, id));
    expect(row?.status).toBe('open');
  });

  it('hostile: translateTo not a supported language or not a string → 400, nothing stored; without it no model call', async () => {
    const { id } = await customer(t, asst, w.member);
    for (const translateTo of ['xx', 'zh-Hant', '', 7, null, 'es'.repeat(50)]) {
      const what = JSON.stringify(translateTo);
      const res = await expectNothingStored(
        t,
        () => inbox(t, w.member, 'POST', `/${id}/messages`, { content: 'Hello', translateTo }),
        what,
      );
      expect(res.statusCode, `${what} ${res.body}`).toBe(400);
      expect(Object.keys(res.json().details ?? {})).toContain('translateTo');
    }
    const requests = llm.requests.length;
    const plain = await inbox(t, w.member, 'POST', `/${id}/messages`, { content: 'Hello 👋 مرحبا' });
    expect(plain.json().data).toMatchObject({
      content: 'Hello 👋 مرحبا',
      originalContent: null,
      usage: null,
    });
    expect(llm.requests.length).toBe(requests);
    const [stored] = await t.ctx.db.select().from(messages).where(eq(messages.id, plain.json().data.id));
    expect(stored?.originalContent).toBeNull();
  });
});

describe('with only the built-in model', () => {
  it('translating and a translated reply are 409 conflict:api saying a model is needed; nothing stored', async () => {
    const off = await createTestApp(NO_RATE_LIMIT);
    try {
      const ow = await createWorld(off);
      const oa = await widgetAssistant(off, ow.owner, ow.ws);
      const { id, messageId } = await customer(off, oa, ow.member);
      const tried = [
        () => inbox(off, ow.member, 'POST', `/${id}/messages/${messageId}/translate`, { to: 'en' }),
        () => inbox(off, ow.member, 'POST', `/${id}/messages`, { content: 'Hi', translateTo: 'es' }),
      ];
      for (const act of tried) {
        const res = await expectNothingStored(off, act);
        expect(res.statusCode, res.body).toBe(409);
        expect(res.json()).toMatchObject({
          code: 'conflict:api',
          error: expect.stringMatching(/remote model/),
        });
      }
    } finally {
      await off.close();
    }
  });
});

/** A visitor's conversation in `workspaceId` and its first message, for the security suite. */
async function withMessage(a: TestApp, sw: World, workspaceId: string) {
  const owner = ownerOf(sw, workspaceId);
  const assistantId = await widgetAssistant(a, owner, workspaceId);
  const { id, messageId } = await customer(a, assistantId, owner);
  return { conversationId: id, messageId };
}

securitySuite(() => t, {
  auth: 'session',
  name: 'POST /api/inbox/conversations/:id/messages/:messageId/translate',
  prepare: withMessage,
  request: (ws, x) => ({
    method: 'POST',
    url: `/api/inbox/conversations/${x.conversationId}/messages/${x.messageId}/translate?workspaceId=${ws}`,
    payload: { to: 'en' },
  }),
});
