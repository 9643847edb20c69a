import { cursorQuery, offsetQuery } from '@parley/contract/pagination';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCursors } from '../../src/http/pagination.ts';
import { signupUser, type TestUser } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { insertWorkspace } from '../support/world.ts';

/** docs/api.md "Pagination": limit 1..100 (default 25), offset >= 0, signed cursors. */
describe('offset and limit', () => {
  it('defaults to limit 25, offset 0 and coerces query strings', () => {
    expect(offsetQuery.parse({})).toEqual({ limit: 25, offset: 0 });
    expect(offsetQuery.parse({ limit: '100', offset: '7' })).toEqual({ limit: 100, offset: 7 });
    expect(offsetQuery.parse({ limit: '1' })).toEqual({ limit: 1, offset: 0 });
  });

  it.each(['0', '101', '-1', 'abc', '1.5', '', ' ', '1e3', 'Infinity', 'NaN'])(
    'refuses limit=%j',
    (limit) => {
      expect(offsetQuery.safeParse({ limit }).success).toBe(false);
      expect(cursorQuery.safeParse({ limit }).success).toBe(false);
    },
  );

  it.each(['-1', 'abc', '0.5', '99999999999'])('refuses offset=%j', (offset) => {
    expect(offsetQuery.safeParse({ offset }).success).toBe(false);
  });
});

describe('cursors', () => {
  const key = { t: Date.parse('2026-11-22T01:02:03.004Z'), id: 'msg_01jd0000000000000000000000' };
  const scope = { list: 'v1.messages', workspaceId: 'ws_a', parentId: 'conv_a' } as const;
  const cursors = createCursors(Buffer.from('a test key'));
  const decodeCursor = (cursor: string | undefined) => cursors.decode(scope, cursor);
  const encodeCursor = (k: typeof key) => cursors.encode(scope, k);

  it('refuses a cursor signed with another key (another installation)', () => {
    const other = createCursors(Buffer.from('another key'));
    expect(() => decodeCursor(other.encode(scope, key))).toThrow('Invalid cursor');
  });

  it('round-trips an encoded position', () => {
    expect(decodeCursor(encodeCursor(key))).toEqual(key);
    expect(decodeCursor(undefined)).toBeUndefined();
  });

  it('refuses tampered, truncated and foreign cursors with 400 bad_request:api', () => {
    const good = encodeCursor(key);
    const [payload, sig] = good.split('.') as [string, string];
    const forged = Buffer.from(JSON.stringify([key.t, 'msg_other'])).toString('base64url');
    const flip = (s: string) => (s[0] === 'A' ? 'B' : 'A') + s.slice(1);
    for (const bad of [
      `${forged}.${sig}`,
      `${payload}.${flip(sig)}`,
      `${flip(payload)}.${sig}`,
      payload,
      `${good}.x`,
      '',
      '.',
      'not-a-cursor',
      `${payload}.`,
    ]) {
      let thrown: unknown;
      try {
        decodeCursor(bad);
      } catch (err) {
        thrown = err;
      }
      expect(thrown, bad).toMatchObject({
        code: 'bad_request:api',
        status: 400,
        details: { cursor: expect.any(String) },
      });
    }
  });

  it('bounds the cursor length in the query schema', () => {
    expect(cursorQuery.safeParse({ cursor: 'x'.repeat(513) }).success).toBe(false);
  });

  it('builds a page from limit + 1 rows', () => {
    const rows = [1, 2, 3].map((n) => ({ id: `r${n}`, t: n }));
    const page = cursors.open(scope, undefined).page(rows, 2, (r) => ({ t: r.t, id: r.id }));
    expect(page.data.map((r) => r.id)).toEqual(['r1', 'r2']);
    expect(page.hasMore).toBe(true);
    expect(decodeCursor(page.nextCursor ?? undefined)).toEqual({ t: 2, id: 'r2' });
    const last = cursors.open(scope, undefined).page(rows, 3, (r) => ({ t: r.t, id: r.id }));
    expect(last).toMatchObject({ hasMore: false, nextCursor: null });
  });
});

describe('through a list route (GET /api/workspaces, offset style)', () => {
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    user = await signupUser(t);
    await insertWorkspace(t, user);
  });
  afterAll(() => t.close());

  const list = (query: string) =>
    t.request({ method: 'GET', url: `/api/workspaces?${query}`, headers: user.headers });

  it('answers the default page shape', async () => {
    const res = await list('');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ data: [expect.any(Object)], total: 1, limit: 25, offset: 0 });
    expect((await list('limit=100&offset=1')).json()).toMatchObject({
      data: [],
      total: 1,
      limit: 100,
      offset: 1,
    });
  });

  it.each(['limit=0', 'limit=101', 'limit=-1', 'limit=abc', 'offset=-1', 'offset=x', 'limit=1&limit=2'])(
    'refuses %s with 400 naming the parameter',
    async (query) => {
      const res = await list(query);
      expect(res.statusCode, res.body).toBe(400);
      const body = res.json();
      expect(body.code).toBe('bad_request:api');
      expect(Object.keys(body.details)).toContain(query.split('=')[0]);
    },
  );
});
