import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onPostgres } from '../support/database.ts';
import { redisAnswers } from '../support/redis.ts';
import { openSse } from './helpers.ts';
import { memberCall, startTwoServers, type TwoServers } from './two-servers.ts';

/**
 * docs/inbox.md "Live delivery": on PostgreSQL with REDIS_URL, a reply written on one server
 * process reaches a visitor whose widget stream is open on another, and the inbox stream of a
 * member connected to the second process hears the change. Two real processes (`src/main.ts`)
 * sharing one database and one Redis. Without PostgreSQL or Redis it is skipped: one PGlite
 * process cannot be shared, and without Redis processes do not hear each other by design.
 */
const runs = onPostgres() && (await redisAnswers());
if (!runs) console.warn('two-process inbox test skipped: it needs DATABASE_URL (PostgreSQL) and a Redis');

const SITE = 'https://shop.example.com';

describe.skipIf(!runs)('two server processes sharing PostgreSQL and Redis', () => {
  let two: TwoServers;
  let a: string;
  let b: string;

  beforeAll(async () => {
    two = await startTwoServers();
    ({ a, b } = two);
  }, 120_000);
  afterAll(() => two?.stop());

  const call = memberCall;

  it('an agent reply on one process reaches the visitor and the inbox on the other', async () => {
    // Setup through process A: a member, a workspace, an assistant with its widget on SITE.
    const signup = await fetch(`${a}/api/auth/signup`, {
      method: 'POST',
      headers: { origin: a, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'agent@example.com', password: 'a long password', name: 'Ada Agent' }),
    });
    expect(signup.status).toBe(201);
    const cookie = (signup.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const ws = (await call(a, 'POST', '/api/workspaces', cookie, { name: 'Acme' })).json.data.id as string;
    const asst = (await call(a, 'POST', '/api/assistants', cookie, { workspaceId: ws, name: 'Helper' })).json
      .data.id as string;
    await call(a, 'PATCH', `/api/assistants/${asst}/widget`, cookie, {
      isEnabled: true,
      allowedDomains: ['shop.example.com'],
    });

    // The visitor talks to process B and keeps its widget stream open there.
    const widget = (method: string, path: string, token?: string, body?: unknown) =>
      fetch(`${b}/api/widget/${asst}${path}`, {
        method,
        headers: {
          origin: SITE,
          'content-type': 'application/json',
          ...(token ? { authorization: `Widget ${token}` } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
    const init = await (await widget('POST', '/init', undefined, { sessionId: null })).json();
    const { sessionId, sessionToken } = init.data;
    const chatRes = await widget('POST', '/chat', sessionToken, { sessionId, content: 'Where is my order?' });
    expect(chatRes.status).toBe(200);
    await chatRes.text();
    const stream = await openSse(`${b}/api/widget/${asst}/sessions/${sessionId}/events`, {
      origin: SITE,
      authorization: `Widget ${sessionToken}`,
    });
    const inboxStream = await openSse(`${b}/api/inbox/stream?workspaceId=${ws}`, { cookie });
    await inboxStream.until((e) => e.type === 'ready');

    // The agent works on process A.
    const list = await call(a, 'GET', `/api/inbox/conversations?workspaceId=${ws}`, cookie);
    const id = list.json.data[0].id as string;
    await call(a, 'POST', `/api/inbox/conversations/${id}/handoff`, cookie);
    expect(await stream.until((e) => e.type === 'status')).toEqual({
      type: 'status',
      status: 'handoff',
      agent: { type: 'agent', name: 'Ada Agent', avatarUrl: null },
    });
    await call(a, 'POST', `/api/inbox/conversations/${id}/messages`, cookie, { content: 'Hi, Ada here.' });
    expect(await stream.until((e) => e.type === 'message')).toMatchObject({
      message: { role: 'assistant', content: 'Hi, Ada here.', author: { type: 'agent', name: 'Ada Agent' } },
    });
    expect(await inboxStream.until((e) => e.type === 'conversation.updated')).toMatchObject({
      conversation: { id, status: 'handoff' },
    });
    expect(
      await inboxStream.until(
        (e) => e.type === 'message.created' && (e.message as { role: string }).role === 'agent',
      ),
    ).toMatchObject({ conversationId: id, message: { content: 'Hi, Ada here.' } });

    // Closing on A ends the visitor's stream on B.
    await call(a, 'POST', `/api/inbox/conversations/${id}/close`, cookie);
    await stream.until((e) => e.type === 'ended');
    await stream.ended;
    inboxStream.close();
  }, 60_000);
});
