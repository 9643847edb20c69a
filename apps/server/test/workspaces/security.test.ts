import { afterAll, beforeAll } from 'vitest';
import { signupUser, uniqueEmail } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { securitySuite } from '../support/security.ts';
import { addMember, insertWorkspace, setPlan } from '../support/world.ts';
import { cloneWorld, insertInvitation } from './helpers.ts';

/** The shared security suite for every workspaces, members and invitations route. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
const app = () => t;

/** Destructive owner actions get a fresh copy of the world's workspace each time (same roles). */
const freshCopy = async (tt: TestApp, w: Parameters<typeof cloneWorld>[1], ws: string) =>
  ws === w.ws ? { ws: await cloneWorld(tt, w) } : { ws };

securitySuite(app, {
  name: 'POST /api/workspaces',
  auth: 'user',
  noWorkspace: true,
  // The world's owner already owns a workspace: Enterprise lets them create more.
  prepare: async (tt, w) => {
    await setPlan(tt, w.ws, 'enterprise');
    return {};
  },
  request: () => ({ method: 'POST', url: '/api/workspaces', payload: { name: 'Security' } }),
});

securitySuite(app, {
  name: 'GET /api/workspaces',
  auth: 'user',
  noWorkspace: true,
  request: () => ({ method: 'GET', url: '/api/workspaces' }),
});

securitySuite(app, {
  name: 'GET /api/workspaces/:workspaceId',
  auth: 'user',
  minRole: 'guest',
  request: (ws) => ({ method: 'GET', url: `/api/workspaces/${ws}` }),
});

securitySuite(app, {
  name: 'PATCH /api/workspaces/:workspaceId',
  auth: 'user',
  minRole: 'admin',
  request: (ws) => ({ method: 'PATCH', url: `/api/workspaces/${ws}`, payload: { name: 'Renamed' } }),
});

securitySuite(app, {
  name: 'DELETE /api/workspaces/:workspaceId',
  auth: 'user',
  minRole: 'owner',
  prepare: freshCopy,
  request: (ws, x) => ({ method: 'DELETE', url: `/api/workspaces/${x.ws ?? ws}` }),
});

securitySuite(app, {
  name: 'POST /api/workspaces/:workspaceId/transfer-ownership',
  auth: 'user',
  minRole: 'owner',
  prepare: async (tt, w, ws) => ({ ...(await freshCopy(tt, w, ws)), userId: w.admin.id }),
  request: (ws, x) => ({
    method: 'POST',
    url: `/api/workspaces/${x.ws ?? ws}/transfer-ownership`,
    payload: { userId: x.userId },
  }),
});

securitySuite(app, {
  name: 'GET /api/workspaces/:workspaceId/members',
  auth: 'user',
  minRole: 'guest',
  request: (ws) => ({ method: 'GET', url: `/api/workspaces/${ws}/members` }),
});

/** A fresh member of `ws` to act on. */
const freshMember = async (tt: TestApp, _w: unknown, ws: string) => {
  const u = await signupUser(tt);
  await addMember(tt, ws, u, 'member');
  return { userId: u.id };
};

securitySuite(app, {
  name: 'PATCH /api/workspaces/:workspaceId/members/:userId',
  auth: 'user',
  minRole: 'admin',
  prepare: freshMember,
  request: (ws, x) => ({
    method: 'PATCH',
    url: `/api/workspaces/${ws}/members/${x.userId}`,
    payload: { role: 'guest' },
  }),
});

securitySuite(app, {
  name: 'DELETE /api/workspaces/:workspaceId/members/:userId',
  auth: 'user',
  minRole: 'admin',
  prepare: freshMember,
  request: (ws, x) => ({ method: 'DELETE', url: `/api/workspaces/${ws}/members/${x.userId}` }),
});

securitySuite(app, {
  name: 'POST /api/workspaces/:workspaceId/invitations',
  auth: 'user',
  minRole: 'admin',
  request: (ws) => ({
    method: 'POST',
    url: `/api/workspaces/${ws}/invitations`,
    payload: { email: uniqueEmail('sec'), role: 'member' },
  }),
});

securitySuite(app, {
  name: 'GET /api/workspaces/:workspaceId/invitations',
  auth: 'user',
  minRole: 'admin',
  request: (ws) => ({ method: 'GET', url: `/api/workspaces/${ws}/invitations` }),
});

securitySuite(app, {
  name: 'DELETE /api/workspaces/:workspaceId/invitations/:invitationId',
  auth: 'user',
  minRole: 'admin',
  prepare: async (tt, _w, ws) => ({ id: (await insertInvitation(tt, ws, uniqueEmail('sec'))).id }),
  request: (ws, x) => ({ method: 'DELETE', url: `/api/workspaces/${ws}/invitations/${x.id}` }),
});

securitySuite(app, {
  name: 'POST /api/invitations/:token/accept',
  auth: 'user',
  noWorkspace: true,
  // An invitation for the world's owner into a workspace they are not in yet.
  prepare: async (tt, w) => {
    const ws = await insertWorkspace(tt, w.outsider);
    return { token: (await insertInvitation(tt, ws, w.owner.email)).token };
  },
  request: (_ws, x) => ({ method: 'POST', url: `/api/invitations/${x.token}/accept` }),
});

securitySuite(app, {
  name: 'PUT /api/workspaces/:workspaceId/members/me/availability',
  auth: 'user',
  minRole: 'member',
  request: (ws) => ({
    method: 'PUT',
    url: `/api/workspaces/${ws}/members/me/availability`,
    payload: { status: 'online' },
  }),
});
