import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contacts, conversations, tickets } from '../../src/db/schema/index.ts';
import { createTicket } from '../../src/features/tickets/tickets.service.ts';
import { newId } from '../../src/lib/ids.ts';
import { createAssistant } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { expectNothingStored } from '../support/stored-rows.ts';
import { eventsOf } from '../support/webhooks.ts';
import { createWorld, insertApiKey, type World } from '../support/world.ts';

/** docs/contacts-and-tickets.md "Tickets" and "Status": tickets on the API-key surface and the workspace paths. */
let t: TestApp;
let w: World;
let key: Record<string, string>;
let contactId: string;
let foreignContactId: string;
let conversationId: string;
let foreignConversationId: string;

beforeAll(async () => {
  t = await createTestApp();
  w = await createWorld(t);
  key = await insertApiKey(t, w.ws, ['tickets:write']);
  contactId = newId('ct');
  foreignContactId = newId('ct');
  await t.ctx.db.insert(contacts).values([
    { id: contactId, workspaceId: w.ws, name: 'Ada' },
    { id: foreignContactId, workspaceId: w.otherWs, name: 'Theirs' },
  ]);
  conversationId = newId('conv');
  foreignConversationId = newId('conv');
  await t.ctx.db.insert(conversations).values([
    {
      id: conversationId,
      workspaceId: w.ws,
      assistantId: await createAssistant(t, w.owner, w.ws),
      channel: 'widget',
    },
    {
      id: foreignConversationId,
      workspaceId: w.otherWs,
      assistantId: await createAssistant(t, w.outsider, w.otherWs),
      channel: 'widget',
    },
  ]);
});
afterAll(() => t.close());

const v1 = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, headers = key) =>
  t.request({ method, url: `/api/v1/tickets${url}`, headers, ...(payload !== undefined && { payload }) });
const dash = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, headers = w.member.headers) =>
  t.request({
    method,
    url: `/api/workspaces/${w.ws}/tickets${url}`,
    headers,
    ...(payload !== undefined && { payload }),
  });

