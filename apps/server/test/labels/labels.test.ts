import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events } from '../../src/db/schema/index.ts';
import { conversationOfSession } from '../inbox/helpers.ts';
import type { TestUser } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { createWorld, insertApiKey, type World } from '../support/world.ts';
import { initWidget, NO_RATE_LIMIT, widgetAssistant, widgetChat } from '../widget/helpers.ts';

/**
 * docs/labels.md: the workspace's labels (fields, the name's uniqueness in any case, the limit),
 * the sets on conversations and contacts (another workspace's label refused, events), a rename
 * and a deletion reaching every set, and the labelId filters.
 */
let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await createTestApp(NO_RATE_LIMIT);
  w = await createWorld(t);
});
afterAll(() => t.close());

const api = (
  user: TestUser,
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
) =>
  t.request({
    method,
    url,
    headers: user.headers,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
const labelsUrl = (ws = w.ws) => `/api/workspaces/${ws}/labels`;
const newLabel = async (name: string, color = '#AA0011', ws = w.ws, user = w.owner) => {
  const r = await api(user, 'POST', labelsUrl(ws), { name, color });
  expect(r.statusCode, r.body).toBe(201);
  return r.json().data as { id: string; name: string; color: string };
};
async function widgetConversation() {
  const assistantId = await widgetAssistant(t, w.owner, w.ws);
  const s = await initWidget(t, assistantId);
  await widgetChat(t, assistantId, s, 'My invoice is wrong');
  return conversationOfSession(t, s);
}
const conversationLabels = (id: string, labelIds: string[], user = w.member) =>
  api(user, 'PUT', `/api/inbox/conversations/${id}/labels?workspaceId=${w.ws}`, { labelIds });
const inboxIds = async (query: string) => {
  const r = await api(w.owner, 'GET', `/api/inbox/conversations?workspaceId=${w.ws}&${query}`);
  expect(r.statusCode, r.body).toBe(200);
  return (r.json().data as Array<{ id: string }>).map((c) => c.id);
};

describe('labels', () => {
  it('create (color in lower case), list by name, change, delete; a name taken in any case is a 409', async () => {
    const billing = await newLabel('Billing', '#AA0011');
    expect(billing).toMatchObject({ name: 'Billing', color: '#aa0011', description: '' });
    expect(billing.id).toMatch(/^lbl_/);
    await newLabel('urgent ärger 😠');
    const dup = await api(w.owner, 'POST', labelsUrl(), { name: 'BILLING', color: '#000000' });
    expect(dup.statusCode).toBe(409);
    const listed = await api(w.guest, 'GET', labelsUrl());
    expect(listed.json().data.map((l: { name: string }) => l.name)).toEqual(['Billing', 'urgent ärger 😠']);
    const changed = await api(w.admin, 'PATCH', `${labelsUrl()}/${billing.id}`, { description: 'Invoices' });
    expect(changed.json().data).toMatchObject({ name: 'Billing', description: 'Invoices' });
    expect((await api(w.member, 'PATCH', `${labelsUrl()}/${billing.id}`, { name: 'x' })).statusCode).toBe(
      403,
    );
    expect((await api(w.owner, 'DELETE', `${labelsUrl()}/${billing.id}`)).statusCode).toBe(204);
    expect((await api(w.owner, 'PATCH', `${labelsUrl()}/${billing.id}`, { name: 'x' })).statusCode).toBe(404);
  });

  it('refuses bad colors, empty or long names, unknown fields and wrong types, naming the field', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: 'A', color: 'red' }, 'color'],
      [{ name: 'A', color: '#12345' }, 'color'],
      [{ name: '', color: '#123456' }, 'name'],
      [{ name: 'x'.repeat(51), color: '#123456' }, 'name'],
      [{ name: 'A', color: '#123456', description: 'd'.repeat(201) }, 'description'],
      [{ name: 7, color: '#123456' }, 'name'],
      [{ name: 'A', color: '#123456', extra: 1 }, 'extra'],
    ];
    for (const [payload, field] of cases) {
      const r = await api(w.owner, 'POST', labelsUrl(), payload);
      expect(r.statusCode, JSON.stringify(payload)).toBe(400);
      expect(Object.keys(r.json().details ?? {}).join(','), JSON.stringify(payload)).toContain(field);
    }
  });

  it('a workspace holds 200: the 201st is a 400 naming the limit, even when creations race', async () => {
    const ws = w.freeWs;
    const owner = w.freeOwner;
    await Promise.all(
      Array.from({ length: 195 }, (_, i) =>
        api(owner, 'POST', labelsUrl(ws), { name: `L${i}`, color: '#000000' }),
      ),
    );
    const raced = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        api(owner, 'POST', labelsUrl(ws), { name: `R${i}`, color: '#000000' }),
      ),
    );
    expect(raced.filter((r) => r.statusCode === 201)).toHaveLength(5);
    const refused = raced.find((r) => r.statusCode === 400);
    expect(refused?.json().error).toContain('200');
    expect((await api(owner, 'GET', labelsUrl(ws))).json().data).toHaveLength(200);
  });
});

