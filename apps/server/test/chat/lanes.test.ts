import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../src/db/schema/index.ts';
import { Lanes } from '../../src/lib/lanes.ts';
import { createAssistant, type TestUser } from '../support/factories.ts';
import { createTestApp, ORIGIN, type TestApp } from '../support/harness.ts';
import { type LlmServer, startLlmServer } from '../support/llm-server.ts';
import { waitFor } from '../support/wait.ts';
import { createWorld, type World } from '../support/world.ts';
import { parseEvents } from './helpers.ts';

let llm: LlmServer;
let t: TestApp;
let w: World;
let asst: string;
let port: number;

beforeAll(async () => {
  llm = await startLlmServer();
  t = await createTestApp({ AI_PROVIDER: 'openai', AI_BASE_URL: `${llm.url}/v1`, AI_MODEL: 'stand-in' });
  w = await createWorld(t);
  asst = await createAssistant(t, w.owner, w.ws);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await t.close();
  await llm.close();
});

/** POST /api/chat over a real socket: its first event, its whole body, and a way to hang up. */
function openChat(user: TestUser, content: string) {
  let body = '';
  let conversationId = '';
  let firstEvent!: () => void;
  let end!: (body: string) => void;
  const first = new Promise<void>((r) => {
    firstEvent = r;
  });
  const ended = new Promise<string>((r) => {
    end = r;
  });
  const req = httpRequest({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: '/api/chat',
    headers: { 'content-type': 'application/json', origin: ORIGIN, cookie: user.cookie },
  });
  req.on('response', (res) => {
    conversationId = res.headers['x-conversation-id'] as string;
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      body += chunk;
      if (body.includes('data: ')) firstEvent();
    });
    res.on('end', () => end(body));
    res.on('error', () => end(body));
  });
  req.on('error', () => end(body));
  req.end(JSON.stringify({ assistantId: asst, content }));
  return { first, ended, hangUp: () => req.destroy(), conversationId: () => conversationId };
}

const replyOf = (conversationId: string) =>
  t.ctx.db
    .select()
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), eq(messages.role, 'assistant')));

/**
 * docs/decisions/0009-lanes.md, lib/lanes.ts: a chat waiting for its first event comes before storing
 * another's reply.
 */
describe('foreground before background', () => {
  it('a sent reply is stored, and finished, once no other chat waits for its first event', async () => {
    t.ctx.lanes = new Lanes({ maxWaitMs: 60_000 });
    llm.stall(); // the first chat's model answers nothing: it stays in the foreground
    llm.script([{ text: 'Refunds take 5 business days.' }]);
    const seen = llm.requests.length;
    const waiting = openChat(w.owner, 'Is anyone there?');
    await llm.waitForRequests(seen + 1);
    const answered = openChat(w.member, 'How long do refunds take?');
    await answered.first;

    // Its text has been sent; storing it waits on the chat still in the foreground.
    await waitFor(() => t.ctx.lanes.state.waiting === 1, 5000, 'the reply waiting to be stored');
    expect(t.ctx.lanes.state).toMatchObject({ foreground: 1, waiting: 1 });
    expect(await replyOf(answered.conversationId())).toEqual([]);

    waiting.hangUp();
    const events = parseEvents(await answered.ended);
    expect(events.map((e) => e.type)).toContain('text-delta');
    const finish = events.at(-1);
    expect(finish).toMatchObject({ type: 'finish', messageId: expect.stringMatching(/^msg_/) });
    const stored = await replyOf(answered.conversationId());
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ content: 'Refunds take 5 business days.', status: 'complete' });
    expect(finish?.type === 'finish' && finish.messageId).toBe(stored[0]?.id);
    await waiting.ended;
    // Nothing is left waiting (the event relay may still be finishing a step of its own).
    await waitFor(
      () => {
        expect(t.ctx.lanes.state).toEqual({ foreground: 0, background: 0, waiting: 0 });
        return true;
      },
      5000,
      'no lane work left',
    );
  });

  it('background work never starves: after the longest wait it runs beside foreground work', async () => {
    t.ctx.lanes = new Lanes({ maxWaitMs: 250 });
    llm.stall();
    llm.script([{ text: 'Still answered.' }]);
    const seen = llm.requests.length;
    const waiting = openChat(w.owner, 'Hello?');
    await llm.waitForRequests(seen + 1);
    const answered = openChat(w.member, 'Anyone?');
    const events = parseEvents(await answered.ended);
    expect(events.at(-1)).toMatchObject({ type: 'finish', messageId: expect.stringMatching(/^msg_/) });
    expect(await replyOf(answered.conversationId())).toHaveLength(1);
    expect(t.ctx.lanes.state.foreground).toBe(1); // the stalled chat is still waiting
    waiting.hangUp();
    await waiting.ended;
  });

  it('a refused chat ends its foreground work (nothing is left waiting on it)', async () => {
    t.ctx.lanes = new Lanes({ maxWaitMs: 60_000 });
    const res = await t.request({
      method: 'POST',
      url: '/api/chat',
      headers: w.guest.headers,
      payload: { assistantId: asst, content: 'hi' },
    });
    expect(res.statusCode).toBe(403);
    expect(t.ctx.lanes.state.foreground).toBe(0);
    await expect(t.ctx.lanes.background(async () => 'ran')).resolves.toBe('ran');
  });
});
