import { eq } from 'drizzle-orm';
import { afterAll, beforeAll } from 'vitest';
import { workspaces } from '../../src/db/schema/index.ts';
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

/**
 * The suite's app, where a workspace still on its Pro trial becomes Enterprise before its first SSO
 * request (the world's Free workspace stays Free, for the plan check).
 */
const upgraded = new Set<string>();
function app(): TestApp {
  return {
    ...w.t,
    request: async (opts) => {
      const ws = /^\/api\/workspaces\/([^/]+)\/sso/.exec(String(opts.url ?? ''))?.[1];
      if (ws && !upgraded.has(ws)) {
        upgraded.add(ws);
        const [row] = await w.t.ctx.db.select().from(workspaces).where(eq(workspaces.id, ws));
        if (row?.plan === 'pro') await makeEnterprise(w.t, ws);
      }
      return w.t.request(opts);
    },
  };
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

const owner = { auth: 'user', minRole: 'owner', planFeature: 'sso' } as const;
const base = (ws: string) => `/api/workspaces/${ws}/sso/connections`;

securitySuite(app, {
  ...owner,
  name: 'POST /api/workspaces/:workspaceId/sso/connections',
  request: (ws) => ({ method: 'POST', url: base(ws), payload: oidcBody(w.idp, [newDomain()]) }),
});
securitySuite(app, {
  ...owner,
  name: 'GET /api/workspaces/:workspaceId/sso/connections',
  request: (ws) => ({ method: 'GET', url: base(ws) }),
});
securitySuite(app, {
  ...owner,
  name: 'GET /api/workspaces/:workspaceId/sso/connections/:connectionId',
  prepare: connection,
  request: (ws, x) => ({ method: 'GET', url: `${base(ws)}/${x.connectionId}` }),
});
securitySuite(app, {
  ...owner,
  name: 'PATCH /api/workspaces/:workspaceId/sso/connections/:connectionId',
  prepare: connection,
  request: (ws, x) => ({
    method: 'PATCH',
    url: `${base(ws)}/${x.connectionId}`,
    payload: { name: 'Renamed' },
  }),
});
securitySuite(app, {
  ...owner,
  name: 'DELETE /api/workspaces/:workspaceId/sso/connections/:connectionId',
  prepare: connection,
  request: (ws, x) => ({ method: 'DELETE', url: `${base(ws)}/${x.connectionId}` }),
});
securitySuite(app, {
  ...owner,
  name: 'POST /api/workspaces/:workspaceId/sso/connections/:connectionId/domains/:domain/verify',
  prepare: connection,
  request: (ws, x) => ({ method: 'POST', url: `${base(ws)}/${x.connectionId}/domains/${x.domain}/verify` }),
});
securitySuite(app, {
  ...owner,
  auth: 'session',
  name: 'POST /api/workspaces/:workspaceId/sso/connections/:connectionId/test',
  prepare: connection,
  request: (ws, x) => ({ method: 'POST', url: `${base(ws)}/${x.connectionId}/test` }),
});
