import { afterAll, beforeAll } from 'vitest';
import { createAssistant } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { securitySuite } from '../support/security.ts';
import { ownerOf, withAssistant } from '../support/world.ts';
import { chat } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

securitySuite(() => t, {
  name: 'POST /api/chat',
  auth: 'session',
  minRole: 'member',
  unauthorizedCode: 'unauthorized:chat',
  prepare: withAssistant,
  request: (_ws, x) => ({
    method: 'POST',
    url: '/api/chat',
    payload: { assistantId: x.assistantId, content: 'hi' },
  }),
});

securitySuite(() => t, {
  name: 'GET /api/chat/conversations',
  auth: 'session',
  unauthorizedCode: 'unauthorized:chat',
  prepare: withAssistant,
  request: (_ws, x) => ({ method: 'GET', url: `/api/chat/conversations?assistantId=${x.assistantId}` }),
});

securitySuite(() => t, {
  name: 'GET /api/chat/conversations/:id/messages',
  auth: 'session',
  unauthorizedCode: 'unauthorized:chat',
  notFoundCode: 'not_found:chat',
  prepare: async (app, w, ws) => {
    const owner = ownerOf(w, ws);
    const assistantId = await createAssistant(app, owner, ws);
    const r = await chat(app, owner, { assistantId, content: 'hi' });
    return { conversationId: r.conversationId as string };
  },
  request: (_ws, x) => ({ method: 'GET', url: `/api/chat/conversations/${x.conversationId}/messages` }),
});
