import { afterAll, beforeAll } from 'vitest';
import { createAssistant } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { securitySuite } from '../support/security.ts';
import { ownerOf } from '../support/world.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

// Every role reads analytics (docs/analytics.md "Who can see them"): no minRole, no plan feature.
securitySuite(() => t, {
  name: 'GET /api/workspaces/:workspaceId/analytics/ai',
  auth: 'user',
  request: (ws) => ({ method: 'GET', url: `/api/workspaces/${ws}/analytics/ai?period=7d` }),
});

// One assistant's figures: another workspace's assistant is a 404 like a missing one.
securitySuite(() => t, {
  name: 'GET /api/workspaces/:workspaceId/analytics/ai?assistantId=',
  auth: 'user',
  prepare: async (app, world, ws) => ({ assistantId: await createAssistant(app, ownerOf(world, ws), ws) }),
  request: (ws, { assistantId }) => ({
    method: 'GET',
    url: `/api/workspaces/${ws}/analytics/ai?period=30d&assistantId=${assistantId}`,
  }),
});
