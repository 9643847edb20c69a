import { afterAll, beforeAll } from 'vitest';
import { tickets } from '../../src/db/schema/index.ts';
import { newId } from '../../src/lib/ids.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { securitySuite } from '../support/security.ts';

/** The security suite over every tickets route, both surfaces (docs/contacts-and-tickets.md "Endpoints"). */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** A ticket in `workspaceId` (fixture setup). */
async function withTicket(tt: TestApp, _w: unknown, workspaceId: string) {
  const id = newId('tkt');
  await tt.ctx.db.insert(tickets).values({ id, workspaceId, subject: 'Fixture' });
  return { ticketId: id };
}

const v1 = '/api/v1/tickets';
const ws = (workspaceId: string) => `/api/workspaces/${workspaceId}/tickets`;

securitySuite(() => t, {
  name: 'GET /api/v1/tickets',
  auth: 'key',
  noWorkspace: true,
  request: () => ({ method: 'GET', url: v1 }),
});
securitySuite(() => t, {
  name: 'POST /api/v1/tickets',
  auth: 'key',
  noWorkspace: true,
  scope: 'tickets:write',
  planFeature: 'api_v1_write',
  request: () => ({ method: 'POST', url: v1, payload: { subject: 'New' } }),
});
securitySuite(() => t, {
  name: 'GET /api/v1/tickets/:ticketId',
  auth: 'key',
  noWorkspace: true,
  prepare: withTicket,
  request: (_ws, { ticketId }) => ({ method: 'GET', url: `${v1}/${ticketId}` }),
});
securitySuite(() => t, {
  name: 'PATCH /api/v1/tickets/:ticketId',
  auth: 'key',
  noWorkspace: true,
  scope: 'tickets:write',
  planFeature: 'api_v1_write',
  prepare: withTicket,
  request: (_ws, { ticketId }) => ({
    method: 'PATCH',
    url: `${v1}/${ticketId}`,
    payload: { priority: 'high' },
  }),
});

securitySuite(() => t, {
  name: 'GET /api/workspaces/:workspaceId/tickets',
  auth: 'user',
  request: (w) => ({ method: 'GET', url: ws(w) }),
});
securitySuite(() => t, {
  name: 'POST /api/workspaces/:workspaceId/tickets',
  auth: 'user',
  minRole: 'member',
  request: (w) => ({ method: 'POST', url: ws(w), payload: { subject: 'New' } }),
});
securitySuite(() => t, {
  name: 'GET /api/workspaces/:workspaceId/tickets/:ticketId',
  auth: 'user',
  prepare: withTicket,
  request: (w, { ticketId }) => ({ method: 'GET', url: `${ws(w)}/${ticketId}` }),
});
securitySuite(() => t, {
  name: 'PATCH /api/workspaces/:workspaceId/tickets/:ticketId',
  auth: 'user',
  minRole: 'member',
  prepare: withTicket,
  request: (w, { ticketId }) => ({
    method: 'PATCH',
    url: `${ws(w)}/${ticketId}`,
    payload: { priority: 'high' },
  }),
});
