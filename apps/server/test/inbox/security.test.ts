import { request as httpRequest } from 'node:http';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { createTestApp, ORIGIN, type TestApp } from '../support/harness.ts';
import { securitySuite } from '../support/security.ts';
import { ownerOf, type World } from '../support/world.ts';
import { initWidget, NO_RATE_LIMIT, widgetAssistant, widgetChat } from '../widget/helpers.ts';
import { conversationOfSession, listen } from './helpers.ts';

let t: TestApp;
let app: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp(NO_RATE_LIMIT);
  base = await listen(t);
  app = {
    ...t,
    request: (opts) =>
      String(opts.url).startsWith('/api/inbox/stream') ? overSocket(opts) : t.request(opts),
  };
});
afterAll(() => t.close());

/**
 * The inbox stream never ends by itself, so its requests go over a real socket: an error answer is
 * read whole; a 200 is read up to its first event (`ready`), then the connection is closed.
 */
function overSocket(opts: InjectOptions): Promise<LightMyRequestResponse> {
  return new Promise((resolve, reject) => {
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
}

/** A widget conversation in `workspaceId` (a visitor asked something), as the suite's `prepare`. */
async function withConversation(a: TestApp, w: World, workspaceId: string) {
  const assistantId = await widgetAssistant(a, ownerOf(w, workspaceId), workspaceId);
  const s = await initWidget(a, assistantId);
  await widgetChat(a, assistantId, s, 'Where is my order?');
  return { conversationId: await conversationOfSession(a, s) };
}

const base401 = { auth: 'session' as const };

securitySuite(() => app, {
  ...base401,
  name: 'GET /api/inbox/conversations',
  request: (ws) => ({ method: 'GET', url: `/api/inbox/conversations?workspaceId=${ws}` }),
});

securitySuite(() => app, {
  ...base401,
  name: 'GET /api/inbox/conversations/:id',
  prepare: withConversation,
  request: (ws, x) => ({
    method: 'GET',
    url: `/api/inbox/conversations/${x.conversationId}?workspaceId=${ws}`,
  }),
});

securitySuite(() => app, {
  ...base401,
  name: 'GET /api/inbox/conversations/:id/messages',
  prepare: withConversation,
  request: (ws, x) => ({
    method: 'GET',
    url: `/api/inbox/conversations/${x.conversationId}/messages?workspaceId=${ws}`,
  }),
});

securitySuite(() => app, {
  ...base401,
  name: 'POST /api/inbox/conversations/:id/messages',
  minRole: 'member',
  prepare: withConversation,
  request: (ws, x) => ({
    method: 'POST',
    url: `/api/inbox/conversations/${x.conversationId}/messages?workspaceId=${ws}`,
    payload: { content: 'Hello from a person' },
  }),
});

for (const action of ['handoff', 'release', 'close']) {
  securitySuite(() => app, {
    ...base401,
    name: `POST /api/inbox/conversations/:id/${action}`,
    minRole: 'member',
    prepare: withConversation,
    request: (ws, x) => ({
      method: 'POST',
      url: `/api/inbox/conversations/${x.conversationId}/${action}?workspaceId=${ws}`,
    }),
  });
}

securitySuite(() => app, {
  ...base401,
  name: 'PATCH /api/inbox/conversations/:id',
  minRole: 'member',
  prepare: withConversation,
  request: (ws, x) => ({
    method: 'PATCH',
    url: `/api/inbox/conversations/${x.conversationId}?workspaceId=${ws}`,
    payload: { assigneeId: null },
  }),
});

securitySuite(() => app, {
  ...base401,
  name: 'POST /api/inbox/conversations/:id/tickets',
  minRole: 'member',
  prepare: withConversation,
  request: (ws, x) => ({
    method: 'POST',
    url: `/api/inbox/conversations/${x.conversationId}/tickets?workspaceId=${ws}`,
    payload: { subject: 'Follow up' },
  }),
});

securitySuite(() => app, {
  ...base401,
  name: 'GET /api/inbox/stream',
  request: (ws) => ({ method: 'GET', url: `/api/inbox/stream?workspaceId=${ws}` }),
});
