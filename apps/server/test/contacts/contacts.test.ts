import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contacts, tickets } from '../../src/db/schema/index.ts';
import { newId } from '../../src/lib/ids.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { expectNothingStored } from '../support/stored-rows.ts';
import { eventsOf } from '../support/webhooks.ts';
import { createWorld, insertApiKey, type World } from '../support/world.ts';

/** docs/contacts-and-tickets.md "Endpoints": contacts on the API-key surface and the workspace paths. */
let t: TestApp;
let w: World;
let key: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  w = await createWorld(t);
  key = await insertApiKey(t, w.ws, ['contacts:write']);
});
afterAll(() => t.close());

let seq = 0;
const email = (tag = 'c') => `${tag}-${++seq}@example.com`;

const v1 = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, headers = key) =>
  t.request({ method, url: `/api/v1/contacts${url}`, headers, ...(payload !== undefined && { payload }) });
const dash = (
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
  headers = w.member.headers,
  ws = w.ws,
) =>
  t.request({
    method,
    url: `/api/workspaces/${ws}/contacts${url}`,
    headers,
    ...(payload !== undefined && { payload }),
  });

async function created(payload: Record<string, unknown>) {
  const res = await v1('POST', '', payload);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
}

describe('POST /api/v1/contacts', () => {
  it('201 with the contact: phone normalised to E.164, source api, the event in the same transaction', async () => {
    const address = email('Ada');
    const res = await v1('POST', '', {
      name: '  Ada Lovelace ',
      email: address,
      phone: '+44 (20) 7946-0958',
      customFields: { plan: 'gold' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const data = res.json().data;
    expect(data).toEqual({
      id: expect.stringMatching(/^ct_/),
      name: 'Ada Lovelace',
      email: address,
      phone: '+442079460958',
      customFields: { plan: 'gold' },
      source: 'api',
      labels: [],
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: data.createdAt,
    });
    const [event] = (await eventsOf(t, w.ws, 'contact.created')).filter((e) => e.data.id === data.id);
    expect(event?.data).toEqual(data);
  });

  it('a contact needs a name, an email or a phone number (400 on _)', async () => {
    for (const payload of [{}, { customFields: { a: 'b' } }]) {
      const res = await v1('POST', '', payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'bad_request:api', details: { _: expect.any(String) } });
    }
  });

  it('409 for an email another contact holds, compared case-insensitively, and for a taken phone', async () => {
    const address = email('Dup');
    await created({ email: address, phone: '+14155550101' });
    const sameEmail = await v1('POST', '', { email: address.toUpperCase() });
    expect(sameEmail.statusCode).toBe(409);
    expect(sameEmail.json()).toMatchObject({ code: 'conflict:api', details: { email: expect.any(String) } });
    const samePhone = await v1('POST', '', { name: 'Other', phone: '+1 415 555 0101' });
    expect(samePhone.statusCode).toBe(409);
    expect(samePhone.json().details).toEqual({ phone: expect.any(String) });
    // Another workspace may hold the same ones.
    const other = await insertApiKey(t, w.otherWs, ['contacts:write']);
    expect((await v1('POST', '', { email: address, phone: '+14155550101' }, other)).statusCode).toBe(201);
    // The session surface shares the rule.
    expect((await dash('POST', '', { email: address })).statusCode).toBe(409);
  });

  it('400 for wrong types, unknown or read-only fields, bad email and phone, oversized values', async () => {
    const cases: Array<[object, string[]]> = [
      [{ name: 42 }, ['name']],
      [{ email: 'not-an-email' }, ['email']],
      [{ email: `${'a'.repeat(250)}@example.com` }, ['email']],
      [{ phone: '555-CALL-NOW' }, ['phone']],
      [{ phone: '+0123' }, ['phone']],
      [{ name: 'x', isAdmin: true }, ['isAdmin']],
      [
        { name: 'x', id: 'ct_mine', source: 'widget', createdAt: '2020-01-01T00:00:00.000Z' },
        ['createdAt', 'id', 'source'],
      ],
      [{ name: 'x'.repeat(201) }, ['name']],
      [{ name: '   ' }, ['name']],
      [{ name: 'x', customFields: { n: 1 } }, ['customFields.n']],
      [{ name: 'x', customFields: [] }, ['customFields']],
      [{ name: 'x', customFields: { v: 'y'.repeat(2001) } }, ['customFields.v']],
      [
        { name: 'x', customFields: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])) },
        ['customFields'],
      ],
      [{ name: 'nul\u0000byte' }, ['name']],
    ];
    for (const [payload, fields] of cases) {
      const res = await v1('POST', '', payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(res.json().code).toBe('bad_request:api');
      expect(Object.keys(res.json().details ?? {}).sort(), JSON.stringify(payload).slice(0, 80)).toEqual(
        fields,
      );
    }
    for (const payload of ['[]', 'null', '"x"', '{"name":']) {
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/contacts',
        headers: { ...key, 'content-type': 'application/json' },
        payload,
      });
      expect(res.statusCode, payload).toBe(400);
    }
    const huge = await v1('POST', '', { name: 'x', customFields: { a: 'y'.repeat(3 * 1024 * 1024) } });
    expect(huge.statusCode).toBe(413);
  });

  it('keeps unicode as given', async () => {
    const data = await created({ name: 'Zoë 日本 🚀 ‮rtl', customFields: { note: 'naïve ✓' } });
    expect(data.name).toBe('Zoë 日本 🚀 ‮rtl');
    expect(data.customFields).toEqual({ note: 'naïve ✓' });
  });
});

