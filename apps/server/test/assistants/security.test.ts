import { afterAll, beforeAll } from 'vitest';
import { createAssistant } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { securitySuite } from '../support/security.ts';
import { ownerOf, type World } from '../support/world.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const prepare = async (app: TestApp, w: World, ws: string) => {
  return { assistantId: await createAssistant(app, ownerOf(w, ws), ws) };
};

securitySuite(() => t, {
  name: 'GET /api/assistants',
  auth: 'session',
  request: (ws) => ({ method: 'GET', url: `/api/assistants?workspaceId=${ws}` }),
});
securitySuite(() => t, {
  name: 'POST /api/assistants',
  auth: 'session',
  minRole: 'admin',
  request: (ws) => ({ method: 'POST', url: '/api/assistants', payload: { workspaceId: ws, name: 'S' } }),
});
securitySuite(() => t, {
  name: 'GET /api/assistants/:id',
  auth: 'session',
  prepare,
  request: (_ws, x) => ({ method: 'GET', url: `/api/assistants/${x.assistantId}` }),
});
securitySuite(() => t, {
  name: 'PATCH /api/assistants/:id',
  auth: 'session',
  minRole: 'admin',
  prepare,
  request: (_ws, x) => ({ method: 'PATCH', url: `/api/assistants/${x.assistantId}`, payload: { name: 'P' } }),
});
securitySuite(() => t, {
  name: 'DELETE /api/assistants/:id',
  auth: 'session',
  minRole: 'admin',
  prepare,
  request: (_ws, x) => ({ method: 'DELETE', url: `/api/assistants/${x.assistantId}` }),
});
securitySuite(() => t, {
  name: 'PUT /api/assistants/:id/access/:userId',
  auth: 'session',
  minRole: 'admin',
  prepare: async (app, w, ws) => ({
    ...(await prepare(app, w, ws)),
    userId: ws === w.ws ? w.member.id : w.outsider.id,
  }),
  request: (_ws, x) => ({ method: 'PUT', url: `/api/assistants/${x.assistantId}/access/${x.userId}` }),
});
securitySuite(() => t, {
  name: 'DELETE /api/assistants/:id/access/:userId',
  auth: 'session',
  minRole: 'admin',
  // A grant to revoke, made by the owner (another workspace's assistant gets none: it is a 404).
  prepare: async (app, w, ws) => {
    const x = await prepare(app, w, ws);
    if (ws !== w.ws) return { ...x, userId: w.outsider.id };
    const url = `/api/assistants/${x.assistantId}/access/${w.member.id}`;
    await app.request({ method: 'PUT', url, headers: ownerOf(w, ws).headers });
    return { ...x, userId: w.member.id };
  },
  request: (_ws, x) => ({ method: 'DELETE', url: `/api/assistants/${x.assistantId}/access/${x.userId}` }),
});
