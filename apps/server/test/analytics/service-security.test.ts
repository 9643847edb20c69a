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
  name: 'GET /api/workspaces/:workspaceId/analytics/service',
  auth: 'user',
  request: (ws) => ({ method: 'GET', url: `/api/workspaces/${ws}/analytics/service?period=7d` }),
});

securitySuite(() => t, {
  name: 'GET /api/workspaces/:workspaceId/analytics/service/conversations.csv',
  auth: 'user',
  request: (ws) => ({
    method: 'GET',
    url: `/api/workspaces/${ws}/analytics/service/conversations.csv?period=90d&figure=sla_breached`,
  }),
});
