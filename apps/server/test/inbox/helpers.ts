import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { conversationChanges, events, widgetSessions } from '../../src/db/schema/index.ts';
import type { TestUser } from '../support/factories.ts';
import { ORIGIN, type TestApp } from '../support/harness.ts';
import type { Session } from '../widget/helpers.ts';

export type SseStream = {
  res: IncomingMessage;
  events: Array<Record<string, unknown>>;
  /** Resolves with the first event (already received or still to come) that matches. */
  until(match: (e: Record<string, unknown>) => boolean, what?: string): Promise<Record<string, unknown>>;
  ended: Promise<void>;
  close(): void;
};

/** Opens a server-sent events stream over a real socket, as a browser would. */
export function openSse(url: string, headers: Record<string, string>): Promise<SseStream> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers });
    req.on('response', (res) => {
      let raw = '';
      const received: Array<Record<string, unknown>> = [];
      const waiting: Array<{
        match: (e: Record<string, unknown>) => boolean;
        done: (e: Record<string, unknown>) => void;
      }> = [];
      res.on('data', (chunk: Buffer) => {
        raw += chunk.toString();
        const blocks = raw.split('\n\n');
        raw = blocks.pop() ?? '';
        for (const block of blocks) {
          if (!block.startsWith('data: ')) continue;
          const e = JSON.parse(block.slice(6)) as Record<string, unknown>;
          received.push(e);
          for (const w of waiting.splice(0)) {
            if (w.match(e)) w.done(e);
            else waiting.push(w);
          }
        }
      });
      const ended = new Promise<void>((r) => res.on('end', () => r()));
      resolve({
        res,
        events: received,
        until: (match, what = 'an event') =>
          new Promise((done, fail) => {
            const found = received.find(match);
            if (found) return done(found);
            const timer = setTimeout(
              () => fail(new Error(`no ${what} within 10 s; got ${JSON.stringify(received)}`)),
              10_000,
            );
            waiting.push({
              match,
              done: (e) => {
                clearTimeout(timer);
                done(e);
              },
            });
          }),
        ended,
        close: () => req.destroy(),
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** Listens on a random port (SSE needs a real socket); returns the base URL. */
export async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}

/** A request to the inbox as `user`. */
export function inbox(
  t: TestApp,
  user: TestUser,
  method: 'GET' | 'POST' | 'PATCH' | 'PUT',
  path: string,
  payload?: Record<string, unknown>,
) {
  return t.request({
    method,
    url: `/api/inbox/conversations${path}`,
    headers: user.headers,
    ...(payload !== undefined ? { payload } : {}),
  });
}

/** The conversation a widget session is bound to (set by its first message). */
export async function conversationOfSession(t: TestApp, s: Session) {
  const [row] = await t.ctx.db.select().from(widgetSessions).where(eq(widgetSessions.id, s.sessionId));
  return row?.conversationId as string;
}

/** The conversation's recorded changes, oldest first. */
export async function changesOf(t: TestApp, conversationId: string) {
  return t.ctx.db
    .select()
    .from(conversationChanges)
    .where(eq(conversationChanges.conversationId, conversationId))
    .orderBy(conversationChanges.createdAt);
}

/** The events of one type about one conversation, oldest first. */
export async function conversationEvents(
  t: TestApp,
  workspaceId: string,
  type: string,
  conversationId: string,
) {
  const rows = await t.ctx.db
    .select()
    .from(events)
    .where(and(eq(events.workspaceId, workspaceId), eq(events.type, type)))
    .orderBy(events.createdAt);
  return rows.filter((r) => (r.data as { conversationId?: string }).conversationId === conversationId);
}

/**
 * The app as the security suite sees it, with the requests to endless streams (paths starting
 * with one of `prefixes`) sent over a real socket: an error answer is read whole; a 200 up to its
 * first event, then the connection is closed. Everything else is injected as usual.
 */
export function streamsOverSocket(t: TestApp, base: string, prefixes: string[]): TestApp {
  const overSocket = (opts: InjectOptions): Promise<LightMyRequestResponse> =>
    new Promise((resolve, reject) => {
      const headers = { origin: ORIGIN, ...(opts.headers as Record<string, string>) };
      const req = httpRequest(`${base}${opts.url}`, { method: String(opts.method ?? 'GET'), headers });
      req.on('response', (res) => {
        let body = '';
        const done = () =>
          resolve({
            statusCode: res.statusCode ?? 0,
            headers: res.headers,
            body,
            json: () => JSON.parse(body),
          } as unknown as LightMyRequestResponse);
        res.on('data', (chunk: Buffer) => {
          body += chunk.toString();
          if (res.statusCode === 200 && body.includes('\n\n')) {
            req.destroy();
            done();
          }
        });
        res.on('end', done);
      });
      req.on('error', (err) => (req.destroyed ? undefined : reject(err)));
      req.end();
    });
  return {
    ...t,
    request: (opts) =>
      prefixes.some((p) => String(opts.url).startsWith(p)) && !String(opts.url).includes('/messages')
        ? overSocket(opts)
        : t.request(opts),
  };
}