describe('sets', () => {
  it("a conversation's set: replaced in the given order, carried by its shapes and conversation.updated; filterable", async () => {
    const vip = await newLabel('VIP', '#00AA00');
    const bug = await newLabel('Bug');
    const id = await widgetConversation();
    const other = await widgetConversation();
    const r = await conversationLabels(id, [bug.id, vip.id, bug.id]);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().data).toEqual([
      { id: bug.id, name: 'Bug', color: '#aa0011' },
      { id: vip.id, name: 'VIP', color: '#00aa00' },
    ]);
    const one = await api(w.owner, 'GET', `/api/inbox/conversations/${id}?workspaceId=${w.ws}`);
    expect(one.json().data.labels.map((l: { id: string }) => l.id)).toEqual([bug.id, vip.id]);
    const recorded = await t.ctx.db
      .select()
      .from(events)
      .where(and(eq(events.workspaceId, w.ws), eq(events.type, 'conversation.updated')));
    const last = recorded.find((e) => (e.data as { change?: string; id?: string }).change === 'labels');
    expect(last?.data).toMatchObject({ id, change: 'labels', changedBy: { type: 'user', id: w.member.id } });
    expect(await inboxIds(`labelId=${vip.id}`)).toEqual([id]);
    expect(await inboxIds(`labelId=${vip.id}&status=open`)).toEqual([id]);
    expect(await inboxIds('')).toContain(other);

    // Renamed: every set shows the new name; deleted: it leaves every set.
    await api(w.owner, 'PATCH', `${labelsUrl()}/${vip.id}`, { name: 'Very important', color: '#0000FF' });
    const renamed = await api(w.owner, 'GET', `/api/inbox/conversations/${id}?workspaceId=${w.ws}`);
    expect(renamed.json().data.labels).toEqual([
      { id: bug.id, name: 'Bug', color: '#aa0011' },
      { id: vip.id, name: 'Very important', color: '#0000ff' },
    ]);
    await api(w.owner, 'DELETE', `${labelsUrl()}/${bug.id}`);
    const after = await api(w.owner, 'GET', `/api/inbox/conversations/${id}?workspaceId=${w.ws}`);
    expect(after.json().data.labels.map((l: { id: string }) => l.id)).toEqual([vip.id]);
    expect(await inboxIds(`labelId=${bug.id}`)).toEqual([]);
    expect((await conversationLabels(id, [])).json().data).toEqual([]);
  });

  it("another workspace's label, an unknown one or a guest: refused, nothing applied", async () => {
    const mine = await newLabel('Mine');
    const theirs = await newLabel('Theirs', '#123456', w.otherWs, w.outsider);
    const id = await widgetConversation();
    await conversationLabels(id, [mine.id]);
    for (const ids of [[theirs.id], [mine.id, theirs.id], ['lbl_nope']]) {
      const r = await conversationLabels(id, ids);
      expect(r.statusCode, JSON.stringify(ids)).toBe(400);
      expect(r.json().details).toHaveProperty('labelIds');
    }
    expect((await conversationLabels(id, [mine.id], w.guest)).statusCode).toBe(403);
    const bad = await api(w.member, 'PUT', `/api/inbox/conversations/${id}/labels?workspaceId=${w.ws}`, {
      labelIds: 'lbl_x',
    });
    expect(bad.statusCode).toBe(400);
    const one = await api(w.owner, 'GET', `/api/inbox/conversations/${id}?workspaceId=${w.ws}`);
    expect(one.json().data.labels.map((l: { id: string }) => l.id)).toEqual([mine.id]);
  });

  it("a contact's set: contact.updated, the contacts list and /api/v1/contacts filter by it", async () => {
    const lead = await newLabel('Lead');
    const a = (
      await api(w.member, 'POST', `/api/workspaces/${w.ws}/contacts`, {
        name: 'Ana',
        email: 'ana-l@example.com',
      })
    ).json().data;
    const b = (
      await api(w.member, 'POST', `/api/workspaces/${w.ws}/contacts`, {
        name: 'Bo',
        email: 'bo-l@example.com',
      })
    ).json().data;
    const set = await api(w.member, 'PUT', `/api/workspaces/${w.ws}/contacts/${a.id}/labels`, {
      labelIds: [lead.id],
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().data).toEqual([{ id: lead.id, name: 'Lead', color: '#aa0011' }]);
    const listed = await api(w.guest, 'GET', `/api/workspaces/${w.ws}/contacts?labelId=${lead.id}`);
    expect(listed.json().data.map((c: { id: string }) => c.id)).toEqual([a.id]);
    const key = await insertApiKey(t, w.ws, ['contacts:write']);
    const v1 = await t.request({ method: 'GET', url: `/api/v1/contacts?labelId=${lead.id}`, headers: key });
    expect(v1.statusCode, v1.body).toBe(200);
    expect(v1.json().data.map((c: { id: string; labels: unknown[] }) => [c.id, c.labels.length])).toEqual([
      [a.id, 1],
    ]);
    const updated = await t.ctx.db
      .select()
      .from(events)
      .where(and(eq(events.workspaceId, w.ws), eq(events.type, 'contact.updated')));
    expect(updated.some((e) => (e.data as { id: string; labels: unknown[] }).id === a.id)).toBe(true);
    const foreign = await newLabel('Foreign', '#123456', w.otherWs, w.outsider);
    const refused = await api(w.member, 'PUT', `/api/workspaces/${w.ws}/contacts/${b.id}/labels`, {
      labelIds: [foreign.id],
    });
    expect(refused.statusCode).toBe(400);
  });
});
