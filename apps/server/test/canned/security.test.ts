import { afterAll, beforeAll } from 'vitest';
import { cannedResponses } from '../../src/db/schema/index.ts';
import { newId } from '../../src/lib/ids.ts';
import { conversationOfSession } from '../inbox/helpers.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { securitySuite } from '../support/security.ts';
import { ownerOf, type World } from '../support/world.ts';
import { initWidget, NO_RATE_LIMIT, widgetAssistant, widgetChat } from '../widget/helpers.ts';

/** The security suite over every canned-responses route (docs/canned-responses.md "Endpoints"). */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(NO_RATE_LIMIT);
});
afterAll(() => t.close());

/** A canned response in `workspaceId` (fixture setup). */
async function withCanned(tt: TestApp, _w: unknown, workspaceId: string) {
  const id = newId('cnd');
  await tt.ctx.db
    .insert(cannedResponses)
    .values({ id, workspaceId, shortcut: `s${id.slice(-6)}`, title: 'Fixture', content: 'Hello' });
  return { cannedId: id };
}

const base = (workspaceId: string) => `/api/workspaces/${workspaceId}/canned-responses`;

securitySuite(() => t, {
  name: 'GET /api/workspaces/:workspaceId/canned-responses',
  auth: 'user',
  request: (w) => ({ method: 'GET', url: base(w) }),
});
securitySuite(() => t, {
  name: 'POST /api/workspaces/:workspaceId/canned-responses',
  auth: 'user',
  minRole: 'admin',
  request: (w) => ({
    method: 'POST',
    url: base(w),
    payload: { shortcut: 'thanks', title: 'Thanks', content: 'Thanks, {{contact.name}}!' },
  }),
});
securitySuite(() => t, {
  name: 'GET /api/workspaces/:workspaceId/canned-responses/:cannedId',
  auth: 'user',
  prepare: withCanned,
  request: (w, { cannedId }) => ({ method: 'GET', url: `${base(w)}/${cannedId}` }),
});
securitySuite(() => t, {
  name: 'PATCH /api/workspaces/:workspaceId/canned-responses/:cannedId',
  auth: 'user',
  minRole: 'admin',
  prepare: withCanned,
  request: (w, { cannedId }) => ({
    method: 'PATCH',
    url: `${base(w)}/${cannedId}`,
    payload: { title: 'New' },
  }),
});
securitySuite(() => t, {
  name: 'DELETE /api/workspaces/:workspaceId/canned-responses/:cannedId',
  auth: 'user',
  minRole: 'admin',
  prepare: withCanned,
  request: (w, { cannedId }) => ({ method: 'DELETE', url: `${base(w)}/${cannedId}` }),
});

/** A widget conversation and a canned response, both in `workspaceId`. */
async function withConversationAndCanned(a: TestApp, w: World, workspaceId: string) {
  const assistantId = await widgetAssistant(a, ownerOf(w, workspaceId), workspaceId);
  const s = await initWidget(a, assistantId);
  await widgetChat(a, assistantId, s, 'Where is my order?');
  return { conversationId: await conversationOfSession(a, s), ...(await withCanned(a, w, workspaceId)) };
}

securitySuite(() => t, {
  name: 'GET /api/inbox/conversations/:conversationId/canned-responses/:cannedId',
  auth: 'session',
  minRole: 'member',
  prepare: withConversationAndCanned,
  request: (w, { conversationId, cannedId }) => ({
    method: 'GET',
    url: `/api/inbox/conversations/${conversationId}/canned-responses/${cannedId}?workspaceId=${w}`,
  }),
});
