import { afterAll, beforeAll } from 'vitest';
import { conversations, messages } from '../../src/db/schema/index.ts';
import { newId } from '../../src/lib/ids.ts';
import type { TestApp } from '../support/harness.ts';
import { createTestApp } from '../support/harness.ts';
import { securitySuite } from '../support/security.ts';
import { ownerOf, type World, withAssistant } from '../support/world.ts';
import { addItem } from './helpers.ts';

/**
 * docs/steering.md: every route of an assistant's steering under the shared security suite. Reads
 * take any member (workspace.view), writes and runs an owner or admin (assistants.manage).
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const BODIES = {
  guidance: { name: 'refunds', kind: 'handoff', text: 'To a person.', triggers: ['refund'] },
  answers: { question: 'Do you ship abroad?', answer: 'Yes.' },
  tests: { name: 'shipping', turns: [{ content: 'Do you ship abroad?' }], expect: { contains: ['yes'] } },
} as const;

for (const kind of ['guidance', 'answers', 'tests'] as const) {
  const withItem = async (app: TestApp, w: World, ws: string) => {
    const { assistantId } = await withAssistant(app, w, ws);
    const item = await addItem(app, ownerOf(w, ws), assistantId, kind, BODIES[kind]);
    return { assistantId, itemId: item.id };
  };
  securitySuite(() => t, {
    name: `GET /api/assistants/:id/${kind}`,
    auth: 'session',
    prepare: withAssistant,
    request: (_ws, x) => ({ method: 'GET', url: `/api/assistants/${x.assistantId}/${kind}` }),
  });
  securitySuite(() => t, {
    name: `POST /api/assistants/:id/${kind}`,
    auth: 'session',
    minRole: 'admin',
    prepare: withAssistant,
    request: (_ws, x) => ({
      method: 'POST',
      url: `/api/assistants/${x.assistantId}/${kind}`,
      payload: BODIES[kind],
    }),
  });
  securitySuite(() => t, {
    name: `GET /api/assistants/:id/${kind}/:itemId`,
    auth: 'session',
    prepare: withItem,
    request: (_ws, x) => ({ method: 'GET', url: `/api/assistants/${x.assistantId}/${kind}/${x.itemId}` }),
  });
  securitySuite(() => t, {
    name: `PATCH /api/assistants/:id/${kind}/:itemId`,
    auth: 'session',
    minRole: 'admin',
    prepare: withItem,
    request: (_ws, x) => ({
      method: 'PATCH',
      url: `/api/assistants/${x.assistantId}/${kind}/${x.itemId}`,
      payload: kind === 'answers' ? { answer: 'No.' } : { name: 'renamed' },
    }),
  });
  securitySuite(() => t, {
    name: `DELETE /api/assistants/:id/${kind}/:itemId`,
    auth: 'session',
    minRole: 'admin',
    prepare: withItem,
    request: (_ws, x) => ({ method: 'DELETE', url: `/api/assistants/${x.assistantId}/${kind}/${x.itemId}` }),
  });
}

securitySuite(() => t, {
  name: 'POST /api/assistants/:id/tests/from-conversation',
  auth: 'session',
  minRole: 'admin',
  prepare: async (app, w, ws) => {
    const { assistantId } = await withAssistant(app, w, ws);
    const conversationId = newId('conv');
    await app.ctx.db
      .insert(conversations)
      .values({ id: conversationId, workspaceId: ws, assistantId, channel: 'widget', title: 'Shipping' });
    await app.ctx.db.insert(messages).values({
      id: newId('msg'),
      workspaceId: ws,
      conversationId,
      role: 'user',
      content: 'Do you ship abroad?',
    });
    return { assistantId, conversationId };
  },
  request: (_ws, x) => ({
    method: 'POST',
    url: `/api/assistants/${x.assistantId}/tests/from-conversation`,
    payload: { conversationId: x.conversationId },
  }),
});
securitySuite(() => t, {
  name: 'POST /api/assistants/:id/test-runs',
  auth: 'session',
  minRole: 'admin',
  prepare: withAssistant,
  request: (_ws, x) => ({ method: 'POST', url: `/api/assistants/${x.assistantId}/test-runs` }),
});
securitySuite(() => t, {
  name: 'GET /api/assistants/:id/test-runs',
  auth: 'session',
  prepare: withAssistant,
  request: (_ws, x) => ({ method: 'GET', url: `/api/assistants/${x.assistantId}/test-runs` }),
});
securitySuite(() => t, {
  name: 'GET /api/assistants/:id/test-runs/:runId',
  auth: 'session',
  prepare: async (app, w, ws) => {
    const { assistantId } = await withAssistant(app, w, ws);
    const res = await app.request({
      method: 'POST',
      url: `/api/assistants/${assistantId}/test-runs`,
      headers: ownerOf(w, ws).headers,
    });
    return { assistantId, runId: res.json().data.id };
  },
  request: (_ws, x) => ({ method: 'GET', url: `/api/assistants/${x.assistantId}/test-runs/${x.runId}` }),
});
