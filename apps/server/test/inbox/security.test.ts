import { afterAll, beforeAll } from 'vitest';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { securitySuite } from '../support/security.ts';
import { ownerOf, type World } from '../support/world.ts';
import { initWidget, NO_RATE_LIMIT, widgetAssistant, widgetChat } from '../widget/helpers.ts';
import { conversationOfSession, listen, streamsOverSocket } from './helpers.ts';

let t: TestApp;
let app: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp(NO_RATE_LIMIT);
  base = await listen(t);
  app = streamsOverSocket(t, base, ['/api/inbox/stream']);
});
afterAll(() => t.close());

/** A widget conversation in `workspaceId` (a visitor asked something), as the suite's `prepare`. */
async function withConversation(a: TestApp, w: World, workspaceId: string) {
  const assistantId = await widgetAssistant(a, ownerOf(w, workspaceId), workspaceId);
  const s = await initWidget(a, assistantId);
  await widgetChat(a, assistantId, s, 'Where is my order?');
  return { conversationId: await conversationOfSession(a, s) };
}

const base401 = { auth: 'session' as const };

securitySuite(() => app, {
  ...base401,
  name: 'GET /api/inbox/conversations',
  request: (ws) => ({ method: 'GET', url: `/api/inbox/conversations?workspaceId=${ws}` }),
});

securitySuite(() => app, {
  ...base401,
  name: 'GET /api/inbox/conversations/:id',
  prepare: withConversation,
  request: (ws, x) => ({
    method: 'GET',
    url: `/api/inbox/conversations/${x.conversationId}?workspaceId=${ws}`,
  }),
});

securitySuite(() => app, {
  ...base401,
  name: 'GET /api/inbox/conversations/:id/messages',
  prepare: withConversation,
  request: (ws, x) => ({
    method: 'GET',
    url: `/api/inbox/conversations/${x.conversationId}/messages?workspaceId=${ws}`,
  }),
});

securitySuite(() => app, {
  ...base401,
  name: 'POST /api/inbox/conversations/:id/messages',
  minRole: 'member',
  prepare: withConversation,
  request: (ws, x) => ({
    method: 'POST',
    url: `/api/inbox/conversations/${x.conversationId}/messages?workspaceId=${ws}`,
    payload: { content: 'Hello from a person' },
  }),
});

for (const action of ['handoff', 'release', 'close']) {
  securitySuite(() => app, {
    ...base401,
    name: `POST /api/inbox/conversations/:id/${action}`,
    minRole: 'member',
    prepare: withConversation,
    request: (ws, x) => ({
      method: 'POST',
      url: `/api/inbox/conversations/${x.conversationId}/${action}?workspaceId=${ws}`,
    }),
  });
}

securitySuite(() => app, {
  ...base401,
  name: 'PATCH /api/inbox/conversations/:id',
  minRole: 'member',
  prepare: withConversation,
  request: (ws, x) => ({
    method: 'PATCH',
    url: `/api/inbox/conversations/${x.conversationId}?workspaceId=${ws}`,
    payload: { assigneeId: null },
  }),
});

securitySuite(() => app, {
  ...base401,
  name: 'POST /api/inbox/conversations/:id/tickets',
  minRole: 'member',
  prepare: withConversation,
  request: (ws, x) => ({
    method: 'POST',
    url: `/api/inbox/conversations/${x.conversationId}/tickets?workspaceId=${ws}`,
    payload: { subject: 'Follow up' },
  }),
});

securitySuite(() => app, {
  ...base401,
  name: 'GET /api/inbox/stream',
  request: (ws) => ({ method: 'GET', url: `/api/inbox/stream?workspaceId=${ws}` }),
});
