import { MAX_SLA_POLICIES } from '@parley/contract/sla';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slaPolicies } from '../../src/db/schema/index.ts';
import { listSlaPolicies } from '../../src/features/sla/sla-policies.repo.ts';
import type { TestUser } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { expectLoneSurrogate, LONE, storedAnywhere } from '../support/hostile-text.ts';
import { createWorld, setPlan, type World } from '../support/world.ts';

/**
 * docs/sla.md "Policies": the fields and their defaults, the order (priority, then the oldest),
 * each validation error at its field, labels of this workspace only, a change that would leave no
 * target, the limit of 50, reads on every plan and writes on Pro and above.
 */
let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await createTestApp();
  w = await createWorld(t);
});
afterAll(() => t.close());

type Policy = {
  id: string;
  name: string;
  firstResponseMinutes: number | null;
  nextResponseMinutes: number | null;
  resolutionMinutes: number | null;
  businessHoursOnly: boolean;
  appliesTo: { channels?: string[]; labelIds?: string[] };
  priority: number;
  createdAt: string;
  updatedAt: string;
};

const api = (user: TestUser, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
  t.request({
    method,
    url,
    headers: user.headers,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
const url = (ws = w.ws) => `/api/workspaces/${ws}/sla-policies`;
const create = async (body: Record<string, unknown>, ws = w.ws, user = w.owner) => {
  const r = await api(user, 'POST', url(ws), body);
  expect(r.statusCode, r.body).toBe(201);
  return r.json().data as Policy;
};
const list = async (ws = w.ws, user = w.owner) => {
  const r = await api(user, 'GET', url(ws));
  expect(r.statusCode, r.body).toBe(200);
  return r.json().data as Policy[];
};
const newLabel = async (name: string, ws = w.ws, user = w.owner) => {
  const r = await api(user, 'POST', `/api/workspaces/${ws}/labels`, { name, color: '#123456' });
  expect(r.statusCode, r.body).toBe(201);
  return r.json().data.id as string;
};
const clear = () => t.ctx.db.delete(slaPolicies).where(eq(slaPolicies.workspaceId, w.ws));
/** The 400 naming exactly `field`. */
const expectField = (
  r: { statusCode: number; body: string; json(): { details?: object } },
  field: string,
) => {
  expect(r.statusCode, r.body).toBe(400);
  expect(Object.keys(r.json().details ?? {}), r.body).toContain(field);
};

describe('SLA policies', () => {
  it('create with defaults, read by every member, change, delete', async () => {
    await clear();
    const vip = await newLabel('VIP');
    const p = await create({
      name: 'VIP customers',
      firstResponseMinutes: 30,
      resolutionMinutes: 480,
      appliesTo: { channels: ['widget', 'sms', 'widget'], labelIds: [vip, vip] },
      priority: 10,
    });
    expect(p.id).toMatch(/^sla_/);
    expect(p).toMatchObject({
      name: 'VIP customers',
      firstResponseMinutes: 30,
      nextResponseMinutes: null,
      resolutionMinutes: 480,
      businessHoursOnly: true,
      appliesTo: { channels: ['widget', 'sms'], labelIds: [vip] },
      priority: 10,
    });
    expect(p.createdAt).toBe(p.updatedAt);
    for (const user of [w.admin, w.member, w.guest]) expect(await list(w.ws, user)).toEqual([p]);

    const changed = await api(w.admin, 'PATCH', `${url()}/${p.id}`, {
      name: '  VIP  ',
      firstResponseMinutes: null,
      nextResponseMinutes: 60,
      businessHoursOnly: false,
      appliesTo: {},
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().data).toMatchObject({
      id: p.id,
      name: 'VIP',
      firstResponseMinutes: null,
      nextResponseMinutes: 60,
      resolutionMinutes: 480,
      businessHoursOnly: false,
      appliesTo: {},
      priority: 10,
      createdAt: p.createdAt,
    });
    // Fields not given keep theirs.
    const renamed = await api(w.owner, 'PATCH', `${url()}/${p.id}`, { priority: 3 });
    expect(renamed.json().data).toMatchObject({ name: 'VIP', nextResponseMinutes: 60, priority: 3 });

    expect((await api(w.owner, 'DELETE', `${url()}/${p.id}`)).statusCode).toBe(204);
    expect(await list()).toEqual([]);
    expect((await api(w.owner, 'PATCH', `${url()}/${p.id}`, { name: 'x' })).statusCode).toBe(404);
    expect((await api(w.owner, 'DELETE', `${url()}/${p.id}`)).statusCode).toBe(404);
  });

  it('listed by priority, then the older first (priorities may repeat); the repo gives the same order', async () => {
    await clear();
    const b = await create({ name: 'B', resolutionMinutes: 100, priority: 20 });
    const a = await create({ name: 'A', resolutionMinutes: 100, priority: 5 });
    const c = await create({ name: 'C', resolutionMinutes: 100, priority: 20 });
    const d = await create({ name: 'D', resolutionMinutes: 100, priority: 1 });
    expect((await list()).map((p) => p.name)).toEqual(['D', 'A', 'B', 'C']);
    expect((await listSlaPolicies(t.ctx.db, w.ws)).map((p) => p.id)).toEqual([d.id, a.id, b.id, c.id]);
    // C, moved to D's priority, comes first: it is the older of the two.
    await api(w.owner, 'PATCH', `${url()}/${c.id}`, { priority: 1 });
    expect((await list()).map((p) => p.name)).toEqual(['C', 'D', 'A', 'B']);
    expect(await listSlaPolicies(t.ctx.db, w.otherWs)).toEqual([]);
  });

  it('refuses each invalid field with a 400 naming it, storing nothing', async () => {
    await clear();
    const ok = { name: 'P', firstResponseMinutes: 30, priority: 1 };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...ok, name: '' }, 'name'],
      [{ ...ok, name: '   ' }, 'name'],
      [{ ...ok, name: 'x'.repeat(101) }, 'name'],
      [{ ...ok, name: 7 }, 'name'],
      [{ firstResponseMinutes: 30, priority: 1 }, 'name'],
      [{ ...ok, firstResponseMinutes: 0 }, 'firstResponseMinutes'],
      [{ ...ok, firstResponseMinutes: 43_201 }, 'firstResponseMinutes'],
      [{ ...ok, firstResponseMinutes: 1.5 }, 'firstResponseMinutes'],
      [{ ...ok, firstResponseMinutes: '30' }, 'firstResponseMinutes'],
      [{ ...ok, nextResponseMinutes: -5 }, 'nextResponseMinutes'],
      [{ ...ok, resolutionMinutes: 1e9 }, 'resolutionMinutes'],
      [{ name: 'P', priority: 1 }, 'firstResponseMinutes'],
      [
        { name: 'P', firstResponseMinutes: null, resolutionMinutes: null, priority: 1 },
        'firstResponseMinutes',
      ],
      [{ ...ok, priority: 0 }, 'priority'],
      [{ ...ok, priority: 101 }, 'priority'],
      [{ ...ok, priority: 2.5 }, 'priority'],
      [{ name: 'P', firstResponseMinutes: 30 }, 'priority'],
      [{ ...ok, businessHoursOnly: 'yes' }, 'businessHoursOnly'],
      [{ ...ok, appliesTo: { channels: ['fax'] } }, 'appliesTo.channels.0'],
      [{ ...ok, appliesTo: { channels: 'sms' } }, 'appliesTo.channels'],
      [{ ...ok, appliesTo: { labelIds: [''] } }, 'appliesTo.labelIds.0'],
      [{ ...ok, appliesTo: { labelIds: [7] } }, 'appliesTo.labelIds.0'],
      [{ ...ok, appliesTo: { labelIds: ['lbl_unknown'] } }, 'appliesTo.labelIds'],
      [{ ...ok, appliesTo: { team: 'x' } }, 'appliesTo.team'],
      [{ ...ok, appliesTo: [] }, 'appliesTo'],
      [{ ...ok, id: 'sla_mine' }, 'id'],
      [{ ...ok, workspaceId: w.ws }, 'workspaceId'],
    ];
    for (const [payload, field] of cases) {
      expectField(await api(w.owner, 'POST', url(), payload), field);
    }
    expect(await list()).toEqual([]);
  });

  it('a change: each field validated, none left as a target refused, the rest untouched', async () => {
    await clear();
    const p = await create({ name: 'One target', firstResponseMinutes: 30, priority: 50 });
    const patch = (body: unknown) => api(w.owner, 'PATCH', `${url()}/${p.id}`, body);
    expectField(await patch({ firstResponseMinutes: null }), 'firstResponseMinutes');
    expectField(await patch({ firstResponseMinutes: null, resolutionMinutes: null }), 'firstResponseMinutes');
    expectField(await patch({ name: '' }), 'name');
    expectField(await patch({ priority: null }), 'priority');
    expectField(await patch({ name: null }), 'name');
    expectField(await patch({ resolutionMinutes: 43_201 }), 'resolutionMinutes');
    expectField(await patch({ appliesTo: { labelIds: ['lbl_nope'] } }), 'appliesTo.labelIds');
    expectField(await patch({ colour: 'red' }), 'colour');
    // Moving the target from one clock to another in one change is fine.
    const moved = await patch({ firstResponseMinutes: null, resolutionMinutes: 43_200 });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().data).toMatchObject({ firstResponseMinutes: null, resolutionMinutes: 43_200 });
    expect((await patch({})).json().data).toMatchObject({ name: 'One target', priority: 50 });
  });

  it("another workspace's label in appliesTo is a 400 naming appliesTo.labelIds; its policy a 404", async () => {
    await clear();
    const mine = await newLabel('Mine');
    const theirs = await newLabel('Theirs', w.otherWs, w.outsider);
    const r = await api(w.owner, 'POST', url(), {
      name: 'X',
      firstResponseMinutes: 5,
      priority: 1,
      appliesTo: { labelIds: [mine, theirs] },
    });
    expectField(r, 'appliesTo.labelIds');
    expect(r.json().details['appliesTo.labelIds']).toContain(theirs);
    expect(r.json().details['appliesTo.labelIds']).not.toContain(mine);
    expect(await list()).toEqual([]);

    const foreign = await create(
      { name: 'Theirs', firstResponseMinutes: 5, priority: 1 },
      w.otherWs,
      w.outsider,
    );
    for (const method of ['PATCH', 'DELETE'] as const) {
      const res = await api(
        w.owner,
        method,
        `${url()}/${foreign.id}`,
        method === 'PATCH' ? { name: 'x' } : undefined,
      );
      expect(res.statusCode, res.body).toBe(404);
    }
    expect((await list(w.otherWs, w.outsider)).map((p) => p.name)).toEqual(['Theirs']);
  });

  it('a deleted label stays in the policy (it then matches no conversation) until the policy is changed', async () => {
    await clear();
    const gone = await newLabel('Soon gone');
    const p = await create({
      name: 'L',
      firstResponseMinutes: 5,
      priority: 1,
      appliesTo: { labelIds: [gone] },
    });
    expect((await api(w.owner, 'DELETE', `/api/workspaces/${w.ws}/labels/${gone}`)).statusCode).toBe(204);
    expect((await list())[0]?.appliesTo).toEqual({ labelIds: [gone] });
    const renamed = await api(w.owner, 'PATCH', `${url()}/${p.id}`, { name: 'Renamed' });
    expect(renamed.statusCode).toBe(200);
    expectField(
      await api(w.owner, 'PATCH', `${url()}/${p.id}`, { appliesTo: { labelIds: [gone] } }),
      'appliesTo.labelIds',
    );
  });

  it('hostile names: emoji, RTL and combining marks kept; a lone surrogate or NUL refused; a huge body refused', async () => {
    await clear();
    const name = 'Zoë 李雷 🦜 — مرحبا \u202eevil\u202c e\u0301';
    expect((await create({ name, firstResponseMinutes: 5, priority: 1 })).name).toBe(name);
    expectLoneSurrogate(
      await api(w.owner, 'POST', url(), { name: LONE, firstResponseMinutes: 5, priority: 1 }),
      'name',
    );
    expectField(
      await api(w.owner, 'POST', url(), { name: 'a\u0000b', firstResponseMinutes: 5, priority: 1 }),
      'name',
    );
    const huge = await api(w.owner, 'POST', url(), {
      name: 'x'.repeat(3_000_000),
      firstResponseMinutes: 5,
      priority: 1,
    });
    expect([400, 413]).toContain(huge.statusCode);
    const many = await api(w.owner, 'POST', url(), {
      name: 'Many',
      firstResponseMinutes: 5,
      priority: 1,
      appliesTo: { labelIds: Array.from({ length: 201 }, (_, i) => `lbl_${i}`) },
    });
    expectField(many, 'appliesTo.labelIds');
    expect(await storedAnywhere(t)).toEqual([]);
    expect((await list()).map((p) => p.name)).toEqual([name]);
  });

  it(`a workspace holds ${MAX_SLA_POLICIES}: the next is a 400 naming the limit, even when creations race`, async () => {
    await clear();
    await Promise.all(
      Array.from({ length: MAX_SLA_POLICIES - 4 }, (_, i) =>
        create({ name: `P${i}`, resolutionMinutes: 60, priority: 1 + (i % 100) }),
      ),
    );
    const raced = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        api(w.owner, 'POST', url(), { name: `R${i}`, resolutionMinutes: 60, priority: 1 }),
      ),
    );
    expect(raced.filter((r) => r.statusCode === 201)).toHaveLength(4);
    const refused = raced.find((r) => r.statusCode === 400);
    expect(refused?.json().error).toContain(String(MAX_SLA_POLICIES));
    expect(refused?.json().details).toHaveProperty('name');
    expect(await list()).toHaveLength(MAX_SLA_POLICIES);
    await clear();
  });
});

