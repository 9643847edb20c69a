import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { createContext } from '../../src/bootstrap.ts';
import { conversations, messages, notifications } from '../../src/db/schema/index.ts';
import { dispatchEvents } from '../../src/features/webhooks/webhooks.jobs.ts';
import { CURSOR_LISTS, type CursorList, type CursorScope, createCursors } from '../../src/http/pagination.ts';
import { newId } from '../../src/lib/ids.ts';
import { createAssistant, type TestUser } from '../support/factories.ts';
import { createTestApp, ORIGIN, type TestApp } from '../support/harness.ts';
import { createHookA, emit } from '../support/webhooks.ts';
import { createWorld, insertApiKey } from '../support/world.ts';

/**
 * docs/api.md "Pagination": a cursor is good only on the list it came from (its kind, its parent) in
 * its workspace; anywhere else, and when tampered with, it is a 400, `bad_request:chat`
 * on the chat paths. Every list of CURSOR_LISTS is walked and attacked here.
 */

const URL_SAFE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
const flip = (s: string) => (s[0] === 'A' ? 'B' : 'A') + s.slice(1);

describe('the cursor helpers', () => {
  const cursors = createCursors(Buffer.from('a test key'));
  const scope: CursorScope = { list: 'inbox.messages', workspaceId: 'ws_a', parentId: 'conv_a' };
  const key = { t: Date.parse('2026-11-22T01:02:03.004Z'), id: 'msg_01jd0000000000000000000000' };
  const codeOf = (scope: CursorScope, cursor: string) => {
    try {
      cursors.decode(scope, cursor);
    } catch (err) {
      return err;
    }
    return 'accepted';
  };

  it('refuses a cursor of another list, workspace or parent, with the code of the list asked', () => {
    const cursor = cursors.encode(scope, key);
    const elsewhere: CursorScope[] = [
      ...(Object.keys(CURSOR_LISTS) as CursorList[])
        .filter((list) => list !== scope.list)
        .map((list) => ({ ...scope, list })),
      { ...scope, workspaceId: 'ws_b' },
      { ...scope, workspaceId: null },
      { ...scope, parentId: 'conv_b' },
      { ...scope, parentId: null },
    ];
    for (const other of elsewhere) {
      expect(codeOf(other, cursor), JSON.stringify(other)).toMatchObject({
        status: 400,
        code: CURSOR_LISTS[other.list],
        details: { cursor: expect.any(String) },
      });
    }
    expect(CURSOR_LISTS['chat.messages']).toBe('bad_request:chat');
    expect(cursors.decode(scope, cursor)).toEqual(key);
  });

  it('is accepted by another process with the same key (ENCRYPTION_KEY from the config)', () => {
    const another = createCursors(Buffer.from('a test key'));
    expect(another.decode(scope, cursors.encode(scope, key))).toEqual(key);
  });

  it('is opaque and URL-safe: it names neither the list nor the workspace', () => {
    const cursor = cursors.encode(scope, key);
    expect(cursor).toMatch(URL_SAFE);
    expect(encodeURIComponent(cursor)).toBe(cursor);
    const text = Buffer.from(cursor.split('.')[0] ?? '', 'base64url').toString('utf8');
    expect(text).not.toMatch(/ws_a|conv_a|inbox/);
  });
});

type Side = {
  ws: string;
  user: TestUser;
  key: Record<string, string>;
  asst: string;
  /** Widget conversations (the inbox's and /api/v1's). */
  convs: string[];
  /** The user's internal chats. */
  chats: string[];
  hooks: string[];
};

type Probe = {
  list: CursorList;
  total: number;
  url: (s: Side) => string;
  headers?: (s: Side) => Record<string, string>;
  /** The same kind of list under another parent in the same workspace. */
  sibling?: (s: Side) => string;
};

const inboxMessages = (id: string) => `/api/inbox/conversations/${id}/messages`;
const chatMessages = (id: string) => `/api/chat/conversations/${id}/messages`;
const deliveries = (s: Side, hook: string) => `/api/workspaces/${s.ws}/webhooks/${hook}/deliveries`;

const PROBES: Probe[] = [
  { list: 'inbox.conversations', total: 3, url: (s) => `/api/inbox/conversations?workspaceId=${s.ws}` },
  {
    list: 'inbox.conversations.sla',
    total: 3,
    url: (s) => `/api/inbox/conversations?workspaceId=${s.ws}&sort=sla`,
  },
  {
    list: 'inbox.messages',
    total: 3,
    url: (s) => inboxMessages(s.convs[0] as string),
    sibling: (s) => inboxMessages(s.convs[1] as string),
  },
  {
    list: 'v1.messages',
    total: 3,
    url: (s) => `/api/v1/messages?conversationId=${s.convs[0]}`,
    headers: (s) => s.key,
    sibling: (s) => `/api/v1/messages?conversationId=${s.convs[1]}`,
  },
  { list: 'chat.conversations', total: 2, url: (s) => `/api/chat/conversations?assistantId=${s.asst}` },
  {
    list: 'chat.messages',
    total: 3,
    url: (s) => chatMessages(s.chats[0] as string),
    sibling: (s) => chatMessages(s.chats[1] as string),
  },
  {
    list: 'webhooks.deliveries',
    total: 3,
    url: (s) => deliveries(s, s.hooks[0] as string),
    sibling: (s) => deliveries(s, s.hooks[1] as string),
  },
  { list: 'notifications', total: 3, url: () => '/api/notifications' },
];

let t: TestApp;
let a: Side;
let b: Side;

