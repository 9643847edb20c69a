import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversations, events, messages } from '../../src/db/schema/index.ts';
import { insertConversationWithMessage } from '../../src/features/conversations/conversation-start.ts';
import { prepareStart } from '../../src/features/conversations/conversations.service.ts';
import { eventRow } from '../../src/features/events/events.service.ts';
import { createAssistant } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { createWorld, type World } from '../support/world.ts';

// The conversation's start is one hand-written statement (conversation-start.ts): every column of
// both rows and the events must come back as given, nulls, timestamps, JSON and all.
let t: TestApp;
let w: World;
let asst: string;

beforeAll(async () => {
  t = await createTestApp();
  w = await createWorld(t);
  asst = await createAssistant(t, w.owner, w.ws);
});
afterAll(async () => {
  await t.close();
});

const rowsOf = async (conversationId: string) => {
  const [c] = await t.ctx.db.select().from(conversations).where(eq(conversations.id, conversationId));
  const m = await t.ctx.db.select().from(messages).where(eq(messages.conversationId, conversationId));
  return { c, m };
};

describe('the statement that starts a conversation', () => {
  it('writes a new chat as prepared, its nulls and defaults, and no event', async () => {
    const p = prepareStart(
      { workspaceId: w.ws, assistantId: asst, channel: 'chat', startedBy: w.owner.id },
      { role: 'user', content: 'Hello' },
    );
    await insertConversationWithMessage(t.ctx.db, p.conversation, p.message, []);
    const { c, m } = await rowsOf(p.conversation.id);
    expect(c).toEqual(p.conversation);
    expect(m).toEqual([p.message]);
    const e = await t.ctx.db.select().from(events).where(eq(events.workspaceId, w.ws));
    expect(e.filter((x) => JSON.stringify(x.data).includes(p.conversation.id))).toEqual([]);
  });

  it('writes every column given, and the events in order', async () => {
    const p = prepareStart(
      { workspaceId: w.ws, assistantId: asst, channel: 'widget', title: 'Quotes " and \\ and {braces}' },
      { role: 'user', content: 'Bonjour, {"x": 1}' },
    );
    const at = (s: number) => new Date(Date.UTC(2026, 10, 28, 8, 0, s, 123));
    const conversation = {
      ...p.conversation,
      status: 'handoff' as const,
      assigneeId: w.owner.id,
      messageCount: 3,
      handedOffAt: at(1),
      endedAt: at(2),
      waitingSince: at(3),
      assignmentHeld: true,
      csatRating: 4,
      csatComment: 'fine',
      csatRatedAt: at(4),
      csatAskedAt: at(5),
      slaStartedAt: at(6),
      slaFirstDueAt: at(7),
      slaNextDueAt: at(8),
      slaResolutionDueAt: at(9),
      slaRepliedAt: at(10),
      slaWaitingSince: at(11),
      slaBreaches: [{ kind: 'first_response' as const, at: at(12).toISOString() }],
      handoffReason: 'rule' as const,
      handoffRuleId: 'rule_1',
      aiResolution: 'resolved' as const,
      aiResolutionAt: at(13),
      language: 'fr',
      labels: [{ id: 'lbl_1', name: 'VIP', color: '#ff0000' }],
    };
    const message = {
      ...p.message,
      originalContent: 'Bonjour',
      authorId: w.owner.id,
      status: 'partial' as const,
      citations: [{ index: 1, chunkId: 'chk_1', sourceId: 'src_1', title: null, url: 'https://x.example/a' }],
      toolCalls: [{ toolCallId: 'call_1', toolName: 'lookup', args: { q: 'a' }, result: [1, 'two'] }],
      usage: { promptTokens: 10, completionTokens: 2 },
      outcome: 'answered' as const,
      curatedAnswerId: 'ca_1',
      confidence: 0.75,
      withheld: true,
    };
    const rows = [
      eventRow(
        { workspaceId: w.ws, type: 'conversation.created', data: { id: conversation.id, n: [1, 2] } },
        at(20),
      ),
      eventRow(
        { workspaceId: w.ws, type: 'message.created', data: { text: 'a "quoted" \\ line\n' } },
        at(20),
      ),
    ];
    await insertConversationWithMessage(t.ctx.db, conversation, message, rows);
    const { c, m } = await rowsOf(conversation.id);
    expect(c).toEqual(conversation);
    expect(m).toEqual([message]);
    const e = await t.ctx.db
      .select()
      .from(events)
      .where(
        inArray(
          events.id,
          rows.map((r) => r.id),
        ),
      );
    expect(e.sort((a, b) => a.id.localeCompare(b.id))).toEqual(
      rows.map((r) => ({ ...r, dispatchedAt: null })),
    );
  });

  it('writes nothing when a row is refused: one statement, all or nothing', async () => {
    const p = prepareStart(
      { workspaceId: w.ws, assistantId: asst, channel: 'widget' },
      { role: 'user', content: 'Hi' },
    );
    // A message whose conversation is another's id: the foreign key refuses it, and the
    // conversation and events of the same statement are not written either.
    const bad = { ...p.message, conversationId: 'conv_missing' };
    const rows = [eventRow({ workspaceId: w.ws, type: 'conversation.created', data: {} })];
    await expect(insertConversationWithMessage(t.ctx.db, p.conversation, bad, rows)).rejects.toThrow();
    const { c } = await rowsOf(p.conversation.id);
    expect(c).toBeUndefined();
    expect(await t.ctx.db.select().from(events).where(eq(events.id, rows[0]!.id))).toEqual([]);
  });
});
