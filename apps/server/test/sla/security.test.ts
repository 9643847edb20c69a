import { afterAll, beforeAll } from 'vitest';
import { slaPolicies } from '../../src/db/schema/index.ts';
import { newId } from '../../src/lib/ids.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { securitySuite } from '../support/security.ts';

/** The security suite over every SLA policies route (docs/sla.md "Policies"). */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** A policy in `workspaceId` (fixture setup). */
async function withPolicy(a: TestApp, _w: unknown, workspaceId: string) {
  const id = newId('sla');
  await a.ctx.db
    .insert(slaPolicies)
    .values({ id, workspaceId, name: `Fixture ${id.slice(-6)}`, resolutionMinutes: 480, priority: 10 });
  return { policyId: id };
}

const base = (workspaceId: string) => `/api/workspaces/${workspaceId}/sla-policies`;
const write = { auth: 'user', minRole: 'admin', planFeature: 'sla' } as const;

securitySuite(() => t, {
  name: 'GET /api/workspaces/:workspaceId/sla-policies',
  auth: 'user',
  request: (w) => ({ method: 'GET', url: base(w) }),
});
securitySuite(() => t, {
  name: 'POST /api/workspaces/:workspaceId/sla-policies',
  ...write,
  request: (w) => ({
    method: 'POST',
    url: base(w),
    payload: { name: 'New', firstResponseMinutes: 30, priority: 1 },
  }),
});
securitySuite(() => t, {
  name: 'PATCH /api/workspaces/:workspaceId/sla-policies/:policyId',
  ...write,
  prepare: withPolicy,
  request: (w, { policyId }) => ({
    method: 'PATCH',
    url: `${base(w)}/${policyId}`,
    payload: { priority: 2 },
  }),
});
securitySuite(() => t, {
  name: 'DELETE /api/workspaces/:workspaceId/sla-policies/:policyId',
  ...write,
  prepare: withPolicy,
  request: (w, { policyId }) => ({ method: 'DELETE', url: `${base(w)}/${policyId}` }),
});