async function created(payload: Record<string, unknown> = {}) {
  const res = await v1('POST', '', { subject: 'Kettle leaks', ...payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
}

const patch = (id: string, payload: Record<string, unknown>) => v1('PATCH', `/${id}`, payload);

describe('POST /api/v1/tickets', () => {
  it('201 with defaults: open, medium, empty description; ticket.created in the same transaction', async () => {
    const res = await v1('POST', '', { subject: '  Kettle leaks  ' });
    expect(res.statusCode, res.body).toBe(201);
    const data = res.json().data;
    expect(data).toEqual({
      id: expect.stringMatching(/^tkt_/),
      subject: 'Kettle leaks',
      description: '',
      status: 'open',
      priority: 'medium',
      contactId: null,
      conversationId: null,
      assigneeId: null,
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: data.createdAt,
      resolvedAt: null,
    });
    const [event] = (await eventsOf(t, w.ws, 'ticket.created')).filter((e) => e.data.id === data.id);
    expect(event?.data).toEqual(data);
  });

  it('links a contact, a conversation and an assignee of the workspace', async () => {
    const data = await created({
      description: 'Since Tuesday',
      priority: 'urgent',
      contactId,
      conversationId,
      assigneeId: w.member.id,
    });
    expect(data).toMatchObject({
      description: 'Since Tuesday',
      priority: 'urgent',
      contactId,
      conversationId,
      assigneeId: w.member.id,
    });
  });

  it('400 for a guest assignee, as the inbox (decision 0018: assignees answer); nothing stored', async () => {
    const before = (await v1('GET', '?limit=100')).json().total;
    const res = await v1('POST', '', { subject: 'For a guest', assigneeId: w.guest.id });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().details).toEqual({ assigneeId: 'Guests cannot be assigned' });
    expect((await v1('GET', '?limit=100')).json().total).toBe(before);
    const tk = await created({});
    const moved = await patch(tk.id, { assigneeId: w.guest.id });
    expect(moved.statusCode, moved.body).toBe(400);
    expect(moved.json().details).toEqual({ assigneeId: 'Guests cannot be assigned' });
    expect((await v1('GET', `/${tk.id}`)).json().data.assigneeId).toBeNull();
  });

  it('400 for a contact, conversation or assignee outside the workspace (or unknown)', async () => {
    const res = await v1('POST', '', {
      subject: 's',
      contactId: foreignContactId,
      conversationId: foreignConversationId,
      assigneeId: w.outsider.id,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'bad_request:api' });
    expect(Object.keys(res.json().details).sort()).toEqual(['assigneeId', 'contactId', 'conversationId']);
    const unknown = await v1('POST', '', { subject: 's', contactId: 'ct_nope', assigneeId: 'usr_nope' });
    expect(Object.keys(unknown.json().details).sort()).toEqual(['assigneeId', 'contactId']);
  });

  it('400 for a missing subject, wrong types, unknown values and fields, status at creation, oversize', async () => {
    const cases: Array<[object, string[]]> = [
      [{}, ['subject']],
      [{ subject: '' }, ['subject']],
      [{ subject: '   ' }, ['subject']],
      [{ subject: 5 }, ['subject']],
      [{ subject: 's', priority: 'critical' }, ['priority']],
      [{ subject: 's', status: 'pending' }, ['status']],
      [{ subject: 's', resolvedAt: '2020-01-01T00:00:00.000Z', id: 'tkt_x' }, ['id', 'resolvedAt']],
      [{ subject: 'x'.repeat(301) }, ['subject']],
      [{ subject: 's', description: 'x'.repeat(20_001) }, ['description']],
      [{ subject: 's', contactId: 7 }, ['contactId']],
      [{ subject: 's', assigneeId: 'x'.repeat(101) }, ['assigneeId']],
      [{ subject: 'nul\u0000' }, ['subject']],
    ];
    for (const [payload, fields] of cases) {
      const res = await v1('POST', '', payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(Object.keys(res.json().details ?? {}).sort(), JSON.stringify(payload).slice(0, 80)).toEqual(
        fields,
      );
    }
    expect((await v1('POST', '', [])).statusCode).toBe(400);
    expect(
      (await v1('POST', '', { subject: 's', description: 'y'.repeat(3 * 1024 * 1024) })).statusCode,
    ).toBe(413);
    const uni = await created({ subject: 'Ünïcødé 🚀 日本', description: '‮ right-to-left' });
    expect(uni.subject).toBe('Ünïcødé 🚀 日本');
  });
});

describe('PATCH /api/v1/tickets/{id}: status rules', () => {
  it('resolved sets resolvedAt and records ticket.updated then ticket.resolved; reopening clears it', async () => {
    const tk = await created();
    const res = await patch(tk.id, { status: 'resolved' });
    expect(res.statusCode, res.body).toBe(200);
    const resolved = res.json().data;
    expect(resolved.status).toBe('resolved');
    expect(resolved.resolvedAt).toBe(resolved.updatedAt);
    const [updated] = (await eventsOf(t, w.ws, 'ticket.updated')).filter((e) => e.data.id === tk.id);
    const [done] = (await eventsOf(t, w.ws, 'ticket.resolved')).filter((e) => e.data.id === tk.id);
    expect(updated?.data).toEqual({ ...resolved, previous: { status: 'open' } });
    expect(done?.data).toEqual(resolved);
    expect(updated && done && updated.id < done.id).toBe(true);

    const reopened = (await patch(tk.id, { status: 'open' })).json().data;
    expect(reopened).toMatchObject({ status: 'open', resolvedAt: null });
    expect((await patch(tk.id, { status: 'pending' })).json().data.resolvedAt).toBeNull();
    // Only the one resolution was announced.
    expect((await eventsOf(t, w.ws, 'ticket.resolved')).filter((e) => e.data.id === tk.id)).toHaveLength(1);
  });

  it('priority, subject, assignment and contact changes record ticket.updated with the previous values', async () => {
    const tk = await created({ contactId });
    const res = await patch(tk.id, {
      priority: 'high',
      assigneeId: w.member.id,
      contactId: null,
      subject: 'New',
    });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({
      priority: 'high',
      assigneeId: w.member.id,
      contactId: null,
      subject: 'New',
      status: 'open',
    });
    const [event] = (await eventsOf(t, w.ws, 'ticket.updated')).filter((e) => e.data.id === tk.id);
    expect(event?.data.previous).toEqual({
      priority: 'medium',
      assigneeId: null,
      contactId,
      subject: 'Kettle leaks',
    });
    const unassigned = (await patch(tk.id, { assigneeId: null })).json().data;
    expect(unassigned.assigneeId).toBeNull();
  });

  it('a PATCH with the current values changes nothing and records nothing', async () => {
    const tk = await created();
    const res = await patch(tk.id, { status: 'open', priority: 'medium' });
    expect(res.json().data).toEqual(tk);
    expect((await v1('PATCH', `/${tk.id}`, {})).json().data).toEqual(tk);
    expect((await eventsOf(t, w.ws, 'ticket.updated')).filter((e) => e.data.id === tk.id)).toHaveLength(0);
  });

  it('closed is final: any change is a 409, the same values are not a change', async () => {
    const tk = await created();
    await patch(tk.id, { status: 'resolved' });
    const closed = (await patch(tk.id, { status: 'closed' })).json().data;
    expect(closed.status).toBe('closed');
    expect(closed.resolvedAt).not.toBeNull();
    for (const change of [
      { status: 'open' },
      { status: 'resolved' },
      { priority: 'low' },
      { subject: 'x' },
      { assigneeId: w.owner.id },
    ]) {
      const res = await patch(tk.id, change);
      expect(res.statusCode, JSON.stringify(change)).toBe(409);
      expect(res.json().code).toBe('conflict:api');
    }
    expect((await patch(tk.id, { status: 'closed' })).statusCode).toBe(200);
    expect((await v1('GET', `/${tk.id}`)).json().data).toEqual(closed);
    // Validation comes before the conflict.
    expect((await patch(tk.id, { status: 'done' })).statusCode).toBe(400);
    // Closing straight from open never sets resolvedAt.
    const direct = await created();
    expect((await patch(direct.id, { status: 'closed' })).json().data).toMatchObject({
      status: 'closed',
      resolvedAt: null,
    });
  });

  it('400 for references outside the workspace, bad values, read-only and unknown fields; 404 for unknown and foreign ids', async () => {
    const tk = await created();
    const refs = await patch(tk.id, { contactId: foreignContactId, assigneeId: w.outsider.id });
    expect(refs.statusCode).toBe(400);
    expect(Object.keys(refs.json().details).sort()).toEqual(['assigneeId', 'contactId']);
    for (const payload of [
      { status: 'done' },
      { priority: 1 },
      { conversationId },
      { resolvedAt: null },
      { createdAt: 'x' },
      { foo: 1 },
    ]) {
      expect((await patch(tk.id, payload)).statusCode, JSON.stringify(payload)).toBe(400);
    }
    const other = await insertApiKey(t, w.otherWs, ['tickets:write']);
    expect((await v1('GET', `/${tk.id}`, undefined, other)).statusCode).toBe(404);
    expect((await v1('PATCH', `/${tk.id}`, { status: 'closed' }, other)).statusCode).toBe(404);
    expect((await v1('GET', '/tkt_unknown')).json().code).toBe('not_found:api');
    expect((await v1('PATCH', '/tkt_unknown', { status: 'nope' })).statusCode).toBe(404);
    expect((await v1('GET', `/${tk.id}`)).json().data.status).toBe('open');
  });
});

describe('GET /api/v1/tickets', () => {
  it('an offset page, newest first, filtered by status, priority, contact, conversation and assignee', async () => {
    const { ws } = await createWorld(t);
    const k = await insertApiKey(t, ws, ['tickets:write']);
    const c = newId('ct');
    await t.ctx.db.insert(contacts).values({ id: c, workspaceId: ws, name: 'C' });
    const make = async (payload: Record<string, unknown>) => {
      const res = await v1('POST', '', { subject: 's', ...payload }, k);
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data.id as string;
    };
    const a = await make({ priority: 'low' });
    const b = await make({ priority: 'high', contactId: c });
    const d = await make({ priority: 'high' });
    await v1('PATCH', `/${d}`, { status: 'pending' }, k);
    const ids = async (q: string) => {
      const res = await v1('GET', q, undefined, k);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.map((x: { id: string }) => x.id);
    };
    expect(await ids('')).toEqual([d, b, a]);
    expect((await v1('GET', '?limit=1&offset=1', undefined, k)).json()).toMatchObject({
      total: 3,
      limit: 1,
      offset: 1,
      data: [{ id: b }],
    });
    expect(await ids('?priority=high')).toEqual([d, b]);
    expect(await ids('?status=pending')).toEqual([d]);
    expect(await ids('?status=open&priority=high')).toEqual([b]);
    expect(await ids(`?contactId=${c}`)).toEqual([b]);
    expect(await ids('?contactId=ct_nobody')).toEqual([]);
    expect(await ids('?unassigned=true')).toEqual([d, b, a]);
    for (const q of [
      'status=done',
      'priority=1',
      'limit=0',
      'limit=101',
      'offset=-1',
      'unassigned=yes',
      'foo=1',
    ]) {
      expect((await v1('GET', `?${q}`, undefined, k)).statusCode, q).toBe(400);
    }
  });
});

describe('the workspace paths (dashboard)', () => {
  it('members create, change and filter by assignee; guests read only', async () => {
    const res = await dash('POST', '', {
      subject: 'From the inbox',
      assigneeId: w.member.id,
      conversationId,
    });
    expect(res.statusCode, res.body).toBe(201);
    const tk = res.json().data;
    const mine = (
      await dash(
        'GET',
        `?assigneeId=${w.member.id}&conversationId=${conversationId}`,
        undefined,
        w.guest.headers,
      )
    ).json();
    expect(mine.data.map((x: { id: string }) => x.id)).toContain(tk.id);
    expect((await dash('GET', `/${tk.id}`, undefined, w.guest.headers)).json().data).toEqual(tk);
    expect((await dash('PATCH', `/${tk.id}`, { status: 'resolved' }, w.guest.headers)).statusCode).toBe(403);
    expect((await dash('POST', '', { subject: 'x' }, w.guest.headers)).statusCode).toBe(403);
    const resolved = await dash('PATCH', `/${tk.id}`, { status: 'resolved' });
    expect(resolved.json().data.status).toBe('resolved');
    expect((await dash('PATCH', `/${tk.id}`, { status: 'closed' })).statusCode).toBe(200);
    expect((await dash('PATCH', `/${tk.id}`, { status: 'open' })).statusCode).toBe(409);
    // No delete: a ticket is closed instead.
    const del = await t.request({
      method: 'DELETE',
      url: `/api/workspaces/${w.ws}/tickets/${tk.id}`,
      headers: w.owner.headers,
    });
    expect(del.statusCode).toBe(404);
  });
});

describe('createTicket (the service the inbox calls)', () => {
  it('inside a caller’s transaction: a refusal rolls back only its savepoint', async () => {
    const result = await t.ctx.db.transaction(async (tx) => {
      const row = await createTicket(
        tx,
        { workspaceId: w.ws, plan: 'pro' },
        { subject: 'From a conversation', conversationId, contactId },
      );
      const refused = await createTicket(
        tx,
        { workspaceId: w.ws, plan: 'pro' },
        { subject: 'x', contactId: foreignContactId },
      ).catch((e) => e);
      return { row, refused };
    });
    expect(result.refused.code).toBe('bad_request:api');
    expect(result.row).toMatchObject({ status: 'open', priority: 'medium', conversationId, contactId });
    const [stored] = await t.ctx.db.select().from(tickets).where(eq(tickets.id, result.row.id));
    expect(stored?.subject).toBe('From a conversation');
    expect((await eventsOf(t, w.ws, 'ticket.created')).some((e) => e.data.id === result.row.id)).toBe(true);
  });
});

describe('hostile ids and queries', () => {
  it('odd ids are a 404 (or a 400 for a NUL), never a 500; a PATCH stores nothing', async () => {
    for (const id of ['x'.repeat(101), '%F0%9F%9A%80', "tkt_1'%20or%20'1'='1"]) {
      expect((await v1('GET', `/${id}`)).statusCode, id).toBe(404);
      const patch = await expectNothingStored(t, () => dash('PATCH', `/${id}`, { status: 'closed' }));
      expect(patch.statusCode, id).toBe(404);
    }
    expect((await v1('GET', '/tkt%00')).statusCode).toBe(400);
    expect((await v1('GET', '?contactId=%00')).statusCode).toBe(400);
    expect((await v1('GET', '?assigneeId=%F0%9F%9A%80')).json()).toMatchObject({ total: 0 });
  });
});
