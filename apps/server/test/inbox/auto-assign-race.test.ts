import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversationChanges, conversations, memberships } from '../../src/db/schema/index.ts';
import { onPostgres } from '../support/database.ts';
import { redisAnswers } from '../support/redis.ts';
import { waitFor } from '../support/wait.ts';
import { openSse, type SseStream } from './helpers.ts';
import { memberCall, startTwoServers, type TwoServers } from './two-servers.ts';

/**
 * docs/inbox.md "Auto-assignment", race-proof: two server processes sharing PostgreSQL hand off
 * 200 conversations at once (visitors asking a guidance rule for a person, half on each process)
 * with 5 people online and present: each conversation is assigned once, nobody past the maximum,
 * the rest wait; raising the maximum gives them out. Skipped without PostgreSQL and Redis (one
 * PGlite process cannot be shared).
 */
const runs = onPostgres() && (await redisAnswers());
if (!runs)
  console.warn('two-process auto-assignment test skipped: it needs DATABASE_URL (PostgreSQL) and a Redis');

const SITE = 'https://shop.example.com';
const TOTAL = 200;
const AGENTS = 5;
const MAX = 30;

describe.skipIf(!runs)('auto-assignment across two processes', () => {
  const streams: SseStream[] = [];
  let two: TwoServers;
  let a: string;
  let b: string;

  beforeAll(async () => {
    two = await startTwoServers();
    ({ a, b } = two);
  }, 120_000);

  afterAll(async () => {
    for (const s of streams) s.close();
    await two?.stop();
  });

  const call = async (base: string, method: string, path: string, cookie: string, body?: unknown) =>
    (await memberCall(base, method, path, cookie, body)).json;

  const signup = async (base: string, n: number) => {
    const res = await fetch(`${base}/api/auth/signup`, {
      method: 'POST',
      headers: { origin: base, 'content-type': 'application/json' },
      body: JSON.stringify({
        email: `agent${n}@example.com`,
        password: 'a long password',
        name: `Agent ${n}`,
      }),
    });
    expect(res.status).toBe(201);
    const body = await res.json();
    return {
      id: body.data.user.id as string,
      cookie: (res.headers.get('set-cookie') ?? '').split(';')[0] as string,
    };
  };

  /** A visitor on `base` asks for a person: the rule hands the conversation off. */
  const handoff = async (base: string, asst: string) => {
    const widget = (path: string, body: unknown, token?: string) =>
      fetch(`${base}/api/widget/${asst}${path}`, {
        method: 'POST',
        headers: {
          origin: SITE,
          'content-type': 'application/json',
          ...(token ? { authorization: `Widget ${token}` } : {}),
        },
        body: JSON.stringify(body),
      });
    const init = await (await widget('/init', { sessionId: null })).json();
    const { sessionId, sessionToken } = init.data;
    const res = await widget('/chat', { sessionId, content: 'a human please' }, sessionToken);
    expect(res.status).toBe(200);
    await res.text();
  };

  it('200 handoffs at once: each assigned once, nobody past the maximum, the rest wait', async () => {
    const people = await Promise.all(Array.from({ length: AGENTS }, (_, i) => signup(i % 2 ? b : a, i)));
    const owner = people[0]!;
    const ws = (await call(a, 'POST', '/api/workspaces', owner.cookie, { name: 'Acme' })).data.id as string;
    // Setup straight in the database: the other four join as members.
    const db = two.pg.database.db;
    await db
      .insert(memberships)
      .values(people.slice(1).map((p) => ({ workspaceId: ws, userId: p.id, role: 'member' as const })));
    const asst = (await call(a, 'POST', '/api/assistants', owner.cookie, { workspaceId: ws, name: 'Helper' }))
      .data.id as string;
    await call(a, 'PATCH', `/api/assistants/${asst}/widget`, owner.cookie, {
      isEnabled: true,
      allowedDomains: ['shop.example.com'],
    });
    await call(a, 'POST', `/api/assistants/${asst}/guidance`, owner.cookie, {
      name: 'people',
      kind: 'handoff',
      text: 'A person will answer.',
      triggers: ['a human please'],
    });
    await call(a, 'PUT', `/api/workspaces/${ws}/inbox-settings`, owner.cookie, {
      autoAssign: true,
      maxOpenPerAgent: MAX,
    });
    // Each person online, with the inbox open on one process or the other.
    for (const [i, p] of people.entries()) {
      const base = i % 2 ? a : b;
      await call(base, 'PUT', `/api/workspaces/${ws}/members/me/availability`, p.cookie, {
        status: 'online',
      });
      const s = await openSse(`${base}/api/inbox/stream?workspaceId=${ws}`, { cookie: p.cookie });
      streams.push(s);
      await s.until((e) => e.type === 'ready');
    }
    await waitFor(async () => {
      const rows = await db.select().from(memberships).where(eq(memberships.workspaceId, ws));
      return rows.every((r) => r.inboxSeenAt !== null);
    });

    // 200 visitors at once, half on each process, 40 in flight at a time.
    const queue = Array.from({ length: TOTAL }, (_, i) => (i % 2 ? a : b));
    await Promise.all(
      Array.from({ length: 40 }, async () => {
        for (let base = queue.pop(); base; base = queue.pop()) await handoff(base, asst);
      }),
    );

    const handedOff = () =>
      db
        .select()
        .from(conversations)
        .where(and(eq(conversations.workspaceId, ws), eq(conversations.status, 'handoff')));
    await waitFor(
      async () => (await handedOff()).filter((c) => c.assigneeId).length === AGENTS * MAX,
      20_000,
    );
    const rows = await handedOff();
    expect(rows).toHaveLength(TOTAL);
    const perAgent = new Map<string, number>();
    for (const c of rows) if (c.assigneeId) perAgent.set(c.assigneeId, (perAgent.get(c.assigneeId) ?? 0) + 1);
    expect([...perAgent.values()]).toEqual(Array(AGENTS).fill(MAX));
    // Each conversation was given once: one `assign` change at most, by the system.
    const assigns = await db
      .select({ conversationId: conversationChanges.conversationId, n: sql<number>`count(*)::int` })
      .from(conversationChanges)
      .where(and(eq(conversationChanges.workspaceId, ws), eq(conversationChanges.kind, 'assign')))
      .groupBy(conversationChanges.conversationId);
    expect(assigns).toHaveLength(AGENTS * MAX);
    expect(assigns.every((r) => r.n === 1)).toBe(true);

    // Raising the maximum on one process gives out the 50 waiting, longest waiting first, evenly.
    await call(b, 'PUT', `/api/workspaces/${ws}/inbox-settings`, owner.cookie, { maxOpenPerAgent: 40 });
    await waitFor(async () => (await handedOff()).every((c) => c.assigneeId), 20_000);
    const after = new Map<string, number>();
    for (const c of await handedOff()) after.set(c.assigneeId!, (after.get(c.assigneeId!) ?? 0) + 1);
    expect([...after.values()]).toEqual(Array(AGENTS).fill(40));

    // A change of availability on one process reaches an inbox open on the other.
    await call(a, 'PUT', `/api/workspaces/${ws}/members/me/availability`, people[1]!.cookie, {
      status: 'busy',
    });
    const heard = await streams[0]!.until(
      (e) => e.type === 'member.updated' && (e.member as { availability: string }).availability === 'busy',
    );
    expect(heard).toEqual({
      type: 'member.updated',
      member: { userId: people[1]!.id, availability: 'busy' },
    });
  }, 180_000);
});
