import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { conversations } from '../../src/db/schema/index.ts';
import { conversationChannel } from '../../src/features/conversations/conversations.service.ts';
import { createFanout } from '../../src/lib/fanout.ts';
import { createAssistant, type TestUser } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { REDIS_URL, redisAnswers } from '../support/redis.ts';
import { securitySuite } from '../support/security.ts';
import { createWorld, insertApiKey, ownerOf, type World } from '../support/world.ts';
import { chat, messagesOf } from './helpers.ts';

let t: TestApp;
let w: World;
let key: Record<string, string>;
let conversationId: string;

beforeAll(async () => {
  t = await createTestApp();
  w = await createWorld(t);
  key = await insertApiKey(t, w.ws, ['chat:write']);
  const asst = await createAssistant(t, w.owner, w.ws);
  conversationId = await handedOff(t, w.member, asst);
});
afterAll(() => t.close());

/**
 * An internal chat its member handed to a person: before that it is private and the v1 surface
 * answers 404 for it (test/v1/private-chats.test.ts).
 */
async function handedOff(app: TestApp, user: TestUser, assistantId: string) {
  const first = await chat(app, user, { assistantId, content: 'hello' });
  const conversationId = first.conversationId as string;
  await chat(app, user, { assistantId, conversationId, content: 'I need to speak to a person' });
  return conversationId;
}

const withConversation = async (app: TestApp, world: World, ws: string) => {
  const owner = ownerOf(world, ws);
  const assistantId = await createAssistant(app, owner, ws);
  return { conversationId: await handedOff(app, owner, assistantId) };
};

securitySuite(() => t, {
  name: 'GET /api/v1/messages',
  auth: 'key',
  noWorkspace: true,
  prepare: withConversation,
  request: (_ws, x) => ({ method: 'GET', url: `/api/v1/messages?conversationId=${x.conversationId}` }),
});
securitySuite(() => t, {
  name: 'POST /api/v1/messages',
  auth: 'key',
  noWorkspace: true,
  scope: 'chat:write',
  planFeature: 'api_v1_write',
  prepare: withConversation,
  request: (_ws, x) => ({
    method: 'POST',
    url: '/api/v1/messages',
    payload: { conversationId: x.conversationId, content: 'An agent here.' },
  }),
});

describe('POST /api/v1/messages', () => {
  it('stores an agent message, counts it and delivers it live to the conversation channel', async () => {
    const received: unknown[] = [];
    const unsubscribe = await t.ctx.fanout.subscribe(conversationChannel(conversationId), (m) =>
      received.push(m),
    );
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/messages',
      headers: key,
      payload: { conversationId, content: 'Hi, Sam from support here 👋' },
    });
    unsubscribe();
    expect(res.statusCode).toBe(201);
    const msg = res.json().data;
    expect(msg).toMatchObject({ role: 'agent', content: 'Hi, Sam from support here 👋', conversationId });
    expect(received).toEqual([{ type: 'message', message: msg, authorName: null }]);
    const stored = await messagesOf(t, w.member, conversationId);
    expect(stored.at(-1)).toMatchObject({ id: msg.id, role: 'agent' });

    const list = await t.request({
      method: 'GET',
      url: `/api/v1/messages?conversationId=${conversationId}&limit=2`,
      headers: key,
    });
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);
    expect(list.json().hasMore).toBe(true);
  });

  it('409 for a closed conversation; 404 for an unknown one; 400 for bad bodies', async () => {
    const asst = await createAssistant(t, w.owner, w.ws);
    const closed = await handedOff(t, w.member, asst);
    await t.ctx.db.update(conversations).set({ status: 'closed' }).where(eq(conversations.id, closed));
    const post = (payload: unknown) =>
      t.request({ method: 'POST', url: '/api/v1/messages', headers: key, payload: payload as object });
    const c = await post({ conversationId: closed, content: 'hello' });
    expect(c.statusCode).toBe(409);
    expect(c.json().code).toBe('conflict:api');
    expect((await post({ conversationId: 'conv_unknown', content: 'hello' })).statusCode).toBe(404);
    for (const bad of [
      {},
      { conversationId },
      { conversationId, content: '' },
      { conversationId, content: 5 },
      { conversationId, content: 'x', extra: 1 },
      { conversationId, content: 'x'.repeat(8001) },
    ]) {
      const r = await post(bad);
      expect(r.statusCode, JSON.stringify(bad).slice(0, 60)).toBe(400);
      expect(r.json().code).toBe('bad_request:api');
    }
  });
});

// Without a Redis the in-process path above is what runs; this part is skipped, visibly.
describe.skipIf(!(await redisAnswers()))('live fan-out across processes', () => {
  it('a message published by one instance reaches a listener on another through Redis', async () => {
    const a = createFanout({ redisUrl: loadConfig({ REDIS_URL }).redisUrl });
    const b = createFanout({ redisUrl: REDIS_URL });
    try {
      let resolve: (v: unknown) => void = () => undefined;
      const got = new Promise((r) => {
        resolve = r;
      });
      await b.subscribe('conversation:x-test', (m) => resolve(m));
      await a.publish('conversation:x-test', { type: 'message', n: 1 });
      expect(await got).toEqual({ type: 'message', n: 1 });
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
