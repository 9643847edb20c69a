import { afterAll, beforeAll } from 'vitest';
import { conversations, suggestions } from '../../src/db/schema/index.ts';
import { newId } from '../../src/lib/ids.ts';
import type { TestApp } from '../support/harness.ts';
import { createTestApp } from '../support/harness.ts';
import { securitySuite } from '../support/security.ts';
import { type World, withAssistant } from '../support/world.ts';

/**
 * docs/measuring.md "Suggestions": the suggestions' routes under the shared security suite. The
 * list takes any member (workspace.view); accept and dismiss an owner or admin (assistants.manage).
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** An assistant with an open suggestion, in `ws` (stored directly: how it is made is tested elsewhere). */
async function withSuggestion(app: TestApp, w: World, ws: string) {
  const { assistantId } = await withAssistant(app, w, ws);
  const conversationId = newId('conv');
  await app.ctx.db
    .insert(conversations)
    .values({ id: conversationId, workspaceId: ws, assistantId, channel: 'widget', status: 'closed' });
  const suggestionId = newId('sug');
  await app.ctx.db.insert(suggestions).values({
    id: suggestionId,
    workspaceId: ws,
    assistantId,
    conversationId,
    questionMessageId: newId('msg'),
    question: 'Do you ship abroad?',
    answer: 'Yes, to the EU.',
  });
  return { assistantId, suggestionId };
}

securitySuite(() => t, {
  name: 'GET /api/assistants/:id/suggestions',
  auth: 'session',
  prepare: withSuggestion,
  request: (_ws, x) => ({ method: 'GET', url: `/api/assistants/${x.assistantId}/suggestions?status=open` }),
});
securitySuite(() => t, {
  name: 'POST /api/assistants/:id/suggestions/:suggestionId/accept',
  auth: 'session',
  minRole: 'admin',
  prepare: withSuggestion,
  request: (_ws, x) => ({
    method: 'POST',
    url: `/api/assistants/${x.assistantId}/suggestions/${x.suggestionId}/accept`,
    payload: { answer: 'Yes, to every EU country.' },
  }),
});
securitySuite(() => t, {
  name: 'POST /api/assistants/:id/suggestions/:suggestionId/dismiss',
  auth: 'session',
  minRole: 'admin',
  prepare: withSuggestion,
  request: (_ws, x) => ({
    method: 'POST',
    url: `/api/assistants/${x.assistantId}/suggestions/${x.suggestionId}/dismiss`,
  }),
});
