import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chat } from '../chat/helpers.ts';
import { createAssistant } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { securitySuite } from '../support/security.ts';
import { createWorld, ownerOf, type World } from '../support/world.ts';
import { inbox, listen, openSse, streamsOverSocket } from './helpers.ts';

/** docs/inbox.md "Live delivery": an internal chat hears the person answering it, live. */
let t: TestApp;
let w: World;
let base: string;
let app: TestApp;
beforeAll(async () => {
  t = await createTestApp({ CHAT_KEEPALIVE_MS: '100' });
  w = await createWorld(t);
  base = await listen(t);
  app = streamsOverSocket(t, base, ['/api/chat/conversations/']);
});
afterAll(() => t.close());

describe('GET /api/chat/conversations/:id/events', () => {
  it('delivers the status changes and the agent replies of a handed-off chat', async () => {
    const asst = await createAssistant(t, w.owner, w.ws);
    const r = await chat(t, w.member, { assistantId: asst, content: 'I need to speak to a person' });
    const id = r.conversationId as string;
    const stream = await openSse(`${base}/api/chat/conversations/${id}/events`, { ...w.member.headers });
    expect(stream.res.statusCode).toBe(200);
    await stream.until((e) => e.type === 'ready');
    await inbox(t, w.admin, 'POST', `/${id}/handoff`);
    expect(await stream.until((e) => e.type === 'status')).toEqual({
      type: 'status',
      status: 'handoff',
      assigneeId: w.admin.id,
      agent: { type: 'agent', name: 'Admin', avatarUrl: null },
    });
    await inbox(t, w.admin, 'POST', `/${id}/messages`, { content: 'Admin here.' });
    expect(await stream.until((e) => e.type === 'message')).toMatchObject({
      message: { role: 'agent', content: 'Admin here.', author: { id: w.admin.id, name: 'Admin' } },
    });
    await inbox(t, w.admin, 'POST', `/${id}/release`);
    expect(await stream.until((e) => e.type === 'status' && e.status === 'open')).toMatchObject({
      assigneeId: null,
      agent: null,
    });
    stream.close();
  });

  it('another member’s chat is a 404', async () => {
    const asst = await createAssistant(t, w.owner, w.ws);
    const r = await chat(t, w.member, { assistantId: asst, content: 'mine' });
    const res = await t.request({
      method: 'GET',
      url: `/api/chat/conversations/${r.conversationId}/events`,
      headers: w.admin.headers,
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('not_found:chat');
  });
});

securitySuite(() => app, {
  name: 'GET /api/chat/conversations/:id/events',
  auth: 'session',
  unauthorizedCode: 'unauthorized:chat',
  notFoundCode: 'not_found:chat',
  prepare: async (a, world, ws) => {
    const owner = ownerOf(world, ws);
    const assistantId = await createAssistant(a, owner, ws);
    const r = await chat(a, owner, { assistantId, content: 'hi' });
    return { conversationId: r.conversationId as string };
  },
  request: (_ws, x) => ({ method: 'GET', url: `/api/chat/conversations/${x.conversationId}/events` }),
});
