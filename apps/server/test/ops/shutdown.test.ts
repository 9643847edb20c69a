import { readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readEvents } from '@parley/contract/sse-reader';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, queryRows } from '../../src/db/client.ts';
import { RESTARTING, RESTARTING_REPLY } from '../../src/http/sse.ts';
import { freshDatabase, type TestDatabase } from '../support/database.ts';
import { type LlmServer, startLlmServer } from '../support/llm-server.ts';
import { waitFor } from '../support/wait.ts';
import { type Server, serverEnv, startServer } from './process.ts';

/**
 * The real process (docs/configuration.md "Health and shutdown", docs/deploy.md "Stopping"): `npm start`
 * prints its URL and serves; SIGTERM drains: in-flight requests finish, new connections are
 * refused, open streams get their final event, the process exits 0.
 */
const repoDir = fileURLToPath(new URL('../../../..', import.meta.url));
const servers: Server[] = [];
const pgs: TestDatabase[] = [];
let llm: LlmServer | undefined;
afterAll(async () => {
  for (const s of servers) s.kill();
  await Promise.all(servers.map((s) => s.exited));
  for (const pg of pgs) await pg.drop();
  await llm?.close();
  for (const s of servers) rmSync(s.dataDir, { recursive: true, force: true });
});

/**
 * A migrated database for a server: on PostgreSQL runs its own fresh database, otherwise PGlite
 * in the server's new DATA_DIR from the migrated template (the npm start test covers a fresh one).
 */
async function withDatabase(env: NodeJS.ProcessEnv): Promise<NodeJS.ProcessEnv> {
  if (process.env.DATABASE_URL) {
    const pg = await freshDatabase();
    pgs.push(pg);
    env.DATABASE_URL = pg.url;
    await pg.database.close();
  } else {
    const template = new Blob([readFileSync(inject('pgliteTemplate'))]);
    const seeded = await openDatabase({
      kind: 'pglite',
      dataDir: join(env.DATA_DIR!, 'pglite'),
      loadDataDir: template,
    });
    await seeded.close();
  }
  return env;
}

const connect = (url: string) =>
  new Promise<string>((resolve) => {
    const req = httpRequest(`${url}/healthz`, { agent: false }, (res) => {
      res.resume();
      resolve(String(res.statusCode));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
    req.end();
  });

describe('npm start', () => {
  it('applies migrations on a fresh DATA_DIR with PGlite, prints the URL and answers /healthz', async () => {
    const server = startServer('npm', ['start', '--silent'], { cwd: repoDir, env: serverEnv() });
    servers.push(server);
    const url = await server.ready;
    expect(url).toMatch(/^http:\/\/localhost:\d+$/);
    const port = new URL(url).port;
    const res = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(res.status).toBe(200);
    expect(await (await fetch(`http://127.0.0.1:${port}/readyz`)).json()).toEqual({ status: 'ready' });
    server.kill();
  }, 90_000);
});

/**
 * A signup whose body arrives slowly: it is in flight (the server has answered a request sent
 * after its headers were) when `signal` runs, and its body ends only once new connections are
 * refused. Resolves with the response; `refused` with what the last connection attempt got.
 */
function inFlightSignup(base: string, signal: () => void) {
  const body = JSON.stringify({ email: 'drain@example.com', password: 'long enough pw', name: 'Drain' });
  let refused = '';
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = httpRequest(
      `${base}/api/auth/signup`,
      {
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => {
          text += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.write(body.slice(0, 10));
    void (async () => {
      await new Promise<void>((connected) =>
        req.once('socket', (socket) => (socket.connecting ? socket.once('connect', connected) : connected())),
      );
      expect(await connect(base)).toBe('200');
      signal();
      await waitFor(
        async () => {
          refused = await connect(base);
          return refused === 'ECONNREFUSED';
        },
        10_000,
        'new connections refused',
      );
      req.end(body.slice(10));
    })().catch(reject);
  });
  return { response, refused: () => refused };
}

/** Signs up, makes a workspace and an assistant with its widget on; returns what the streams need. */
async function setUp(base: string) {
  const json = { 'content-type': 'application/json', origin: base };
  const signup = await fetch(`${base}/api/auth/signup`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ email: 'stop@example.com', password: 'long enough pw', name: 'Stop' }),
  });
  expect(signup.status).toBe(201);
  const cookie = signup.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const headers = { ...json, cookie };
  const post = async (path: string, body: unknown, method = 'POST') => {
    const res = await fetch(`${base}${path}`, { method, headers, body: JSON.stringify(body) });
    expect(res.status, await res.clone().text()).toBeLessThan(300);
    return (await res.json()).data;
  };
  const workspace = await post('/api/workspaces', { name: 'Stop' });
  const assistant = await post('/api/assistants', { workspaceId: workspace.id, name: 'Helper' });
  await post(
    `/api/assistants/${assistant.id}/widget`,
    { isEnabled: true, allowedDomains: ['shop.example.com'] },
    'PATCH',
  );
  return { headers, assistantId: assistant.id as string };
}

