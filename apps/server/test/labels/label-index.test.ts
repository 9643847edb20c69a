import { and, eq, type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Channel,
  type ConversationStatus,
  conversationLabels,
  conversations,
  messages,
} from '../../src/db/schema/index.ts';
import { inInboxSql } from '../../src/features/conversations/visibility.ts';
import { holdsLabel } from '../../src/features/labels/label-filter.ts';
import { conversationOfSession } from '../inbox/helpers.ts';
import { createAssistant, type TestUser } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { createWorld, type World } from '../support/world.ts';
import { initWidget, NO_RATE_LIMIT, widgetAssistant, widgetChat } from '../widget/helpers.ts';

/**
 * docs/labels.md "Filters": the inbox list filtered by a label is served from the
 * `conversation_labels` rows a trigger keeps in step with each conversation's set and activity.
 * Through the HTTP API, after every kind of change (a set given or replaced, a new message, a
 * label renamed or deleted, conversations deleted with their assistant), the list answers exactly
 * what the conversations' own `labels` say, in the list's order, under every other filter and
 * across cursor pages.
 */
let t: TestApp;
let w: World;
let asst: string;
let other: string;
const ids: string[] = [];
beforeAll(async () => {
  t = await createTestApp(NO_RATE_LIMIT);
  w = await createWorld(t);
  asst = await createAssistant(t, w.owner, w.ws);
  other = await createAssistant(t, w.owner, w.ws);
});
afterAll(() => t.close());

