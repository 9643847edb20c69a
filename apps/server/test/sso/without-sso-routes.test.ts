import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ssoConnections, ssoDomains } from '../../src/db/schema/index.ts';
import { features } from '../../src/features/index.ts';
import { ssoRoutes } from '../../src/features/sso/sso.routes.ts';
import { newId } from '../../src/lib/ids.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { createWorld, type World } from '../support/world.ts';

/**
 * docs/architecture.md "State": "SSO required" (docs/sso.md) refuses a member's password sign-in
 * in an app that never registered the SSO routes: the sign-in guard comes with the context, not
 * with the routes. No app of this test file registers them.
 */
let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await createTestApp({}, { features: features.filter((f) => f !== ssoRoutes) });
  w = await createWorld(t);
});
afterAll(() => t.close());

const login = (email: string, password: string) =>
  t.request({ method: 'POST', url: '/api/auth/login', payload: { email, password } });

describe('SSO required, in an app without the SSO routes', () => {
  it("refuses the member's password sign-in and keeps the owner's", async () => {
    const doc = (await t.request({ method: 'GET', url: '/api/openapi.json' })).json();
    expect(Object.keys(doc.paths).filter((p) => p.includes('/sso'))).toEqual([]);
    expect((await login(w.member.email, w.member.password)).statusCode).toBe(200);

    // A verified domain of the member's email on a connection that requires SSO, as the SSO
    // routes would have stored it.
    const connectionId = newId('sso');
    await t.ctx.db
      .insert(ssoConnections)
      .values({ id: connectionId, workspaceId: w.ws, type: 'oidc', name: 'Company IdP', requireSso: true });
    const domain = w.member.email.split('@')[1]!;
    await t.ctx.db
      .insert(ssoDomains)
      .values({ connectionId, workspaceId: w.ws, domain, token: 'verified', verifiedAt: new Date() });

    const refused = await login(w.member.email, w.member.password);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error).toMatch(/single sign-on/);
    expect(refused.cookies.find((c) => c.name === 'parley.session-token')).toBeUndefined();
    if (w.owner.email.endsWith(`@${domain}`)) {
      expect((await login(w.owner.email, w.owner.password)).statusCode).toBe(200);
    }
  });
});
