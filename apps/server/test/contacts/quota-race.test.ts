import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contacts, tickets } from '../../src/db/schema/index.ts';
import { createTicket } from '../../src/features/tickets/tickets.service.ts';
import { newId } from '../../src/lib/ids.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { createWorld, insertApiKey, setPlan, type World } from '../support/world.ts';
import { fromSite, initWidget, NO_RATE_LIMIT, sessionUrl, widgetAssistant } from '../widget/helpers.ts';

/**
 * docs/contacts-and-tickets.md "Quotas under concurrency": the plan quotas hold exactly when
 * creations race over every path (API key, dashboard, widget lead, widget ticket, the service the
 * inbox calls). Meaningful on PostgreSQL (a pool of connections); PGlite runs it serialised.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(NO_RATE_LIMIT);
});
afterAll(() => t.close());

const countOf = async (table: typeof contacts | typeof tickets, workspaceId: string) => {
  const [row] = await t.ctx.db.select({ n: count() }).from(table).where(eq(table.workspaceId, workspaceId));
  return row?.n ?? 0;
};

async function fill(table: 'contacts' | 'tickets', workspaceId: string, n: number) {
  for (let i = 0; i < n; i += 1000) {
    const size = Math.min(1000, n - i);
    if (table === 'contacts') {
      await t.ctx.db
        .insert(contacts)
        .values(
          Array.from({ length: size }, (_, j) => ({ id: newId('ct'), workspaceId, name: `Filler ${i + j}` })),
        );
    } else {
      await t.ctx.db.insert(tickets).values(
        Array.from({ length: size }, (_, j) => ({
          id: newId('tkt'),
          workspaceId,
          subject: `Filler ${i + j}`,
        })),
      );
    }
  }
}

const limitReached = (resource: string, limit: number) => ({
  code: 'plan_limit_reached',
  details: { resource, limit },
});

describe('contacts quota', () => {
  let w: World;
  beforeAll(async () => {
    w = await createWorld(t);
  });

  it('Free: 100 on the dashboard; the 101st is a 403 after validation and before the conflict; a delete frees a place', async () => {
    await fill('contacts', w.freeWs, 99);
    const post = (payload: Record<string, unknown>) =>
      t.request({
        method: 'POST',
        url: `/api/workspaces/${w.freeWs}/contacts`,
        headers: w.freeOwner.headers,
        payload,
      });
    const last = await post({ email: 'last@example.com' });
    expect(last.statusCode, last.body).toBe(201);
    const over = await post({ name: 'One too many' });
    expect(over.statusCode).toBe(403);
    expect(over.json()).toMatchObject(limitReached('contacts', 100));
    expect((await post({ name: 5 })).statusCode).toBe(400);
    expect((await post({ email: 'LAST@example.com' })).statusCode).toBe(403);
    // Changes are never refused by the quota.
    const id = last.json().data.id;
    const change = await t.request({
      method: 'PATCH',
      url: `/api/workspaces/${w.freeWs}/contacts/${id}`,
      headers: w.freeOwner.headers,
      payload: { name: 'Still fine' },
    });
    expect(change.statusCode).toBe(200);
    const del = await t.request({
      method: 'DELETE',
      url: `/api/workspaces/${w.freeWs}/contacts/${id}`,
      headers: w.freeOwner.headers,
    });
    expect(del.statusCode).toBe(204);
    expect((await post({ name: 'Fits again' })).statusCode).toBe(201);
    expect(await countOf(contacts, w.freeWs)).toBe(100);
  });

  it('Pro: 5,000 through the API key; Enterprise: unlimited', async () => {
    const { ws } = await createWorld(t);
    const key = await insertApiKey(t, ws, ['contacts:write']);
    await fill('contacts', ws, 4999);
    const post = () =>
      t.request({ method: 'POST', url: '/api/v1/contacts', headers: key, payload: { name: 'n' } });
    expect((await post()).statusCode).toBe(201);
    const over = await post();
    expect(over.statusCode).toBe(403);
    expect(over.json()).toMatchObject(limitReached('contacts', 5000));
    await setPlan(t, ws, 'enterprise');
    expect((await post()).statusCode).toBe(201);
    expect(await countOf(contacts, ws)).toBe(5001);
  });

  it('20 creations racing over the API, the dashboard, widget leads and widget tickets with 3 places left: exactly 3', async () => {
    const { ws, owner } = await createWorld(t);
    const key = await insertApiKey(t, ws, ['contacts:write']);
    const asst = await widgetAssistant(t, owner, ws, { leadFormEnabled: true, leadFormFields: ['email'] });
    await fill('contacts', ws, 4997);
    const sessions = await Promise.all(Array.from({ length: 10 }, () => initWidget(t, asst)));
    const tag = `race-${Date.now()}`;
    const attempts = [
      ...Array.from({ length: 5 }, (_, i) =>
        t.request({
          method: 'POST',
          url: '/api/v1/contacts',
          headers: key,
          payload: { email: `${tag}-v1-${i}@x.com` },
        }),
      ),
      ...Array.from({ length: 5 }, (_, i) =>
        t.request({
          method: 'POST',
          url: `/api/workspaces/${ws}/contacts`,
          headers: owner.headers,
          payload: { email: `${tag}-dash-${i}@x.com` },
        }),
      ),
      ...sessions.slice(0, 5).map((s, i) =>
        fromSite(t, {
          method: 'POST',
          url: sessionUrl(asst, s, 'lead'),
          token: s.token,
          payload: { email: `${tag}-lead-${i}@x.com` },
        }),
      ),
      ...sessions.slice(5).map((s, i) =>
        fromSite(t, {
          method: 'POST',
          url: '/api/widget/tickets/create',
          token: s.token,
          payload: {
            assistantId: asst,
            sessionId: s.sessionId,
            subject: 's',
            description: 'd',
            email: `${tag}-tkt-${i}@x.com`,
          },
        }),
      ),
    ];
    const statuses = (await Promise.all(attempts)).map((r) => r.statusCode);
    expect(
      statuses.filter((s) => s === 201),
      JSON.stringify(statuses),
    ).toHaveLength(3);
    expect(
      statuses.filter((s) => s === 403),
      JSON.stringify(statuses),
    ).toHaveLength(17);
    expect(await countOf(contacts, ws)).toBe(5000);
  });

  it('two creations of one email racing: one contact, the other a 409', async () => {
    const { ws } = await createWorld(t);
    const key = await insertApiKey(t, ws, ['contacts:write']);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        t.request({
          method: 'POST',
          url: '/api/v1/contacts',
          headers: key,
          payload: { email: i % 2 ? 'Same@Example.com' : 'same@example.com' },
        }),
      ),
    );
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
  });
});

describe('tickets quota', () => {
  it('Free: 50 on the dashboard, then 403 plan_limit_reached', async () => {
    const w = await createWorld(t);
    await fill('tickets', w.freeWs, 49);
    const post = () =>
      t.request({
        method: 'POST',
        url: `/api/workspaces/${w.freeWs}/tickets`,
        headers: w.freeOwner.headers,
        payload: { subject: 's' },
      });
    expect((await post()).statusCode).toBe(201);
    const over = await post();
    expect(over.statusCode).toBe(403);
    expect(over.json()).toMatchObject(limitReached('tickets', 50));
    expect(await countOf(tickets, w.freeWs)).toBe(50);
  });

  it('20 creations racing over the API, the dashboard, widget tickets and the service with 3 of 1,000 left: exactly 3', async () => {
    const { ws, owner } = await createWorld(t);
    const key = await insertApiKey(t, ws, ['tickets:write']);
    const asst = await widgetAssistant(t, owner, ws);
    await fill('tickets', ws, 997);
    const sessions = await Promise.all(Array.from({ length: 5 }, () => initWidget(t, asst)));
    const refused = (e: { code?: string }) => ({ statusCode: e.code === 'plan_limit_reached' ? 403 : 500 });
    const attempts: Array<Promise<{ statusCode: number }>> = [
      ...Array.from({ length: 5 }, () =>
        t.request({ method: 'POST', url: '/api/v1/tickets', headers: key, payload: { subject: 'v1' } }),
      ),
      ...Array.from({ length: 5 }, () =>
        t.request({
          method: 'POST',
          url: `/api/workspaces/${ws}/tickets`,
          headers: owner.headers,
          payload: { subject: 'd' },
        }),
      ),
      ...sessions.map((s) =>
        fromSite(t, {
          method: 'POST',
          url: '/api/widget/tickets/create',
          token: s.token,
          payload: { assistantId: asst, sessionId: s.sessionId, subject: 'w', description: 'd' },
        }),
      ),
      ...Array.from({ length: 5 }, () =>
        createTicket(t.ctx, { workspaceId: ws, plan: 'pro' }, { subject: 'inbox' }).then(
          () => ({ statusCode: 201 }),
          refused,
        ),
      ),
    ];
    const statuses = (await Promise.all(attempts)).map((r) => r.statusCode);
    expect(
      statuses.filter((s) => s === 201),
      JSON.stringify(statuses),
    ).toHaveLength(3);
    expect(
      statuses.filter((s) => s === 403),
      JSON.stringify(statuses),
    ).toHaveLength(17);
    expect(await countOf(tickets, ws)).toBe(1000);
  });
});