describe('plans and roles', () => {
  it('a Free workspace reads (200) but every write is a 403 plan_upgrade_required; Pro again writes', async () => {
    const ws = w.freeWs;
    const owner = w.freeOwner;
    await t.ctx.db.insert(slaPolicies).values({
      id: 'sla_fixture_free',
      workspaceId: ws,
      name: 'Kept from Pro',
      firstResponseMinutes: 60,
      priority: 1,
    });
    expect((await list(ws, owner)).map((p) => p.name)).toEqual(['Kept from Pro']);
    const body = { name: 'New', firstResponseMinutes: 5, priority: 1 };
    for (const [method, path, payload] of [
      ['POST', url(ws), body],
      ['PATCH', `${url(ws)}/sla_fixture_free`, { name: 'x' }],
      ['DELETE', `${url(ws)}/sla_fixture_free`, undefined],
    ] as const) {
      const r = await api(owner, method, path, payload);
      expect(r.statusCode, r.body).toBe(403);
      expect(r.json().code).toBe('plan_upgrade_required');
    }
    await setPlan(t, ws, 'enterprise');
    expect((await api(owner, 'POST', url(ws), body)).statusCode).toBe(201);
    await setPlan(t, ws, 'free');
  });

  it('members and guests read only (403 forbidden:api on writes)', async () => {
    await clear();
    const p = await create({ name: 'P', firstResponseMinutes: 5, priority: 1 });
    for (const user of [w.member, w.guest]) {
      expect(
        (await api(user, 'POST', url(), { name: 'N', firstResponseMinutes: 5, priority: 1 })).statusCode,
      ).toBe(403);
      expect((await api(user, 'PATCH', `${url()}/${p.id}`, { name: 'N' })).statusCode).toBe(403);
      expect((await api(user, 'DELETE', `${url()}/${p.id}`)).statusCode).toBe(403);
    }
    expect(await list(w.ws, w.guest)).toHaveLength(1);
  });
});