/** Three widget conversations and two chats of three messages each, two webhooks, three notifications. */
async function seed(ws: string, user: TestUser): Promise<Side> {
  const asst = await createAssistant(t, user, ws);
  const base = Date.now() - 60_000;
  let n = 0;
  const at = () => new Date(base + ++n * 10);
  const conversation = async (channel: 'widget' | 'chat') => {
    const id = newId('conv');
    const createdAt = at();
    await t.ctx.db.insert(conversations).values({
      id,
      workspaceId: ws,
      assistantId: asst,
      channel,
      startedBy: channel === 'chat' ? user.id : null,
      createdAt,
      lastMessageAt: createdAt,
    });
    for (const content of ['one', 'two', 'three']) {
      await t.ctx.db.insert(messages).values({
        id: newId('msg'),
        workspaceId: ws,
        conversationId: id,
        role: 'user',
        content,
        createdAt: at(),
      });
    }
    return id;
  };
  const convs = [await conversation('widget'), await conversation('widget'), await conversation('widget')];
  const chats = [await conversation('chat'), await conversation('chat')];
  const hook = { url: 'https://93.184.215.14/hooks/parley', events: ['member.joined'] };
  const hooks = [
    (await createHookA(t, ws, user.headers, hook)).id,
    (await createHookA(t, ws, user.headers, hook)).id,
  ];
  for (let i = 0; i < 3; i++) {
    await emit(t, ws, 'member.joined', { i });
    await dispatchEvents(t.ctx);
  }
  for (let i = 0; i < 3; i++) {
    await t.ctx.db.insert(notifications).values({
      id: newId('ntf'),
      userId: user.id,
      workspaceId: ws,
      type: 'test',
      title: `note ${i}`,
      body: '',
      createdAt: at(),
    });
  }
  return { ws, user, key: await insertApiKey(t, ws, []), asst, convs, chats, hooks };
}

beforeAll(async () => {
  t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false' });
  const w = await createWorld(t);
  a = await seed(w.ws, w.owner);
  b = await seed(w.otherWs, w.outsider);
}, 60_000);
afterAll(() => t?.close());

const withQuery = (url: string, query: string) => `${url}${url.includes('?') ? '&' : '?'}${query}`;

async function get(p: Probe, s: Side, url: string, cursor?: string) {
  const query = cursor === undefined ? 'limit=1' : `limit=1&cursor=${cursor}`;
  return t.request({ method: 'GET', url: withQuery(url, query), headers: p.headers?.(s) ?? s.user.headers });
}

/** The next cursor of the first page of `url` (a cursor the server really handed out). */
async function firstCursor(p: Probe, s: Side, url = p.url(s)): Promise<string> {
  const res = await get(p, s, url);
  expect(res.statusCode, res.body).toBe(200);
  const cursor = res.json().nextCursor;
  expect(cursor).toMatch(URL_SAFE);
  return cursor;
}

async function expectRefused(p: Probe, cursor: string, what: string) {
  const res = await get(p, a, p.url(a), cursor);
  expect(res.statusCode, `${p.list}: ${what}: ${res.body}`).toBe(400);
  expect(res.json()).toMatchObject({ code: CURSOR_LISTS[p.list], details: { cursor: expect.any(String) } });
}

it('every cursor list of http/pagination.ts is probed here', () => {
  expect(PROBES.map((p) => p.list).sort()).toEqual(Object.keys(CURSOR_LISTS).sort());
});

describe.each(PROBES)('$list', (p) => {
  it('walks every page with the cursors it hands out, unencoded', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const res = await get(p, a, p.url(a), cursor);
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json();
      seen.push(...page.data.map((row: { id: string }) => row.id));
      cursor = page.nextCursor ?? undefined;
      if (cursor) expect(cursor).toMatch(URL_SAFE);
    } while (cursor);
    expect(seen).toHaveLength(p.total);
    expect(new Set(seen).size).toBe(p.total);
  });

  it('refuses the cursor of every other list with 400', async () => {
    for (const other of PROBES.filter((o) => o.list !== p.list)) {
      await expectRefused(p, await firstCursor(other, a), `a cursor of ${other.list}`);
    }
  });

  it('refuses the cursor of the same list in another workspace with 400', async () => {
    await expectRefused(p, await firstCursor(p, b), 'a cursor of another workspace');
  });

  it.runIf(p.sibling)('refuses the cursor of the same list under another parent with 400', async () => {
    const sibling = p.sibling?.(a) as string;
    await expectRefused(p, await firstCursor(p, a, sibling), 'a cursor of another parent');
  });

  it('refuses a tampered cursor with 400', async () => {
    const [payload, sig] = (await firstCursor(p, a)).split('.') as [string, string];
    for (const bad of [`${flip(payload)}.${sig}`, `${payload}.${flip(sig)}`, payload, 'abc.def']) {
      await expectRefused(p, bad, `tampered ${bad}`);
    }
  });
});

describe('several processes', () => {
  it('a cursor handed out by one process pages on another that shares the configuration', async () => {
    const other = createContext(t.ctx.config, t.ctx.database);
    const app = await buildApp(other, { logger: false });
    try {
      await app.ready();
      const p = PROBES.find((x) => x.list === 'inbox.messages') as Probe;
      const cursor = await firstCursor(p, a);
      const url = withQuery(p.url(a), `limit=1&cursor=${cursor}`);
      const here = await get(p, a, p.url(a), cursor);
      const there = await app.inject({ method: 'GET', url, headers: { origin: ORIGIN, ...a.user.headers } });
      expect(there.statusCode, there.body).toBe(200);
      expect(there.json().data).toEqual(here.json().data);
    } finally {
      await app.close();
      await other.limits.close();
      await other.fanout.close();
    }
  });
});
