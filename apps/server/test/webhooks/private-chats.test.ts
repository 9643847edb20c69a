import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, messages } from '../../src/db/schema/index.ts';
import { chat } from '../chat/helpers.ts';
import { createAssistant } from '../support/factories.ts';
import type { TestApp } from '../support/harness.ts';
import type { Receiver } from '../support/receiver.ts';
import { createHookA, createHookB, startWebhookWorld, waitForQuiet } from '../support/webhooks.ts';
import { insertApiKey, type World } from '../support/world.ts';

/**
 * A webhook receiver is an integration like an API key: it hears of a member's internal chat only
 * once the chat is handed to a person (docs/webhooks.md "Internal chats";
 * docs/decisions/0024-private-chats-and-integrations.md).
 */
let t: TestApp;
let w: World;
let rx: Receiver;
let stop = async () => {};
beforeAll(async () => {
  ({ t, w, rx, stop } = await startWebhookWorld());
});
afterAll(() => stop());

type Body = { event: string; data: Record<string, unknown> };
const about = (path: string, conversationId: string) =>
  rx
    .hits(path)
    .map((h) => JSON.parse(h.body) as Body)
    .filter((b) => b.data.conversationId === conversationId || b.data.id === conversationId);

describe('webhooks and a private internal chat', () => {
  it('record and deliver nothing about it until its handoff, then every change and message from the handoff on', {
    timeout: 120_000,
  }, async () => {
    const urlA = rx.on('/a', () => ({ status: 200 }));
    const urlB = rx.on('/b', () => ({ status: 200 }));
    await createHookA(t, w.ws, w.owner.headers, { url: urlA, events: ['*'] });
    await createHookB(t, w.owner.headers, {
      url: urlB,
      events: ['chat.message.created', 'chat.session.created'],
      workspaceId: w.ws,
    });
    const asst = await createAssistant(t, w.owner, w.ws);
    const id = (await chat(t, w.member, { assistantId: asst, content: 'how do I reset my password?' }))
      .conversationId as string;
    await chat(t, w.member, { assistantId: asst, conversationId: id, content: 'and my username?' });
    await waitForQuiet(t, w.ws);
    // Not in the outbox at all, so no receiver, of either format, can ever get it.
    const outbox = async () =>
      (await t.ctx.db.select().from(events).where(eq(events.workspaceId, w.ws))).filter((e) =>
        JSON.stringify(e.data).includes(id),
      );
    expect(await outbox()).toEqual([]);
    expect(about('/a', id)).toEqual([]);
    expect(about('/b', id)).toEqual([]);

    // The member asks for a person: from the handoff on, the team's integrations hear of it.
    await chat(t, w.member, {
      assistantId: asst,
      conversationId: id,
      content: 'I need to speak to a person',
    });
    const key = await insertApiKey(t, w.ws, ['chat:write']);
    const agent = await t.request({
      method: 'POST',
      url: '/api/v1/messages',
      headers: key,
      payload: { conversationId: id, content: 'Sam from support here.' },
    });
    expect(agent.statusCode, agent.body).toBe(201);
    await waitForQuiet(t, w.ws);

    const all = await t.ctx.db
      .select({ id: messages.id, role: messages.role })
      .from(messages)
      .where(eq(messages.conversationId, id))
      .orderBy(asc(messages.createdAt), asc(messages.id));
    expect(all.map((m) => m.role)).toEqual([
      ...['user', 'assistant', 'user', 'assistant', 'user'],
      ...['system', 'assistant', 'agent'],
    ]);
    // Stored after the handoff committed: the AI's note of it, its reply, the agent's message. The
    // five before, the one asking for a person included, stay the member's own.
    const after = all
      .slice(-3)
      .map((m) => m.id)
      .sort();
    // Deliveries run side by side, so their arrival order is not the events' order.
    const a = about('/a', id);
    expect(a.map((x) => x.event).sort()).toEqual([
      'conversation.updated',
      'message.created',
      'message.created',
      'message.created',
    ]);
    expect(a.find((x) => x.event === 'conversation.updated')).toMatchObject({
      data: { id, status: 'handoff', change: 'handoff' },
    });
    expect(
      a
        .filter((x) => x.event === 'message.created')
        .map((x) => String(x.data.id))
        .sort(),
    ).toEqual(after);
    // Format B has no name for the handoff: its receiver gets the messages, and no session start.
    const b = about('/b', id);
    expect(b.map((x) => x.event)).toEqual(after.map(() => 'chat.message.created'));
    expect(b.map((x) => String(x.data.id)).sort()).toEqual(after);
  });
});
