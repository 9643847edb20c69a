import { afterAll, beforeAll } from 'vitest';
import type { TestApp } from '../support/harness.ts';
import { securitySuite } from '../support/security.ts';
import { ownerOf, type World } from '../support/world.ts';
import { makeEnterprise, newDomain, oidcBody, type SsoWorld, ssoApp } from './helpers.ts';

/**
 * Every credentialed SSO route (docs/sso.md): 401 without or with a wrong credential, 404 across
 * workspaces, 403 below owner, 403 plan_upgrade_required below Enterprise (the world's Free one).
 */
let w: SsoWorld;
beforeAll(async () => {
  w = await ssoApp();
});
afterAll(() => w.close());

/** Workspaces on their Pro trial become Enterprise (the world's Free one stays Free, for the plan check). */
async function enterprise(t: TestApp, world: World) {
  await makeEnterprise(t, world.ws);
  await makeEnterprise(t, world.otherWs);
}

/** A connection in `ws` (none in the Free one). */
async function connection(t: TestApp, world: World, ws: string) {
  if (ws === world.freeWs) return { connectionId: 'sso_none', domain: 'none.test' };
  const domain = newDomain();
  const res = await t.request({
    method: 'POST',
    url: `/api/workspaces/${ws}/sso/connections`,
    headers: ownerOf(world, ws).headers,
    payload: oidcBody(w.idp, [domain]),
  });
  if (res.statusCode !== 201) throw new Error(`${res.statusCode} ${res.body}`);
  const data = res.json().data;
  w.dns.records.set(`_parley-verification.${domain}`, [data.domains[0].verificationRecord.value]);
  return { connectionId: data.id as string, domain };
}

const owner = { auth: 'user', minRole: 'owner', planFeature: 'sso', setupWorld: enterprise } as const;
const base = (ws: string) => `/api/workspaces/${ws}/sso/connections`;

securitySuite(() => w.t, {
  ...owner,
  name: 'POST /api/workspaces/:workspaceId/sso/connections',
  request: (ws) => ({ method: 'POST', url: base(ws), payload: oidcBody(w.idp, [newDomain()]) }),
});
securitySuite(() => w.t, {
  ...owner,
  name: 'GET /api/workspaces/:workspaceId/sso/connections',
  request: (ws) => ({ method: 'GET', url: base(ws) }),
});
securitySuite(() => w.t, {
  ...owner,
  name: 'GET /api/workspaces/:workspaceId/sso/connections/:connectionId',
  prepare: connection,
  request: (ws, x) => ({ method: 'GET', url: `${base(ws)}/${x.connectionId}` }),
});
securitySuite(() => w.t, {
  ...owner,
  name: 'PATCH /api/workspaces/:workspaceId/sso/connections/:connectionId',
  prepare: connection,
  request: (ws, x) => ({
    method: 'PATCH',
    url: `${base(ws)}/${x.connectionId}`,
    payload: { name: 'Renamed' },
  }),
});
securitySuite(() => w.t, {
  ...owner,
  name: 'DELETE /api/workspaces/:workspaceId/sso/connections/:connectionId',
  prepare: connection,
  request: (ws, x) => ({ method: 'DELETE', url: `${base(ws)}/${x.connectionId}` }),
});
securitySuite(() => w.t, {
  ...owner,
  name: 'POST /api/workspaces/:workspaceId/sso/connections/:connectionId/domains/:domain/verify',
  prepare: connection,
  request: (ws, x) => ({ method: 'POST', url: `${base(ws)}/${x.connectionId}/domains/${x.domain}/verify` }),
});
securitySuite(() => w.t, {
  ...owner,
  auth: 'session',
  name: 'POST /api/workspaces/:workspaceId/sso/connections/:connectionId/test',
  prepare: connection,
  request: (ws, x) => ({ method: 'POST', url: `${base(ws)}/${x.connectionId}/test` }),
});