const api = (method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.request({ method, url, headers: w.owner.headers, ...(payload ? { payload } : {}) });
const newLabel = async (name: string) => {
  const r = await api('POST', `/api/workspaces/${w.ws}/labels`, { name, color: '#112233' });
  expect(r.statusCode, r.body).toBe(201);
  return r.json().data.id as string;
};
const setLabels = async (id: string, labelIds: string[]) => {
  const r = await api('PUT', `/api/inbox/conversations/${id}/labels?workspaceId=${w.ws}`, { labelIds });
  expect(r.statusCode, r.body).toBe(200);
};
/** The API does not reach an internal chat before its handoff (a 404): its set is written directly. */
const setHidden = (id: string, labelIds: string[]) =>
  t.ctx.db
    .update(conversations)
    .set({ labels: labelIds.map((l) => ({ id: l, name: l, color: '#112233' })) })
    .where(eq(conversations.id, id));

/** Every page of the list under `query`, `limit` a page, concatenated. */
async function listed(query: string, limit: number) {
  const seen: string[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 50; pages++) {
    const c = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const r = await api('GET', `/api/inbox/conversations?workspaceId=${w.ws}&limit=${limit}&${query}${c}`);
    expect(r.statusCode, r.body).toBe(200);
    const body = r.json() as { data: Array<{ id: string }>; nextCursor: string | null };
    seen.push(...body.data.map((x) => x.id));
    cursor = body.nextCursor;
    if (!cursor) return seen;
  }
  throw new Error('more than 50 pages');
}

/**
 * What the filter on `conversations.labels` itself answers, paged as the list pages (keyset on
 * `(last_message_at, id)`, a page's position its last row's activity or creation time): the list
 * as it was served before `conversation_labels`.
 */
async function expected(labelId: string, extra: SQL | undefined, limit = 1000) {
  const seen: string[] = [];
  let after: { t: Date; id: string } | undefined;
  for (;;) {
    const rows = await t.ctx.db
      .select({ id: conversations.id, at: conversations.lastMessageAt, createdAt: conversations.createdAt })
      .from(conversations)
      .where(
        and(
          eq(conversations.workspaceId, w.ws),
          inInboxSql(),
          holdsLabel(conversations.labels, labelId),
          extra,
          after
            ? sql`(${conversations.lastMessageAt}, ${conversations.id}) < (${after.t.toISOString()}::timestamptz, ${after.id})`
            : undefined,
        ),
      )
      .orderBy(sql`${conversations.lastMessageAt} desc nulls last`, sql`${conversations.id} desc nulls last`)
      .limit(limit + 1);
    const page = rows.slice(0, limit);
    seen.push(...page.map((r) => r.id));
    const last = page[page.length - 1];
    if (rows.length <= limit || !last) return seen;
    after = { t: last.at ?? last.createdAt, id: last.id };
  }
}

const c = conversations;
/** The list's other filters, as query and as the condition they stand for. */
const filters = (): Array<[string, SQL | undefined]> => [
  ['', undefined],
  ['status=open', eq(c.status, 'open')],
  ['status=handoff', eq(c.status, 'handoff')],
  ['status=closed', eq(c.status, 'closed')],
  ['channel=sms', eq(c.channel, 'sms')],
  ['channel=chat', eq(c.channel, 'chat')],
  [`assistantId=${other}`, eq(c.assistantId, other)],
  [`assigneeId=${w.member.id}`, eq(c.assigneeId, w.member.id)],
  ['unassigned=true', sql`${c.assigneeId} is null`],
  ['unassigned=false', sql`${c.assigneeId} is not null`],
  [`status=handoff&assigneeId=${w.admin.id}`, and(eq(c.status, 'handoff'), eq(c.assigneeId, w.admin.id))],
  ['status=open&unassigned=true', and(eq(c.status, 'open'), sql`${c.assigneeId} is null`)],
  ['lowConfidence=true', sql`${c.id} in (select conversation_id from messages where confidence < 0.5)`],
];

/** Each label under each filter, in pages of 4 and in one page: the same rows as `expected`, in order. */
async function expectListsRight(labelIds: string[]) {
  for (const labelId of labelIds) {
    for (const [query, extra] of filters()) {
      const q = `labelId=${labelId}${query ? `&${query}` : ''}`;
      expect(await listed(q, 4), q).toEqual(await expected(labelId, extra, 4));
      expect(await listed(q, 100), q).toEqual(await expected(labelId, extra));
    }
  }
}

type Seed = { channel: Channel; status: ConversationStatus; assignee: TestUser | null; handedOff: boolean };
const kinds: Seed[] = [
  { channel: 'widget', status: 'open', assignee: null, handedOff: false },
  { channel: 'sms', status: 'handoff', assignee: null, handedOff: true },
  { channel: 'widget', status: 'handoff', assignee: null, handedOff: true },
  { channel: 'chat', status: 'open', assignee: null, handedOff: false },
  { channel: 'chat', status: 'handoff', assignee: null, handedOff: true },
  { channel: 'widget', status: 'closed', assignee: null, handedOff: false },
];

describe('the inbox list filtered by a label', () => {
  it('30 conversations, sets given and replaced: every filter, every page', async () => {
    const start = Date.now() - 3_600_000;
    for (let i = 0; i < 30; i++) {
      const k = kinds[i % kinds.length]!;
      const assignee = i % 3 === 0 ? w.member : i % 3 === 1 ? w.admin : null;
      const id = `cnv_lblidx_${String(i).padStart(2, '0')}`;
      // Pairs share a timestamp (ties order by id); one has no activity yet (it lists last).
      const at = i === 29 ? null : new Date(start + Math.floor(i / 2) * 60_000);
      await t.ctx.db.insert(conversations).values({
        id,
        workspaceId: w.ws,
        assistantId: i % 4 === 0 ? other : asst,
        channel: k.channel,
        status: k.status,
        assigneeId: assignee?.id ?? null,
        handedOffAt: k.handedOff ? new Date(start) : null,
        lastMessageAt: at,
        createdAt: new Date(start),
      });
      if (i % 5 === 0) {
        await t.ctx.db.insert(messages).values({
          id: `msg_lblidx_${i}`,
          workspaceId: w.ws,
          conversationId: id,
          role: 'assistant',
          content: 'Maybe',
          confidence: 0.2,
        });
      }
      ids.push(id);
    }
    const [a, b, z] = [await newLabel('Alpha'), await newLabel('Beta'), await newLabel('Zeta')];
    const give = async (i: number, set: Array<string | null>) => {
      const labelIds = set.filter((x): x is string => x !== null);
      const hidden = !kinds[i % kinds.length]!.handedOff && kinds[i % kinds.length]!.channel === 'chat';
      await (hidden ? setHidden(ids[i]!, labelIds) : setLabels(ids[i]!, labelIds));
    };
    for (const i of ids.keys())
      await give(i, [i % 2 === 0 ? a : null, i % 3 === 0 ? b : null, i >= 20 ? z : null]);
    await expectListsRight([a, b, z]);

    // Replaced: a and b swap on every conversation that had either; z is cleared from some.
    for (const i of ids.keys())
      await give(i, [i % 2 === 1 ? a : null, i % 3 === 1 ? b : null, i >= 25 ? z : null]);
    await expectListsRight([a, b, z]);
    // Newest first, a tie by id descending, the one without activity last; 27, an internal chat
    // never handed over, is not in the inbox.
    expect(await listed(`labelId=${z}`, 100)).toEqual([
      'cnv_lblidx_28',
      'cnv_lblidx_26',
      'cnv_lblidx_25',
      'cnv_lblidx_29',
    ]);
  });

  it('a new message moves the conversation to the top of its labels’ lists', async () => {
    const assistantId = await widgetAssistant(t, w.owner, w.ws);
    const label = await newLabel('Moving');
    const sessions = [await initWidget(t, assistantId), await initWidget(t, assistantId)];
    const convs: string[] = [];
    for (const s of sessions) {
      await widgetChat(t, assistantId, s, 'Where is my parcel?');
      convs.push(await conversationOfSession(t, s));
    }
    for (const id of convs) await setLabels(id, [label]);
    expect(await listed(`labelId=${label}`, 100)).toEqual([convs[1], convs[0]]);
    await widgetChat(t, assistantId, sessions[0]!, 'Any news?');
    expect(await listed(`labelId=${label}`, 100)).toEqual([convs[0], convs[1]]);
    expect(await listed(`labelId=${label}`, 1)).toEqual([convs[0], convs[1]]);
    await expectListsRight([label]);
  });

  it('a rename keeps the rows; a deletion takes the conversations out of its list', async () => {
    const labels = await api('GET', `/api/workspaces/${w.ws}/labels`);
    const byName = new Map(
      (labels.json().data as Array<{ id: string; name: string }>).map((l) => [l.name, l.id]),
    );
    const [a, b] = [byName.get('Alpha')!, byName.get('Beta')!];
    const before = await listed(`labelId=${a}`, 4);
    expect(before.length).toBeGreaterThan(5);
    const renamed = await api('PATCH', `/api/workspaces/${w.ws}/labels/${a}`, {
      name: 'Alpha 2',
      color: '#000000',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(await listed(`labelId=${a}`, 4)).toEqual(before);
    await expectListsRight([a, b]);

    expect((await api('DELETE', `/api/workspaces/${w.ws}/labels/${a}`)).statusCode).toBe(204);
    expect(await listed(`labelId=${a}`, 4)).toEqual([]);
    const left = await t.ctx.db.select().from(conversationLabels).where(eq(conversationLabels.labelId, a));
    expect(left).toEqual([]);
    await expectListsRight([b]);
  });

  it('conversations deleted with their assistant leave the list and their rows go', async () => {
    const [b] = (await api('GET', `/api/workspaces/${w.ws}/labels`))
      .json()
      .data.filter((l: { name: string }) => l.name === 'Beta') as Array<{ id: string }>;
    const gone = (await expected(b!.id, eq(c.assistantId, other))).length;
    expect(gone).toBeGreaterThan(0);
    const r = await api('DELETE', `/api/assistants/${other}`);
    expect(r.statusCode, r.body).toBe(204);
    await expectListsRight([b!.id]);
    const rows = await t.ctx.db
      .select()
      .from(conversationLabels)
      .where(eq(conversationLabels.workspaceId, w.ws));
    const live = await t.ctx.db.select({ id: c.id }).from(c).where(eq(c.workspaceId, w.ws));
    const liveIds = new Set(live.map((x) => x.id));
    expect(rows.every((x) => liveIds.has(x.conversationId))).toBe(true);
  });

  it("another workspace's label lists nothing", async () => {
    const theirs = await t.request({
      method: 'POST',
      url: `/api/workspaces/${w.otherWs}/labels`,
      headers: w.outsider.headers,
      payload: { name: 'Theirs', color: '#123456' },
    });
    expect(await listed(`labelId=${theirs.json().data.id}`, 10)).toEqual([]);
  });
});
