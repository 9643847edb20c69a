import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversations, tickets } from '../../src/db/schema/index.ts';
import { chat } from '../chat/helpers.ts';
import { createAssistant } from '../support/factories.ts';
import type { TestApp } from '../support/harness.ts';
import { waitFor } from '../support/wait.ts';
import type { World } from '../support/world.ts';
import { fromSite, initWidget, widgetAssistant, widgetChat } from '../widget/helpers.ts';
import { conversationEvents, conversationOfSession, inbox, openSse } from './helpers.ts';
import { startInbox, visitorOf } from './setup.ts';

/** The inbox read (list, filters, the event stream) and its actions on one conversation (assign, ticket). */
let t: TestApp;
let w: World;
let asst: string;
let base: string;

beforeAll(async () => {
  ({ t, w, asst, base } = await startInbox());
});
afterAll(() => t.close());

const visitor = (content?: string) => visitorOf(t, asst, content);

describe('GET /api/inbox/conversations', () => {
  it('filters by status, channel, assistant, assignee and unassigned; pages with a cursor', async () => {
    const other = await widgetAssistant(t, w.owner, w.ws);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const s = await initWidget(t, other);
      await widgetChat(t, other, s, `question ${i}`);
      ids.push(await conversationOfSession(t, s));
    }
    await inbox(t, w.admin, 'POST', `/${ids[1]}/handoff`);
    await inbox(t, w.member, 'POST', `/${ids[2]}/handoff`);
    await inbox(t, w.member, 'POST', `/${ids[3]}/close`);
    const list = async (query: string) => {
      const res = await inbox(t, w.guest, 'GET', `?workspaceId=${w.ws}&assistantId=${other}&${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.map((c: { id: string }) => c.id) as string[];
    };
    // Newest activity first: the last conversation written to first.
    expect(await list('')).toEqual([...ids].reverse());
    expect(await list('status=handoff')).toEqual([ids[2], ids[1]]);
    expect(await list('status=closed')).toEqual([ids[3]]);
    expect(await list(`assigneeId=${w.admin.id}`)).toEqual([ids[1]]);
    expect(await list('unassigned=false')).toEqual([ids[2], ids[1]]);
    expect(await list('unassigned=true')).toEqual([ids[4], ids[3], ids[0]]);
    expect(await list('channel=chat')).toEqual([]);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await inbox(
        t,
        w.owner,
        'GET',
        `?workspaceId=${w.ws}&assistantId=${other}&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      const body = page.json();
      seen.push(...body.data.map((c: { id: string }) => c.id));
      cursor = body.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
  });

  it('400 for bad filters, limits and cursors; workspaceId required with several workspaces', async () => {
    for (const query of [
      'status=pending',
      'channel=fax',
      'unassigned=yes',
      `unassigned=true&assigneeId=${w.member.id}`,
      'limit=0',
      'limit=101',
      'cursor=not-a-cursor',
      'colour=blue',
    ]) {
      const res = await inbox(t, w.owner, 'GET', `?workspaceId=${w.ws}&${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().code).toBe('bad_request:api');
    }
    // The owner of one workspace may omit it.
    expect((await inbox(t, w.owner, 'GET', '')).statusCode).toBe(200);
  });
});

describe('PATCH /api/inbox/conversations/:id (assign)', () => {
  it('assigns a member, refuses a non-member or a guest with 400, unassigns with null', async () => {
    const { id } = await visitor();
    const assign = (assigneeId: string | null) => inbox(t, w.owner, 'PATCH', `/${id}`, { assigneeId });
    const ok = await assign(w.member.id);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data).toMatchObject({ assigneeId: w.member.id, status: 'open' });
    const outsider = await assign(w.outsider.id);
    expect(outsider.statusCode).toBe(400);
    expect(outsider.json().details.assigneeId).toBeDefined();
    expect((await assign(w.guest.id)).statusCode).toBe(400);
    expect((await assign('usr_nobody')).statusCode).toBe(400);
    const none = await assign(null);
    expect(none.json().data.assigneeId).toBeNull();
    const changes = await conversationEvents(t, w.ws, 'conversation.updated', id);
    expect(changes.map((e) => (e.data as { assigneeId: string | null }).assigneeId)).toEqual([
      w.member.id,
      null,
    ]);
    for (const body of [{}, { assigneeId: 5 }, { assigneeId: w.member.id, status: 'closed' }]) {
      expect((await inbox(t, w.owner, 'PATCH', `/${id}`, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
  });
});

describe('POST /api/inbox/conversations/:id/tickets', () => {
  it('opens a ticket linked to the conversation and its contact', async () => {
    const { s, id } = await visitor();
    await fromSite(t, {
      method: 'POST',
      url: `/api/widget/${asst}/sessions/${s.sessionId}/lead`,
      token: s.token,
      payload: { name: 'Ada', email: 'ada@example.com' },
    });
    const [conv] = await t.ctx.db.select().from(conversations).where(eq(conversations.id, id));
    const res = await inbox(t, w.member, 'POST', `/${id}/tickets`, {
      subject: 'Order never arrived',
      priority: 'high',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({
      subject: 'Order never arrived',
      priority: 'high',
      status: 'open',
      conversationId: id,
      contactId: conv?.contactId,
    });
    const [row] = await t.ctx.db.select().from(tickets).where(eq(tickets.id, res.json().data.id));
    expect(row?.conversationId).toBe(id);
    for (const body of [
      {},
      { subject: '' },
      { subject: 'x', priority: 'asap' },
      { subject: 'x', status: 'closed' },
    ]) {
      expect(
        (await inbox(t, w.member, 'POST', `/${id}/tickets`, body)).statusCode,
        JSON.stringify(body),
      ).toBe(400);
    }
  });
});

describe('GET /api/inbox/stream', () => {
  it('streams new conversations, messages and changes of the workspace only', async () => {
    const stream = await openSse(`${base}/api/inbox/stream?workspaceId=${w.ws}`, { ...w.guest.headers });
    expect(stream.res.statusCode).toBe(200);
    await stream.until((e) => e.type === 'ready');
    const { id } = await visitor('A brand new question');
    expect(await stream.until((e) => e.type === 'conversation.created')).toMatchObject({
      conversation: { id, channel: 'widget', status: 'open' },
    });
    await stream.until(
      (e) => e.type === 'message.created' && (e.message as { role: string }).role === 'assistant',
      'the AI reply',
    );
    await inbox(t, w.member, 'POST', `/${id}/handoff`);
    expect(await stream.until((e) => e.type === 'conversation.updated')).toMatchObject({
      conversation: { id, status: 'handoff', assigneeId: w.member.id },
      changedBy: { type: 'user', id: w.member.id },
    });
    await inbox(t, w.member, 'POST', `/${id}/close`);
    await stream.until((e) => e.type === 'conversation.ended');
    // Another workspace's changes never arrive; an internal chat before handoff neither.
    const foreign = await widgetAssistant(t, w.outsider, w.otherWs);
    const fs = await initWidget(t, foreign);
    await widgetChat(t, foreign, fs, 'elsewhere');
    const privateChat = await chat(t, w.member, { assistantId: asst, content: 'a private question' });
    const mark = await visitor('marker');
    await stream.until(
      (e) => e.type === 'conversation.created' && (e.conversation as { id: string }).id === mark.id,
    );
    const ids = stream.events.map(
      (e) => (e.conversation as { id?: string } | undefined)?.id ?? e.conversationId,
    );
    expect(ids).not.toContain(await conversationOfSession(t, fs));
    expect(ids).not.toContain(privateChat.conversationId);
    stream.close();
  });

  it('404 for a workspace the caller is not in', async () => {
    const res = await t.request({
      method: 'GET',
      url: `/api/inbox/stream?workspaceId=${w.otherWs}`,
      headers: w.owner.headers,
    });
    expect(res.statusCode).toBe(404);
  });
});

describe('assistants in other workspaces', () => {
  it('a Free workspace has the inbox too', async () => {
    const a = await createAssistant(t, w.freeOwner, w.freeWs);
    const r = await chat(t, w.freeOwner, { assistantId: a, content: 'I want to talk to a human' });
    const res = await inbox(t, w.freeOwner, 'GET', `/${r.conversationId}`);
    expect(res.statusCode).toBe(200);
    await waitFor(async () => (await inbox(t, w.freeOwner, 'GET', '')).json().data.length === 1);
  });
});
