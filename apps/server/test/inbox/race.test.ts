import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, workspaceCredits } from '../../src/db/schema/index.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { type LlmServer, startLlmServer } from '../support/llm-server.ts';
import { createWorld, type World } from '../support/world.ts';
import { initWidget, NO_RATE_LIMIT, widgetAssistant, widgetChat } from '../widget/helpers.ts';
import { changesOf, conversationOfSession, inbox } from './helpers.ts';

/**
 * docs/inbox.md "No message lost": a visitor's message racing a person's takeover is always
 * stored, once; the AI's reply to it is stored before the takeover or not at all (and then not
 * charged). Runs on PGlite and on PostgreSQL (real concurrency there).
 */
let t: TestApp;
let w: World;
let llm: LlmServer;
let asst: string;

beforeAll(async () => {
  llm = await startLlmServer({ instant: true });
  t = await createTestApp({
    ...NO_RATE_LIMIT,
    AI_PROVIDER: 'openai',
    AI_BASE_URL: `${llm.url}/v1`,
    AI_MODEL: 'stand-in',
  });
  w = await createWorld(t);
  asst = await widgetAssistant(t, w.owner, w.ws);
});
afterAll(async () => {
  await t.close();
  await llm.close();
});

const creditsUsed = async () => {
  const [row] = await t.ctx.db.select().from(workspaceCredits).where(eq(workspaceCredits.workspaceId, w.ws));
  return row?.used ?? 0;
};
const stored = (conversationId: string) =>
  t.ctx.db
    .select()
    .from(messages)
    .where(and(eq(messages.workspaceId, w.ws), eq(messages.conversationId, conversationId)))
    .orderBy(messages.createdAt, messages.id);

describe('a takeover racing the AI', () => {
  it('mid-reply: the model is stopped, nothing of the reply is stored, the credit comes back', async () => {
    const s = await initWidget(t, asst);
    await widgetChat(t, asst, s, 'Hello there');
    const id = await conversationOfSession(t, s);
    const before = await creditsUsed();
    const requests = llm.requests.length;
    llm.stall('Let me look that up for y');
    const pending = widgetChat(t, asst, s, 'Where is order 1234?');
    await llm.waitForRequests(requests + 1);
    const taken = await inbox(t, w.member, 'POST', `/${id}/handoff`);
    expect(taken.statusCode, taken.body).toBe(200);
    const r = await pending;
    expect(r.status).toBe(200);
    expect(r.events.at(-1)).toEqual({
      type: 'finish',
      messageId: null,
      usage: { promptTokens: 0, completionTokens: 0 },
    });
    const rows = await stored(id);
    expect(rows.map((m) => [m.role, m.content])).toEqual([
      ['user', 'Hello there'],
      ['assistant', expect.any(String)],
      ['user', 'Where is order 1234?'],
    ]);
    expect(await creditsUsed()).toBe(before);
  });

  it('many visitor messages around a takeover: each stored once; replies only before it; credits match', async () => {
    const s = await initWidget(t, asst);
    await widgetChat(t, asst, s, 'First');
    const id = await conversationOfSession(t, s);
    const before = await creditsUsed();
    const contents = Array.from({ length: 12 }, (_, i) => `message ${i}`);
    // The first four are answered one after the other (their replies land before any takeover);
    // the other eight run concurrently with the takeover, started among them.
    const results = [];
    for (const c of contents.slice(0, 4)) results.push(await widgetChat(t, asst, s, c));
    const chats = contents
      .slice(4)
      .map((c, i) =>
        i === 3
          ? Promise.all([widgetChat(t, asst, s, c), inbox(t, w.member, 'POST', `/${id}/handoff`)]).then(
              ([r]) => r,
            )
          : widgetChat(t, asst, s, c),
      );
    results.push(...(await Promise.all(chats)));
    for (const r of results) expect(r.status, r.res.body).toBe(200);

    const rows = await stored(id);
    // Every visitor message exactly once.
    const users = rows.filter((m) => m.role === 'user').map((m) => m.content);
    expect([...users].sort()).toEqual(['First', ...contents].sort());
    // Every reply the streams announced is stored once; every stored reply was announced.
    const announced = results
      .map((r) => r.events.at(-1))
      .map((e) => (e?.type === 'finish' ? e.messageId : 'missing'));
    expect(announced).not.toContain('missing');
    const replyIds = rows.filter((m) => m.role === 'assistant').map((m) => m.id);
    const announcedIds = announced.filter((x): x is string => typeof x === 'string');
    expect(new Set(replyIds).size).toBe(replyIds.length);
    expect([...replyIds].sort()).toEqual(
      [...announcedIds, rows.find((m) => m.role === 'assistant')?.id].filter(Boolean).sort(),
    );
    // No AI reply after the takeover; one credit per stored reply, none for withdrawn ones.
    const [takeover] = (await changesOf(t, id)).filter((c) => c.kind === 'takeover');
    expect(takeover).toBeDefined();
    for (const m of rows.filter((r) => r.role === 'assistant')) {
      expect(m.createdAt.getTime()).toBeLessThanOrEqual(takeover?.createdAt.getTime() ?? 0);
    }
    expect(announcedIds.length).toBeGreaterThanOrEqual(4);
    expect(await creditsUsed()).toBe(before + announcedIds.length);
    // After the takeover every message is answered by no one but a person.
    const after = await widgetChat(t, asst, s, 'and now?');
    expect(after.events).toEqual([
      { type: 'finish', messageId: null, usage: { promptTokens: 0, completionTokens: 0 } },
    ]);
  });
});
