import { afterAll, beforeAll } from 'vitest';
import { cannedResponses } from '../../src/db/schema/index.ts';
import { newId } from '../../src/lib/ids.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { securitySuite } from '../support/security.ts';

/** The security suite over every canned-responses route (docs/canned-responses.md "Endpoints"). */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
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
