import { afterAll, beforeAll } from 'vitest';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { securitySuite } from '../support/security.ts';

/** The security suite over the inbox settings (docs/inbox.md "Auto-assignment", docs/csat.md). */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const path = (workspaceId: string) => `/api/workspaces/${workspaceId}/inbox-settings`;

securitySuite(() => t, {
  name: 'GET /api/workspaces/:workspaceId/inbox-settings',
  auth: 'user',
  request: (w) => ({ method: 'GET', url: path(w) }),
});
securitySuite(() => t, {
  name: 'PUT /api/workspaces/:workspaceId/inbox-settings',
  auth: 'user',
  minRole: 'admin',
  request: (w) => ({
    method: 'PUT',
    url: path(w),
    payload: { autoAssign: true, maxOpenPerAgent: 5, csat: { enabled: true } },
  }),
});
