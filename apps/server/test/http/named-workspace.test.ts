import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversations } from '../../src/db/schema/index.ts';
import { conversationOfSession, inbox } from '../inbox/helpers.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { addMember, createWorld, type World } from '../support/world.ts';
import { initWidget, NO_RATE_LIMIT, widgetAssistant, widgetChat } from '../widget/helpers.ts';

/**
 * Session paths that find their resource among the caller's workspaces (src/http/tenant.ts,
 * decision 0011) and are also given a `workspaceId`: a resource outside the named workspace is a
 * 404, whatever the caller's role in the resource's own workspace (decision 0018, docs/api.md
 * "Choosing the workspace"). The caller here is a member of A and a guest of B: reading the role
 * from B used to answer 403 (or 200 on reads), which told them the id exists there.
 */
let t: TestApp;
let w: World;
let assistantB: string;
let conversationB: string;
let webhookB: string;

beforeAll(async () => {
  t = await createTestApp(NO_RATE_LIMIT);
  w = await createWorld(t);
  await addMember(t, w.otherWs, w.member, 'guest');
  assistantB = await widgetAssistant(t, w.outsider, w.otherWs);
  const s = await initWidget(t, assistantB);
  const sent = await widgetChat(t, assistantB, s, 'Where is my order?');
  expect(sent.status, sent.res.body).toBe(200);
  conversationB = await conversationOfSession(t, s);
  const hook = await t.request({
    method: 'POST',
    url: '/api/webhooks',
    headers: w.outsider.headers,
    payload: { url: 'https://93.184.215.14/b', events: ['*'], workspaceId: w.otherWs },
  });
  expect(hook.statusCode, hook.body).toBe(201);
  webhookB = hook.json().data.id;
});
afterAll(() => t.close());

type Call = { method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; url: string; payload?: Record<string, unknown> };

const as = (call: Call) =>
  t.request({ ...call, headers: w.member.headers, ...(call.payload ? { payload: call.payload } : {}) });

async function expectNotFound(call: Call) {
  const res = await as(call);
  expect(res.statusCode, `${call.method} ${call.url} ${res.body}`).toBe(404);
  expect(res.json().code).toBe('not_found:api');
}

describe('a workspaceId that is not the resource’s: 404 before any role check', () => {
  it('inbox: a guest of B taking over a conversation of B while naming A gets 404, and nothing changes', async () => {
    const path = `/api/inbox/conversations/${conversationB}`;
    // The role in B is what the caller has without naming a workspace, or naming B: a guest's 403.
    for (const url of [`${path}/handoff`, `${path}/handoff?workspaceId=${w.otherWs}`]) {
      expect((await as({ method: 'POST', url })).statusCode, url).toBe(403);
    }
    const named = `?workspaceId=${w.ws}`;
    for (const call of [
      { method: 'POST', url: `${path}/handoff${named}` },
      { method: 'POST', url: `${path}/release${named}` },
      { method: 'POST', url: `${path}/close${named}` },
      { method: 'POST', url: `${path}/messages${named}`, payload: { content: 'Hello' } },
      { method: 'POST', url: `${path}/tickets${named}`, payload: { subject: 'Follow up' } },
      { method: 'PATCH', url: `${path}${named}`, payload: { assigneeId: null } },
      { method: 'GET', url: `${path}${named}` },
      { method: 'GET', url: `${path}/messages${named}` },
    ] satisfies Call[]) {
      await expectNotFound(call);
    }
    // A workspaceId in the body names a workspace too.
    await expectNotFound({ method: 'POST', url: `${path}/handoff`, payload: { workspaceId: w.ws } });
    const [row] = await t.ctx.db.select().from(conversations).where(eq(conversations.id, conversationB));
    expect(row).toMatchObject({ status: 'open', assigneeId: null });
    // Naming its own workspace, the guest still reads it.
    const read = await inbox(t, w.member, 'GET', `/${conversationB}?workspaceId=${w.otherWs}`);
    expect(read.statusCode, read.body).toBe(200);
  });

  it('assistants by id and their sources: 404 when naming A, the usual answers when naming B', async () => {
    const path = `/api/assistants/${assistantB}`;
    const named = `?workspaceId=${w.ws}`;
    for (const call of [
      { method: 'GET', url: `${path}${named}` },
      { method: 'PATCH', url: `${path}${named}`, payload: { name: 'Renamed' } },
      { method: 'DELETE', url: `${path}${named}` },
      { method: 'GET', url: `${path}/sources${named}` },
      { method: 'POST', url: `${path}/sources${named}`, payload: { type: 'text', title: 'T', content: 'x' } },
    ] satisfies Call[]) {
      await expectNotFound(call);
    }
    expect((await as({ method: 'GET', url: `${path}?workspaceId=${w.otherWs}` })).statusCode).toBe(200);
    expect((await as({ method: 'GET', url: `${path}/sources?workspaceId=${w.otherWs}` })).statusCode).toBe(
      200,
    );
    const patch = await as({
      method: 'PATCH',
      url: `${path}?workspaceId=${w.otherWs}`,
      payload: { name: 'R' },
    });
    expect(patch.statusCode).toBe(403);
  });

  it('webhooks by id: 404 when naming A', async () => {
    const url = `/api/webhooks/${webhookB}`;
    await expectNotFound({ method: 'PATCH', url: `${url}?workspaceId=${w.ws}`, payload: { active: false } });
    await expectNotFound({ method: 'DELETE', url: `${url}?workspaceId=${w.ws}` });
    expect((await as({ method: 'DELETE', url })).statusCode).toBe(403);
  });
});
