import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaces } from '../../src/db/schema/index.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { securitySuite } from '../support/security.ts';
import { createWorld, insertApiKey, setPlan, type World } from '../support/world.ts';

let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await createTestApp();
  w = await createWorld(t);
});
afterAll(() => t.close());

const get = (headers: Record<string, string>) =>
  t.request({ method: 'GET', url: '/api/v1/workspace', headers });

describe('GET /api/v1/workspace', () => {
  it("returns the key's workspace, effective plan and the key's scopes", async () => {
    const res = await get(await insertApiKey(t, w.ws, ['tickets:write', 'events:read']));
    expect(res.statusCode, res.body).toBe(200);
    const [ws] = await t.ctx.db.select().from(workspaces).where(eq(workspaces.id, w.ws));
    expect(res.json()).toEqual({
      data: {
        id: w.ws,
        name: ws?.name,
        slug: ws?.slug,
        plan: 'pro',
        scopes: ['tickets:write', 'events:read'],
      },
    });
  });

  it('answers any key, including events:read alone on Free', async () => {
    const res = await get(await insertApiKey(t, w.freeWs, ['events:read']));
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id: w.freeWs, plan: 'free', scopes: ['events:read'] });
  });

  it('shows Free once a trial has ended, before any job rewrites the row', async () => {
    const { ws } = await createWorld(t);
    await t.ctx.db
      .update(workspaces)
      .set({ plan: 'pro', billingStatus: 'trialing', trialEndsAt: new Date(Date.now() - 1000) })
      .where(eq(workspaces.id, ws));
    const res = await get(await insertApiKey(t, ws, ['events:read']));
    expect(res.json().data.plan).toBe('free');
    await setPlan(t, ws, 'enterprise');
    expect((await get(await insertApiKey(t, ws, ['events:read']))).json().data.plan).toBe('enterprise');
  });

  it('refuses cookies, personal tokens, unknown keys and malformed headers with 401', async () => {
    for (const authorization of [
      'Bearer wsk_live_',
      `Bearer wsk_live_${'a'.repeat(300)}`,
      'Bearer  wsk_live_double-space',
      'bearer wsk_live_lowercase',
      'Bearer wsk_live_ünïcode',
      'Bearer',
      '',
    ]) {
      const res = await get({ authorization });
      expect(res.statusCode, authorization).toBe(401);
      expect(res.json().code).toBe('unauthorized:api');
    }
  });

  it('answers 401 for a key whose workspace was deleted', async () => {
    const { ws } = await createWorld(t);
    const key = await insertApiKey(t, ws, ['events:read']);
    await t.ctx.db.delete(workspaces).where(eq(workspaces.id, ws));
    expect((await get(key)).statusCode).toBe(401);
  });
});

securitySuite(() => t, {
  name: 'GET /api/v1/workspace',
  auth: 'key',
  noWorkspace: true,
  request: () => ({ method: 'GET', url: '/api/v1/workspace' }),
});
