import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversations } from '../../src/db/schema/index.ts';
import { newId } from '../../src/lib/ids.ts';
import { chat } from '../chat/helpers.ts';
import type { TestUser } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { createWorld, type World } from '../support/world.ts';
import { initWidget, NO_RATE_LIMIT, widgetAssistant, widgetChat } from '../widget/helpers.ts';
import { conversationEvents, conversationOfSession, inbox, listen, openSse } from './helpers.ts';

/**
 * The role table on every inbox route (docs/inbox.md "Endpoints", decision 0018 "Roles"): every
 * role reads; owners, admins and members write; a guest's write is a 403 that changes nothing.
 * And every route addressing a conversation answers 404 to a member of another workspace, or to
 * a `workspaceId` that is not the conversation's, changing nothing.
 */
let t: TestApp;
let w: World;
let asst: string;
let base: string;
beforeAll(async () => {
  t = await createTestApp(NO_RATE_LIMIT);
  w = await createWorld(t);
  asst = await widgetAssistant(t, w.owner, w.ws);
  base = await listen(t);
});
afterAll(() => t.close());

async function visitor() {
  const s = await initWidget(t, asst);
  expect((await widgetChat(t, asst, s, 'Where is my order?')).status).toBe(200);
  return conversationOfSession(t, s);
}

/** Every write on a conversation, in an order each succeeds in when allowed (close last). */
const writes = (id: string) =>
  [
    ['POST', `/${id}/messages`, { content: 'Hello, a person here' }, 201],
    ['POST', `/${id}/release`, undefined, 200],
    ['POST', `/${id}/handoff`, undefined, 200],
    ['PATCH', `/${id}`, { assigneeId: null }, 200],
    ['POST', `/${id}/tickets`, { subject: 'Follow up' }, 201],
    ['POST', `/${id}/close`, undefined, 200],
  ] as const;

const reads = (id: string) =>
  ['', `/${id}`, `/${id}/messages`].map((p) => (p === '' ? `?workspaceId=${w.ws}` : p));

async function streamStatus(user: TestUser, workspaceId: string) {
  const stream = await openSse(`${base}/api/inbox/stream?workspaceId=${workspaceId}`, user.headers);
  const status = stream.res.statusCode;
  stream.close();
  return status;
}

describe('roles on every inbox route', () => {
  for (const role of ['owner', 'admin', 'member', 'guest'] as const) {
    it(`${role}: ${role === 'guest' ? 'reads; every write is a 403 that changes nothing' : 'reads and writes'}`, async () => {
      const user = w[role];
      const id = await visitor();
      for (const path of reads(id)) {
        expect((await inbox(t, user, 'GET', path)).statusCode, `GET ${path}`).toBe(200);
      }
      expect(await streamStatus(user, w.ws)).toBe(200);
      for (const [method, path, payload, ok] of writes(id)) {
        const res = await inbox(t, user, method, path, payload);
        expect(res.statusCode, `${method} ${path} ${res.body}`).toBe(role === 'guest' ? 403 : ok);
        if (role === 'guest') expect(res.json().code).toBe('forbidden:api');
      }
      const after = (await inbox(t, w.owner, 'GET', `/${id}`)).json().data;
      const messages = (await inbox(t, w.owner, 'GET', `/${id}/messages`)).json().data;
      if (role === 'guest') {
        expect(after).toMatchObject({ status: 'open', assigneeId: null });
        expect(messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);
      } else {
        expect(after.status).toBe('closed');
        expect(messages.at(-1)).toMatchObject({ role: 'agent', author: { id: user.id } });
      }
    });
  }
});

describe('cross-workspace ids on every route', () => {
  it('a member of another workspace, or a workspaceId that is not the conversation’s: 404, nothing changes', async () => {
    const id = await visitor();
    const all = [
      ...reads(id)
        .slice(1)
        .map((p) => ['GET', p, undefined] as const),
      ...writes(id).map(([m, p, body]) => [m, p, body] as const),
    ];
    for (const [method, path, payload] of all) {
      const outsider = await inbox(t, w.outsider, method, path, payload);
      expect(outsider.statusCode, `outsider ${method} ${path}`).toBe(404);
      expect(outsider.json().code).toBe('not_found:api');
      for (const ws of [w.otherWs, w.freeWs]) {
        const named = await inbox(t, w.owner, method, `${path}?workspaceId=${ws}`, payload);
        expect(named.statusCode, `${method} ${path}?workspaceId=${ws}`).toBe(404);
      }
    }
    // The list and the stream of a workspace the caller is not in.
    expect((await inbox(t, w.outsider, 'GET', `?workspaceId=${w.ws}`)).statusCode).toBe(404);
    expect(await streamStatus(w.outsider, w.ws)).toBe(404);
    // Nothing changed, and the outsider's own list does not show it.
    const after = (await inbox(t, w.owner, 'GET', `/${id}`)).json().data;
    expect(after).toMatchObject({ status: 'open', assigneeId: null });
    const theirs = (await inbox(t, w.outsider, 'GET', `?workspaceId=${w.otherWs}`)).json().data;
    expect(theirs.map((c: { id: string }) => c.id)).not.toContain(id);
  });
});

describe('conversation.ended on every channel', () => {
  it('closing from the inbox records it once for a widget, an internal chat and an SMS conversation', async () => {
    const widget = await visitor();
    const handed = await chat(t, w.member, { assistantId: asst, content: 'I need to speak to a person' });
    const internal = handed.conversationId as string;
    // An SMS conversation as the SMS channel stores one (its inbound loop is tested in test/sms).
    const [sms] = await t.ctx.db
      .insert(conversations)
      .values({
        ...{ id: newId('conv'), workspaceId: w.ws, assistantId: asst, channel: 'sms' as const },
        ...{ title: 'Where is my parcel?', lastMessageAt: new Date() },
      })
      .returning();
    for (const [channel, id] of [
      ['widget', widget],
      ['chat', internal],
      ['sms', sms!.id],
    ] as const) {
      const res = await inbox(t, w.member, 'POST', `/${id}/close`);
      expect(res.statusCode, `${channel} ${res.body}`).toBe(200);
      expect(res.json().data).toMatchObject({ channel, status: 'closed' });
      // Closing again changes nothing and records nothing.
      expect((await inbox(t, w.member, 'POST', `/${id}/close`)).statusCode).toBe(200);
      const ended = await conversationEvents(t, w.ws, 'conversation.ended', id);
      expect(ended, channel).toHaveLength(1);
      expect(ended[0]!.data).toMatchObject({
        conversationId: id,
        change: 'close',
        changedBy: { type: 'user', id: w.member.id },
      });
    }
  });
});
