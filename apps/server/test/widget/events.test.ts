import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { widgetSessions } from '../../src/db/schema/index.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { waitFor } from '../support/wait.ts';
import { createWorld, insertApiKey, type World } from '../support/world.ts';
import {
  fromSite,
  initWidget,
  NO_RATE_LIMIT,
  type Session,
  SITE,
  widgetAssistant,
  widgetChat,
} from './helpers.ts';

let t: TestApp;
let w: World;
let asst: string;
let key: Record<string, string>;
let base: string;

beforeAll(async () => {
  t = await createTestApp({ ...NO_RATE_LIMIT, CHAT_KEEPALIVE_MS: '100' });
  w = await createWorld(t);
  asst = await widgetAssistant(t, w.owner, w.ws);
  key = await insertApiKey(t, w.ws, ['chat:write']);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(() => t.close());

type Stream = {
  res: IncomingMessage;
  events: Array<Record<string, unknown>>;
  body: () => string;
  next(): Promise<Record<string, unknown>>;
  ended: Promise<void>;
  close(): void;
};

/** Opens the session event stream over a real socket, as a browser would. */
function openStream(s: Session, headers: Record<string, string> = {}): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}/api/widget/${asst}/sessions/${s.sessionId}/events`, {
      headers: { origin: SITE, authorization: `Widget ${s.token}`, ...headers },
    });
    req.on('response', (res) => {
      let raw = '';
      const events: Array<Record<string, unknown>> = [];
      const waiting: Array<(e: Record<string, unknown>) => void> = [];
      res.on('data', (chunk: Buffer) => {
        raw += chunk.toString();
        for (const block of raw.split('\n\n').slice(0, -1)) {
          if (block.startsWith('data: ')) {
            const e = JSON.parse(block.slice(6));
            events.push(e);
            waiting.shift()?.(e);
          }
        }
        raw = raw.slice(raw.lastIndexOf('\n\n') + 2);
      });
      const ended = new Promise<void>((r) => res.on('end', () => r()));
      const all = () => events.map((e) => JSON.stringify(e)).join('\n');
      resolve({
        res,
        events,
        body: all,
        next: () => new Promise((r) => waiting.push(r)),
        ended,
        close: () => req.destroy(),
      });
    });
    req.on('error', reject);
    req.end();
  });
}

const postAgent = (conversationId: string, content: string) =>
  t.request({ method: 'POST', url: '/api/v1/messages', headers: key, payload: { conversationId, content } });

/** The conversation a widget session is bound to (set by its first message). */
const conversationOf = async (s: Session) => {
  const [row] = await t.ctx.db.select().from(widgetSessions).where(eq(widgetSessions.id, s.sessionId));
  return row?.conversationId as string;
};

describe('GET /api/widget/{id}/sessions/{sid}/events', () => {
  it('delivers an agent reply live, as an assistant message with an author, with the CORS headers', async () => {
    const s = await initWidget(t, asst);
    await widgetChat(t, asst, s, 'hello');
    const conversationId = await conversationOf(s);
    const stream = await openStream(s);
    expect(stream.res.statusCode).toBe(200);
    expect(stream.res.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(stream.res.headers['access-control-allow-origin']).toBe(SITE);
    const next = stream.next();
    expect((await postAgent(conversationId, 'Hi, a human here.')).statusCode).toBe(201);
    expect(await next).toMatchObject({
      type: 'message',
      message: {
        role: 'assistant',
        content: 'Hi, a human here.',
        author: { type: 'agent', name: 'Support agent' },
      },
    });
    stream.close();
  });

  it('follows a conversation that starts after the stream opened, and says when the session ends', async () => {
    const s = await initWidget(t, asst);
    const stream = await openStream(s);
    await widgetChat(t, asst, s, 'first message');
    await waitFor(async () => !!(await conversationOf(s)), 5000, 'the session bound to its conversation');
    const conversationId = await conversationOf(s);
    const next = stream.next();
    await postAgent(conversationId, 'Following up');
    expect(await next).toMatchObject({ type: 'message', message: { content: 'Following up' } });
    const ended = stream.next();
    const end = await fromSite(t, {
      method: 'POST',
      url: `/api/widget/${asst}/sessions/${s.sessionId}/end`,
      token: s.token,
    });
    expect(end.statusCode).toBe(200);
    expect(await ended).toEqual({ type: 'ended' });
  });

  it('the three-layer check applies: wrong token 401, other origin 403, disabled 404; GET is not rate limited', async () => {
    const s = await initWidget(t, asst);
    const other = await initWidget(t, asst);
    const res = (headers: Record<string, string>, sessionId = s.sessionId) =>
      fromSite(t, {
        method: 'GET',
        url: `/api/widget/${asst}/sessions/${sessionId}/events`,
        headers,
        origin: headers.origin ?? SITE,
      });
    const wrong = await res({ authorization: `Widget ${other.token}` });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().code).toBe('unauthorized:widget');
    expect((await res({ authorization: 'Widget nope-nope-nope-nope' })).statusCode).toBe(401);
    const foreign = await res({ authorization: `Widget ${s.token}`, origin: 'https://evil.example.net' });
    expect(foreign.statusCode).toBe(403);
    const unknown = await fromSite(t, {
      method: 'GET',
      url: `/api/widget/asst_unknown/sessions/${s.sessionId}/events`,
      token: s.token,
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('not_found:widget');
  });

  it('an ended session answers ended at once', async () => {
    const s = await initWidget(t, asst);
    await fromSite(t, {
      method: 'POST',
      url: `/api/widget/${asst}/sessions/${s.sessionId}/end`,
      token: s.token,
    });
    const stream = await openStream(s);
    await stream.ended;
    expect(stream.events).toEqual([{ type: 'ended' }]);
  });

  it('a closed stream stops listening', async () => {
    // Counts the live subscriptions the streams hold (the real fan-out does the work).
    const fanout = t.ctx.fanout;
    let listening = 0;
    t.ctx.fanout = {
      ...fanout,
      subscribe: async (channel, listener) => {
        const off = await fanout.subscribe(channel, listener);
        listening++;
        return () => {
          listening--;
          off();
        };
      },
    };
    try {
      const s = await initWidget(t, asst);
      await widgetChat(t, asst, s, 'hello again');
      const stream = await openStream(s);
      await waitFor(() => listening > 0, 5000, 'the stream subscribed');
      stream.close();
      await waitFor(() => listening === 0, 5000, 'the closed stream unsubscribed');
      // Posting after the visitor left is fine: stored, delivered to nobody.
      expect((await postAgent(await conversationOf(s), 'anyone?')).statusCode).toBe(201);
    } finally {
      t.ctx.fanout = fanout;
    }
  });
});
