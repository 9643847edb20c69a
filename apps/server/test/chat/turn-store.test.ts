import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversations, messages, workspaceCredits } from '../../src/db/schema/index.ts';
import { createAssistant } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { type LlmServer, startLlmServer } from '../support/llm-server.ts';
import { createWorld, type World } from '../support/world.ts';
import { chat, messagesOf } from './helpers.ts';

let llm: LlmServer;
let t: TestApp;
let w: World;
let asst: string;

const REFUSED = 'this message cannot be stored';
const SLOW = 'a turn the database is slow to store';

beforeAll(async () => {
  llm = await startLlmServer();
  t = await createTestApp({ AI_PROVIDER: 'openai', AI_BASE_URL: `${llm.url}/v1`, AI_MODEL: 'stand-in' });
  w = await createWorld(t);
  asst = await createAssistant(t, w.owner, w.ws);
  // The real database refuses one message, as a full disk or a lost connection would: the
  // turn's statement then fails after its credit was reserved.
  await t.ctx.db.execute(
    sql.raw(`create function refuse_test_message() returns trigger language plpgsql as $$
      begin
        if new.content = '${REFUSED}' then raise exception 'refused by the test'; end if;
        return new;
      end $$`),
  );
  await t.ctx.db.execute(
    sql.raw(`create trigger refuse_test_message before insert on messages
      for each row execute function refuse_test_message()`),
  );
  // And one conversation is slow to store, so the model answers before it exists.
  await t.ctx.db.execute(
    sql.raw(`create function slow_test_conversation() returns trigger language plpgsql as $$
      begin
        if new.title = '${SLOW}' then perform pg_sleep(0.4); end if;
        return new;
      end $$`),
  );
  await t.ctx.db.execute(
    sql.raw(`create trigger slow_test_conversation before insert on conversations
      for each row execute function slow_test_conversation()`),
  );
});
afterAll(async () => {
  await t.close();
  await llm.close();
});

const used = async () =>
  (await t.ctx.db.select().from(workspaceCredits).where(eq(workspaceCredits.workspaceId, w.ws)))[0]?.used ??
  0;

/**
 * The turn's statement (its credit, the conversation, the user message, their events) is one
 * (turn.ts): it commits before the model is called, the context is read beside it, and if it fails
 * the request fails before any stream opens, with nothing kept and no credit taken.
 */
describe("the turn's own statement", () => {
  it('stores the user message before any of the reply, and the history includes it', async () => {
    llm.script([{ text: 'First answer.' }, { text: 'Second answer.' }]);
    const first = await chat(t, w.member, { assistantId: asst, content: 'Hello there' });
    expect(first.text).toBe('First answer.');
    await chat(t, w.member, {
      assistantId: asst,
      conversationId: first.conversationId,
      content: 'And again',
    });
    const sent = llm.requests.at(-1)?.body as { messages: Array<{ role: string; content: string }> };
    expect(sent.messages.slice(1).map((m) => [m.role, m.content])).toEqual([
      ['user', 'Hello there'],
      ['assistant', 'First answer.'],
      ['user', 'And again'],
    ]);
    const stored = await messagesOf(t, w.member, first.conversationId as string);
    expect(stored.map((m) => [m.role, m.content])).toEqual([
      ['user', 'Hello there'],
      ['assistant', 'First answer.'],
      ['user', 'And again'],
      ['assistant', 'Second answer.'],
    ]);
  });

  const count = async (table: typeof conversations | typeof messages) =>
    (await t.ctx.db.select({ n: sql<number>`count(*)::int` }).from(table))[0]?.n;

  it('a turn that cannot be stored is a 500 before any stream: no model call, nothing kept, no credit', async () => {
    const before = {
      used: await used(),
      conversations: await count(conversations),
      calls: llm.requests.length,
    };
    const r = await chat(t, w.member, { assistantId: asst, content: REFUSED });
    expect(r.status).toBe(500);
    expect(r.res.json()).toMatchObject({ code: 'internal_server_error:api' });
    expect(r.res.headers['content-type']).toMatch(/application\/json/);
    expect(llm.requests.length).toBe(before.calls);
    expect(await used()).toBe(before.used);
    expect(await count(conversations)).toBe(before.conversations);
    expect(await t.ctx.db.select().from(messages).where(eq(messages.content, REFUSED))).toEqual([]);
  });

  it('the same in an existing conversation: its other messages and count stay as they were', async () => {
    llm.script([{ text: 'Hi.' }]);
    const first = await chat(t, w.member, { assistantId: asst, content: 'Hi' });
    const id = first.conversationId as string;
    const before = { used: await used(), calls: llm.requests.length };
    const r = await chat(t, w.member, { assistantId: asst, conversationId: id, content: REFUSED });
    expect(r.status).toBe(500);
    expect(llm.requests.length).toBe(before.calls);
    expect(await used()).toBe(before.used);
    const stored = await messagesOf(t, w.member, id);
    expect(stored.map((m) => m.content)).toEqual(['Hi', 'Hi.']);
    const [row] = await t.ctx.db.select().from(conversations).where(eq(conversations.id, id));
    expect(row?.messageCount).toBe(2);
  });

  it('a tool that writes to the conversation waits for it to be stored (handoff)', async () => {
    llm.script([
      { toolCall: { name: 'request_human', args: { reason: 'wants a person' } } },
      { text: 'A person will reply here.' },
    ]);
    const r = await chat(t, w.member, { assistantId: asst, content: SLOW });
    expect(r.events.slice(0, 2).map((e) => e.type)).toEqual(['tool-call', 'tool-result']);
    expect(r.events[1]).toMatchObject({ result: { status: 'handoff' } });
    expect(r.text).toBe('A person will reply here.');
    expect(r.events.at(-1)).toMatchObject({ type: 'finish' });
    const id = r.conversationId as string;
    const [conversation] = await t.ctx.db.select().from(conversations).where(eq(conversations.id, id));
    expect(conversation?.status).toBe('handoff');
    const stored = await messagesOf(t, w.member, id);
    expect(stored.map((m) => m.role)).toEqual(['user', 'system', 'assistant']);
  });
});