/** Reads a stream's events into `into` until it ends; resolves with how it ended. */
async function collect(res: Response, into: Array<Record<string, unknown>>): Promise<string> {
  try {
    for await (const event of readEvents<Record<string, unknown>>(res.body)) into.push(event);
    return 'ended';
  } catch (err) {
    return `failed: ${(err as Error).message}`;
  }
}

describe('SIGTERM to npm start', () => {
  // One process for what SIGTERM does to each kind of request (a server start is most of this
  // file's time): an ordinary request in flight finishes, new connections are refused, the open
  // streams get their final events, and the process exits 0 within the grace.
  it('finishes the in-flight request, refuses new connections, closes a streaming reply and a live widget stream with their final events, frees the port and exits 0', async () => {
    llm = await startLlmServer();
    // The stalled reply is cut a second before the end of the grace; the in-flight signup has
    // until then to finish on a loaded machine.
    const grace = 5000;
    const env = await withDatabase(
      serverEnv({
        SHUTDOWN_GRACE_MS: String(grace),
        AI_PROVIDER: 'openai',
        AI_BASE_URL: `${llm.url}/v1`,
        AI_API_KEY: 'test-key',
        AI_MODEL: 'stand-in',
      }),
    );
    // As the README starts it: the signal goes to npm, which must pass it on.
    const server = startServer('npm', ['start', '--silent'], { cwd: repoDir, env });
    servers.push(server);
    const base = (await server.ready).replace('localhost', '127.0.0.1');
    const { headers, assistantId } = await setUp(base);

    // A live widget stream (it never ends by itself).
    const site = { 'content-type': 'application/json', origin: 'https://shop.example.com' };
    const init = await fetch(`${base}/api/widget/${assistantId}/init`, {
      method: 'POST',
      headers: site,
      body: JSON.stringify({ sessionId: null, metadata: {} }),
    });
    expect(init.status, await init.clone().text()).toBe(200);
    const session = (await init.json()).data;
    const live = await fetch(`${base}/api/widget/${assistantId}/sessions/${session.sessionId}/events`, {
      headers: { origin: site.origin, authorization: `Widget ${session.sessionToken}` },
    });
    expect(live.status).toBe(200);
    const liveEvents: Array<Record<string, unknown>> = [];
    const liveEnded = collect(live, liveEvents);

    // A reply the model never finishes: its first words, then silence.
    llm.stall('Hel');
    const chat = await fetch(`${base}/api/chat`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ assistantId, content: 'Tell me everything' }),
    });
    expect(chat.status).toBe(200);
    const conversationId = chat.headers.get('x-conversation-id');
    const chatEvents: Array<Record<string, unknown>> = [];
    const chatEnded = collect(chat, chatEvents);
    await waitFor(() => chatEvents.length > 0, 10_000, 'the first words of the reply');
    expect(chatEvents[0]).toEqual({ type: 'text-delta', textDelta: 'Hel' });

    let started = 0;
    const signup = inFlightSignup(base, () => {
      started = Date.now();
      server.child.kill('SIGTERM');
    });
    const done = await signup.response;
    expect(done.status, done.body).toBe(201);
    expect(JSON.parse(done.body).data.user.email).toBe('drain@example.com');
    expect(signup.refused()).toBe('ECONNREFUSED');
    expect(await server.exited).toBe(0);
    const took = Date.now() - started;
    // The port is free: nothing answers on it any more.
    expect(await connect(base)).toBe('ECONNREFUSED');
    // Within the grace (and the second the process takes to close its pools).
    expect(took).toBeLessThan(grace + 2000);

    expect(await liveEnded).toBe('ended');
    expect(liveEvents.at(-1)).toEqual(RESTARTING);
    expect(await chatEnded).toBe('ended');
    expect(chatEvents.at(-1)).toEqual(RESTARTING_REPLY);
    expect(server.output()).not.toMatch(/"level":(50|60)/);

    // What the model had said was stored (as when a visitor leaves), before the pools closed.
    const database = env.DATABASE_URL
      ? await openDatabase({ kind: 'postgres', url: env.DATABASE_URL, poolSize: 1 })
      : await openDatabase({ kind: 'pglite', dataDir: join(env.DATA_DIR!, 'pglite') });
    try {
      const rows = await queryRows<{ content: string; status: string }>(
        database.db,
        sql`select content, status from messages where conversation_id = ${conversationId} and role = 'assistant'`,
      );
      expect(rows).toEqual([{ content: 'Hel', status: 'partial' }]);
    } finally {
      await database.close();
    }
  }, 120_000);
});
