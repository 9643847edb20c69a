import { afterAll, beforeAll } from 'vitest';
import { contacts, labels } from '../../src/db/schema/index.ts';
import { newId } from '../../src/lib/ids.ts';
import { conversationOfSession } from '../inbox/helpers.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { securitySuite } from '../support/security.ts';
import { ownerOf, type World } from '../support/world.ts';
import { initWidget, NO_RATE_LIMIT, widgetAssistant, widgetChat } from '../widget/helpers.ts';

/** The security suite over every labels route (docs/labels.md). */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(NO_RATE_LIMIT);
});
afterAll(() => t.close());

/** A label in `workspaceId` (fixture setup). */
async function withLabel(a: TestApp, _w: unknown, workspaceId: string) {
  const id = newId('lbl');
  await a.ctx.db
    .insert(labels)
    .values({ id, workspaceId, name: `Fixture ${id.slice(-6)}`, color: '#123456' });
  return { labelId: id };
}

async function withContactAndLabel(a: TestApp, w: World, workspaceId: string) {
  const contactId = newId('ct');
  await a.ctx.db.insert(contacts).values({ id: contactId, workspaceId, name: 'Fixture' });
  return { contactId, ...(await withLabel(a, w, workspaceId)) };
}

async function withConversationAndLabel(a: TestApp, w: World, workspaceId: string) {
  const assistantId = await widgetAssistant(a, ownerOf(w, workspaceId), workspaceId);
  const s = await initWidget(a, assistantId);
  await widgetChat(a, assistantId, s, 'Where is my order?');
  return { conversationId: await conversationOfSession(a, s), ...(await withLabel(a, w, workspaceId)) };
}

const base = (workspaceId: string) => `/api/workspaces/${workspaceId}/labels`;

securitySuite(() => t, {
  name: 'GET /api/workspaces/:workspaceId/labels',
  auth: 'user',
  request: (w) => ({ method: 'GET', url: base(w) }),
});
securitySuite(() => t, {
  name: 'POST /api/workspaces/:workspaceId/labels',
  auth: 'user',
  minRole: 'admin',
  request: (w) => ({ method: 'POST', url: base(w), payload: { name: 'New', color: '#ff0000' } }),
});
securitySuite(() => t, {
  name: 'PATCH /api/workspaces/:workspaceId/labels/:labelId',
  auth: 'user',
  minRole: 'admin',
  prepare: withLabel,
  request: (w, { labelId }) => ({
    method: 'PATCH',
    url: `${base(w)}/${labelId}`,
    payload: { color: '#00ff00' },
  }),
});
securitySuite(() => t, {
  name: 'DELETE /api/workspaces/:workspaceId/labels/:labelId',
  auth: 'user',
  minRole: 'admin',
  prepare: withLabel,
  request: (w, { labelId }) => ({ method: 'DELETE', url: `${base(w)}/${labelId}` }),
});
securitySuite(() => t, {
  name: 'PUT /api/workspaces/:workspaceId/contacts/:contactId/labels',
  auth: 'user',
  minRole: 'member',
  prepare: withContactAndLabel,
  request: (w, { contactId, labelId }) => ({
    method: 'PUT',
    url: `/api/workspaces/${w}/contacts/${contactId}/labels`,
    payload: { labelIds: [labelId] },
  }),
});
securitySuite(() => t, {
  name: 'PUT /api/inbox/conversations/:conversationId/labels',
  auth: 'session',
  minRole: 'member',
  prepare: withConversationAndLabel,
  request: (w, { conversationId, labelId }) => ({
    method: 'PUT',
    url: `/api/inbox/conversations/${conversationId}/labels?workspaceId=${w}`,
    payload: { labelIds: [labelId] },
  }),
});
