import { afterAll, beforeAll } from 'vitest';
import { contacts } from '../../src/db/schema/index.ts';
import { newId } from '../../src/lib/ids.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { securitySuite } from '../support/security.ts';

/** The security suite over every contacts route, both surfaces (docs/contacts-and-tickets.md "Endpoints"). */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** A contact in `workspaceId` (fixture setup). */
async function withContact(tt: TestApp, _w: unknown, workspaceId: string) {
  const id = newId('ct');
  await tt.ctx.db.insert(contacts).values({ id, workspaceId, name: 'Fixture' });
  return { contactId: id };
}

const v1 = '/api/v1/contacts';
const ws = (workspaceId: string) => `/api/workspaces/${workspaceId}/contacts`;

securitySuite(() => t, {
  name: 'GET /api/v1/contacts',
  auth: 'key',
  noWorkspace: true,
  request: () => ({ method: 'GET', url: v1 }),
});
securitySuite(() => t, {
  name: 'POST /api/v1/contacts',
  auth: 'key',
  noWorkspace: true,
  scope: 'contacts:write',
  planFeature: 'api_v1_write',
  request: () => ({ method: 'POST', url: v1, payload: { name: 'New' } }),
});
securitySuite(() => t, {
  name: 'GET /api/v1/contacts/:contactId',
  auth: 'key',
  noWorkspace: true,
  prepare: withContact,
  request: (_ws, { contactId }) => ({ method: 'GET', url: `${v1}/${contactId}` }),
});
securitySuite(() => t, {
  name: 'PATCH /api/v1/contacts/:contactId',
  auth: 'key',
  noWorkspace: true,
  scope: 'contacts:write',
  planFeature: 'api_v1_write',
  prepare: withContact,
  request: (_ws, { contactId }) => ({
    method: 'PATCH',
    url: `${v1}/${contactId}`,
    payload: { name: 'Changed' },
  }),
});
securitySuite(() => t, {
  name: 'DELETE /api/v1/contacts/:contactId',
  auth: 'key',
  noWorkspace: true,
  scope: 'contacts:write',
  planFeature: 'api_v1_write',
  prepare: withContact,
  request: (_ws, { contactId }) => ({ method: 'DELETE', url: `${v1}/${contactId}` }),
});

securitySuite(() => t, {
  name: 'GET /api/workspaces/:workspaceId/contacts',
  auth: 'user',
  request: (w) => ({ method: 'GET', url: ws(w) }),
});
securitySuite(() => t, {
  name: 'POST /api/workspaces/:workspaceId/contacts',
  auth: 'user',
  minRole: 'member',
  request: (w) => ({ method: 'POST', url: ws(w), payload: { name: 'New' } }),
});
securitySuite(() => t, {
  name: 'GET /api/workspaces/:workspaceId/contacts/:contactId',
  auth: 'user',
  prepare: withContact,
  request: (w, { contactId }) => ({ method: 'GET', url: `${ws(w)}/${contactId}` }),
});
securitySuite(() => t, {
  name: 'PATCH /api/workspaces/:workspaceId/contacts/:contactId',
  auth: 'user',
  minRole: 'member',
  prepare: withContact,
  request: (w, { contactId }) => ({
    method: 'PATCH',
    url: `${ws(w)}/${contactId}`,
    payload: { name: 'Changed' },
  }),
});
securitySuite(() => t, {
  name: 'DELETE /api/workspaces/:workspaceId/contacts/:contactId',
  auth: 'user',
  minRole: 'member',
  prepare: withContact,
  request: (w, { contactId }) => ({ method: 'DELETE', url: `${ws(w)}/${contactId}` }),
});
