import type { Scope } from '@parley/contract/scopes';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaces } from '../../src/db/schema/index.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { createWorld, insertApiKey, setPlan, type World } from '../support/world.ts';

/**
 * The role, scope and plan matrices of contacts and tickets (docs/contacts-and-tickets.md
 * "Endpoints"), over both surfaces.
 */
let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await createTestApp();
  w = await createWorld(t);
});
afterAll(() => t.close());

let n = 0;
const body = (resource: 'contacts' | 'tickets') =>
  resource === 'contacts' ? { name: `Matrix ${++n}` } : { subject: `Matrix ${++n}` };

describe('roles on the workspace paths', () => {
  const roles = ['owner', 'admin', 'member', 'guest'] as const;
  for (const resource of ['contacts', 'tickets'] as const) {
    it(`${resource}: every role reads; owner, admin and member write; a guest gets 403`, async () => {
      const base = `/api/workspaces/${w.ws}/${resource}`;
      const made = await t.request({
        method: 'POST',
        url: base,
        headers: w.owner.headers,
        payload: body(resource),
      });
      const id = made.json().data.id;
      for (const role of roles) {
        const headers = w[role].headers;
        expect((await t.request({ method: 'GET', url: base, headers })).statusCode, role).toBe(200);
        expect((await t.request({ method: 'GET', url: `${base}/${id}`, headers })).statusCode, role).toBe(
          200,
        );
        const write = role === 'guest' ? 403 : 201;
        const res = await t.request({ method: 'POST', url: base, headers, payload: body(resource) });
        expect(res.statusCode, `${role} ${res.body}`).toBe(write);
        const patch = await t.request({
          method: 'PATCH',
          url: `${base}/${id}`,
          headers,
          payload: resource === 'contacts' ? { name: role } : { subject: role },
        });
        expect(patch.statusCode, role).toBe(role === 'guest' ? 403 : 200);
      }
    });
  }
});

describe('scopes and plans on /api/v1', () => {
  const write = async (headers: Record<string, string>, resource: 'contacts' | 'tickets') =>
    (await t.request({ method: 'POST', url: `/api/v1/${resource}`, headers, payload: body(resource) }))
      .statusCode;
  const read = async (headers: Record<string, string>, resource: 'contacts' | 'tickets') =>
    (await t.request({ method: 'GET', url: `/api/v1/${resource}`, headers })).statusCode;

  it('each write needs its own scope; reads need none', async () => {
    const cases: Array<[Scope[], number, number]> = [
      [[], 403, 403],
      [['events:read', 'chat:write'], 403, 403],
      [['contacts:write'], 201, 403],
      [['tickets:write'], 403, 201],
      [['contacts:write', 'tickets:write'], 201, 201],
    ];
    for (const [scopes, contactsStatus, ticketsStatus] of cases) {
      const key = await insertApiKey(t, w.ws, scopes);
      expect(await write(key, 'contacts'), scopes.join()).toBe(contactsStatus);
      expect(await write(key, 'tickets'), scopes.join()).toBe(ticketsStatus);
      expect(await read(key, 'contacts')).toBe(200);
      expect(await read(key, 'tickets')).toBe(200);
    }
  });

  it('writes need api_v1_write: Free and an ended trial refuse them, Pro, a trial and Enterprise allow them', async () => {
    const scopes: Scope[] = ['contacts:write', 'tickets:write'];
    const plans: Array<[string, (ws: string) => Promise<void>, number]> = [
      ['free', (ws) => setPlan(t, ws, 'free'), 403],
      ['pro', (ws) => setPlan(t, ws, 'pro'), 201],
      ['enterprise', (ws) => setPlan(t, ws, 'enterprise'), 201],
      ['trial', async () => {}, 201],
      [
        'ended trial',
        async (ws) => {
          await t.ctx.db
            .update(workspaces)
            .set({ plan: 'pro', billingStatus: 'trialing', trialEndsAt: new Date(Date.now() - 1000) })
            .where(eq(workspaces.id, ws));
        },
        403,
      ],
    ];
    for (const [label, arrange, expected] of plans) {
      const { ws } = await createWorld(t);
      await arrange(ws);
      const key = await insertApiKey(t, ws, scopes);
      for (const resource of ['contacts', 'tickets'] as const) {
        const res = await t.request({
          method: 'POST',
          url: `/api/v1/${resource}`,
          headers: key,
          payload: body(resource),
        });
        expect(res.statusCode, `${label} ${resource}`).toBe(expected);
        if (expected === 403) expect(res.json().code).toBe('plan_upgrade_required');
        expect(await read(key, resource), `${label} read`).toBe(200);
      }
    }
  });

  it('the plan feature is checked before the scope (docs/api.md "Order of checks")', async () => {
    const key = await insertApiKey(t, w.freeWs, []);
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/contacts',
      headers: key,
      payload: { name: 'x' },
    });
    expect(res.json().code).toBe('plan_upgrade_required');
  });
});
