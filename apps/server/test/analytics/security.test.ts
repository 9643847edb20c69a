import { afterAll, beforeAll } from 'vitest';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { securitySuite } from '../support/security.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

// Every role reads analytics (docs/analytics.md "Who can see them"): no minRole, no plan feature.
securitySuite(() => t, {
  name: 'GET /api/workspaces/:workspaceId/analytics',
  auth: 'user',
  request: (ws) => ({ method: 'GET', url: `/api/workspaces/${ws}/analytics?period=7d` }),
});

securitySuite(() => t, {
  name: 'GET /api/workspaces/:workspaceId/analytics/knowledge-gaps',
  auth: 'user',
  request: (ws) => ({
    method: 'GET',
    url: `/api/workspaces/${ws}/analytics/knowledge-gaps?period=90d&limit=5`,
  }),
});

securitySuite(() => t, {
  name: 'GET /api/analytics/channels',
  auth: 'session',
  request: (ws) => ({ method: 'GET', url: `/api/analytics/channels?workspaceId=${ws}&period=30d` }),
});