describe('GET /api/v1/contacts', () => {
  let tag: string;
  beforeAll(async () => {
    tag = `list${Date.now()}`;
    for (const [i, name] of ['Grace Hopper', 'Alan Turing', 'Grace Kelly'].entries()) {
      await created({ name: `${name} ${tag}`, email: `${tag}-${i}@Example.com`, phone: `+1202555010${i}` });
    }
  });

  it('an offset page, newest first, with total', async () => {
    const res = await v1('GET', `?q=${tag}&limit=2`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ total: 3, limit: 2, offset: 0 });
    expect(body.data.map((c: { name: string }) => c.name)).toEqual([
      `Grace Kelly ${tag}`,
      `Alan Turing ${tag}`,
    ]);
    const next = (await v1('GET', `?q=${tag}&limit=2&offset=2`)).json();
    expect(next.data.map((c: { name: string }) => c.name)).toEqual([`Grace Hopper ${tag}`]);
  });

  it('filters: email case-insensitive, phone in any notation, q over name, email and phone', async () => {
    const byEmail = (await v1('GET', `?email=${tag.toUpperCase()}-1@EXAMPLE.COM`)).json();
    expect(byEmail.data.map((c: { name: string }) => c.name)).toEqual([`Alan Turing ${tag}`]);
    const byPhone = (await v1('GET', `?phone=${encodeURIComponent('+1 (202) 555-0102')}`)).json();
    expect(byPhone.data.map((c: { name: string }) => c.name)).toEqual([`Grace Kelly ${tag}`]);
    const byName = (await v1('GET', `?q=grace%20${''}&limit=100`)).json();
    expect(byName.data.filter((c: { name: string }) => c.name?.endsWith(tag))).toHaveLength(2);
    const byQPhone = (await v1('GET', '?q=2025550100')).json();
    expect(byQPhone.data.map((c: { name: string }) => c.name)).toEqual([`Grace Hopper ${tag}`]);
    // LIKE wildcards match themselves.
    expect((await v1('GET', '?q=%25')).json().total).toBe(0);
    expect((await v1('GET', '?q=_')).json().total).toBe(0);
  });

  it('400 for bad pagination and filters, and unknown query parameters', async () => {
    for (const q of [
      'limit=0',
      'limit=101',
      'limit=abc',
      'offset=-1',
      'phone=abc',
      'q=',
      'sort=name',
      `q=${'x'.repeat(201)}`,
    ]) {
      const res = await v1('GET', `?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().code).toBe('bad_request:api');
    }
  });

  it("never lists another workspace's contacts", async () => {
    const other = await insertApiKey(t, w.otherWs, []);
    const res = (await v1('GET', `?q=${tag}`, undefined, other)).json();
    expect(res.total).toBe(0);
  });
});

describe('GET, PATCH, DELETE /api/v1/contacts/{id}', () => {
  it('GET returns the contact; unknown and foreign ids are 404', async () => {
    const c = await created({ name: 'One' });
    expect((await v1('GET', `/${c.id}`)).json()).toEqual({ data: c });
    const foreign = await insertApiKey(t, w.otherWs, ['contacts:write']);
    for (const [method, payload] of [['GET'], ['PATCH', { name: 'x' }], ['DELETE']] as const) {
      const unknown = await v1(method, '/ct_unknown', payload);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().code).toBe('not_found:api');
      expect((await v1(method, `/${c.id}`, payload, foreign)).statusCode).toBe(404);
    }
    // An unknown id with an invalid body is still the 404 (order of checks).
    expect((await v1('PATCH', '/ct_unknown', { name: 42 })).statusCode).toBe(404);
  });

  it('PATCH changes fields, null clears one, customFields merge (null removes a key), contact.updated', async () => {
    const c = await created({ name: 'Before', email: email('p'), customFields: { a: '1', b: '2' } });
    const res = await v1('PATCH', `/${c.id}`, {
      name: 'After',
      email: null,
      phone: '+33 1 23 45 67 89',
      customFields: { b: null, c: '3' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({
      id: c.id,
      name: 'After',
      email: null,
      phone: '+33123456789',
      customFields: { a: '1', c: '3' },
      createdAt: c.createdAt,
    });
    expect(Date.parse(data.updatedAt)).toBeGreaterThanOrEqual(Date.parse(c.updatedAt));
    const updates = (await eventsOf(t, w.ws, 'contact.updated')).filter((e) => e.data.id === c.id);
    expect(updates.map((e) => e.data)).toEqual([data]);
  });

  it('a PATCH that changes nothing records nothing', async () => {
    const c = await created({ name: 'Same', email: email('same') });
    const res = await v1('PATCH', `/${c.id}`, { name: 'Same', customFields: {} });
    expect(res.json().data).toEqual(c);
    expect((await eventsOf(t, w.ws, 'contact.updated')).filter((e) => e.data.id === c.id)).toHaveLength(0);
  });

  it('PATCH: 409 for a taken email or phone; a case change of its own email is fine; 400 to name nobody', async () => {
    const taken = email('taken');
    await created({ email: taken, phone: '+14155550199' });
    const c = await created({ email: email('mine') });
    expect((await v1('PATCH', `/${c.id}`, { email: taken.toUpperCase() })).statusCode).toBe(409);
    expect((await v1('PATCH', `/${c.id}`, { phone: '+14155550199' })).statusCode).toBe(409);
    const own = await v1('PATCH', `/${c.id}`, { email: c.email.toUpperCase() });
    expect(own.statusCode, own.body).toBe(200);
    const nobody = await v1('PATCH', `/${c.id}`, { email: null });
    expect(nobody.statusCode).toBe(400);
    expect(nobody.json().details._).toBeDefined();
    for (const payload of [
      { name: 1 },
      { source: 'x' },
      { id: 'ct_x' },
      { phone: 'abc' },
      { customFields: { k: 5 } },
    ]) {
      expect((await v1('PATCH', `/${c.id}`, payload)).statusCode, JSON.stringify(payload)).toBe(400);
    }
  });

  it('DELETE is 204 and frees the email; tickets keep existing without the link', async () => {
    const address = email('gone');
    const c = await created({ email: address });
    const ticketId = newId('tkt');
    await t.ctx.db.insert(tickets).values({ id: ticketId, workspaceId: w.ws, subject: 's', contactId: c.id });
    const res = await v1('DELETE', `/${c.id}`);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await v1('GET', `/${c.id}`)).statusCode).toBe(404);
    expect((await v1('DELETE', `/${c.id}`)).statusCode).toBe(404);
    const [ticket] = await t.ctx.db.select().from(tickets).where(eq(tickets.id, ticketId));
    expect(ticket?.contactId).toBeNull();
    expect((await v1('POST', '', { email: address })).statusCode).toBe(201);
  });
});

describe('the workspace paths (dashboard)', () => {
  it('members create (source dashboard), read, change and delete; guests read', async () => {
    const res = await dash('POST', '', { name: 'From the dashboard', email: email('dash') });
    expect(res.statusCode, res.body).toBe(201);
    const c = res.json().data;
    expect(c.source).toBe('dashboard');
    expect((await dash('GET', `/${c.id}`, undefined, w.guest.headers)).json().data).toEqual(c);
    const list = (await dash('GET', `?email=${c.email}`, undefined, w.guest.headers)).json();
    expect(list.data).toEqual([c]);
    expect((await dash('PATCH', `/${c.id}`, { name: 'x' }, w.guest.headers)).statusCode).toBe(403);
    expect((await dash('PATCH', `/${c.id}`, { name: 'Renamed' })).json().data.name).toBe('Renamed');
    // A contact made through the API is the same record.
    expect((await v1('GET', `/${c.id}`)).json().data.name).toBe('Renamed');
    expect((await dash('DELETE', `/${c.id}`)).statusCode).toBe(204);
  });

  it("404 for another workspace's contact through one's own workspace path", async () => {
    const foreign = await t.request({
      method: 'POST',
      url: `/api/workspaces/${w.otherWs}/contacts`,
      headers: w.outsider.headers,
      payload: { name: 'Theirs' },
    });
    const id = foreign.json().data.id;
    for (const [method, payload] of [['GET'], ['PATCH', { name: 'x' }], ['DELETE']] as const) {
      expect((await dash(method, `/${id}`, payload, w.owner.headers)).statusCode).toBe(404);
    }
    const [still] = await t.ctx.db
      .select()
      .from(contacts)
      .where(and(eq(contacts.id, id), eq(contacts.workspaceId, w.otherWs)));
    expect(still?.name).toBe('Theirs');
  });
});

describe('hostile ids and queries', () => {
  it('odd ids are a 404 (or a 400 for a NUL), never a 500, writes store nothing; NUL in a filter is a 400 naming it', async () => {
    for (const id of [
      `${'x'.repeat(101)}`,
      '%F0%9F%9A%80',
      '%E2%80%AE',
      "ct_1'%20or%20'1'='1",
      '..%2F..%2Fworkspace',
    ]) {
      const res = await v1('GET', `/${id}`);
      expect(res.statusCode, id).toBe(404);
      expect((await dash('GET', `/${id}`)).statusCode, id).toBe(404);
      for (const [method, payload] of [['PATCH', { name: 'x' }], ['DELETE']] as const) {
        const write = await expectNothingStored(t, () => dash(method, `/${id}`, payload));
        expect(write.statusCode, `${method} ${id}`).toBe(404);
      }
    }
    expect((await v1('GET', '/ct%00x')).statusCode).toBe(400);
    const nul = await expectNothingStored(t, () => dash('PATCH', '/ct%00x', { name: 'x' }));
    expect(nul.statusCode).toBe(400);
    for (const [q, field] of [
      ['q=%00', 'q'],
      ['email=%00', 'email'],
    ]) {
      const res = await v1('GET', `?${q}`);
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json().details)).toEqual([field]);
    }
    const emoji = await v1('GET', '?q=%F0%9F%9A%80');
    expect(emoji.statusCode).toBe(200);
  });
});
