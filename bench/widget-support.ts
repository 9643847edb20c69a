/**
 * The plumbing of bench/widget.ts: the server process (with a memory probe), seeding, a scratch
 * PostgreSQL database, small HTTP calls and the session event stream client. The clients all run
 * in the benchmark's process, on one keep-alive Agent with unlimited sockets (5,000 streams need
 * 5,000 sockets here and 5,000 in the server: `ulimit -n` must allow more than that per process).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { Agent, type ClientRequest, createServer, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { seedOwner } from './support.ts';

/** The customer's website that embeds the widget. */
export const SITE = 'https://shop.example.com';

/** One client address per visitor (TRUST_PROXY=true makes the server read X-Forwarded-For). */
export const ipOf = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

/**
 * Loaded into the server with `--import` (a data: URL, so no file of the server changes): on the
 * IPC message `mem` it runs two full collections (`--expose-gc`) and answers process.memoryUsage().
 */
const PROBE = `data:text/javascript,${encodeURIComponent(
  "process.on('message', (m) => { if (m !== 'mem') return; globalThis.gc(); globalThis.gc(); process.send({ mem: process.memoryUsage() }); });",
)}`;

export type Server = {
  name: string;
  child: ChildProcess;
  base: string;
  memory(): Promise<NodeJS.MemoryUsage>;
};

/** Starts `src/main.ts` (or `script`; output into `log`) and waits for its "ready" line. */
export async function startServer(
  cwd: string,
  env: NodeJS.ProcessEnv,
  log: string,
  script = ['src/main.ts'],
  name = 'app',
  /** Started under `nice -n <niceness>` (a worker below the web process's priority). */
  niceness?: number,
): Promise<Server> {
  const fd = openSync(log, 'w');
  const args = ['--expose-gc', '--import', PROBE, '--import', 'tsx', ...script];
  const [command, argv] =
    niceness === undefined
      ? [process.execPath, args]
      : ['nice', ['-n', String(niceness), process.execPath, ...args]];
  const child = spawn(command, argv, { cwd, env, stdio: ['ignore', fd, fd, 'ipc'] });
  closeSync(fd);
  for (const deadline = Date.now() + 120_000; ; await sleep(100)) {
    const m = /(?:Parley is ready|Floor ready): http:\/\/[^:]+:(\d+)/.exec(
      readFileSync(log, 'utf8').slice(0, 20_000),
    );
    if (m?.[1]) {
      const base = `http://127.0.0.1:${m[1]}`;
      const memory = () =>
        new Promise<NodeJS.MemoryUsage>((resolve) => {
          child.once('message', (msg) => resolve((msg as { mem: NodeJS.MemoryUsage }).mem));
          child.send('mem');
        });
      return { name, child, base, memory };
    }
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server did not start:\n${readFileSync(log, 'utf8').slice(-4000)}`);
    }
  }
}

export { scratchDatabase, stopProcess as stopServer } from './support.ts';

/**
 * The floor: a bare node:http server that holds server-sent event streams open (the app's headers
 * and its 15 s keep-alive comment) in a map by session id, and on any POST `{conversationId,
 * content}` writes one event of the app's size to the streams of the session of that id, then
 * answers 201. Nothing else: no database, no checks. Runs in its own process (widget.ts --floor).
 */
export function startFloor() {
  const open = new Map<string, Set<ServerResponse>>();
  const server = createServer((req, res) => {
    if (req.method === 'POST') {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => {
        body += c;
      });
      req.on('end', () => {
        const { conversationId, content } = JSON.parse(body) as { conversationId: string; content: string };
        const message = { id: `msg_${randomBytes(13).toString('hex')}`, role: 'assistant', content };
        const event = {
          type: 'message',
          message: {
            ...message,
            createdAt: new Date().toISOString(),
            citations: [],
            author: { type: 'agent', name: 'Support agent', avatarUrl: null },
          },
        };
        const line = `data: ${JSON.stringify(event)}\n\n`;
        for (const r of open.get(conversationId) ?? []) r.write(line);
        res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ data: message }));
      });
      return;
    }
    if (req.url === '/healthz') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":{}}');
      return;
    }
    const key = (req.url ?? '').split('/').at(-2) ?? '';
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'access-control-allow-origin': String(req.headers.origin ?? '*'),
    });
    res.flushHeaders();
    const set = open.get(key) ?? new Set();
    open.set(key, set.add(res));
    const timer = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
    timer.unref();
    res.on('close', () => {
      clearInterval(timer);
      set.delete(res);
      if (!set.size) open.delete(key);
    });
  });
  server.listen(0, '127.0.0.1', () => {
    process.stdout.write(`Floor ready: http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
  });
  process.on('SIGTERM', () => process.exit(0));
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Straight into the database: an owner with a session, an Enterprise workspace, a chat:write key. */
export async function seed(env: NodeJS.ProcessEnv) {
  const s = await seedOwner(env, {
    plan: 'enterprise',
    monthlyCredits: 1_000_000_000,
    keyScopes: ['chat:write'],
  });
  return { workspaceId: s.workspaceId, cookie: s.cookie, apiKey: s.authorization ?? '' };
}

/**
 * Gives each session a widget conversation, as its first chat would (widget.service.ts: a
 * conversation on channel `widget`, remembered on the session), straight in the database while
 * no server runs: 5,000 real first chats would take most of the run on PGlite. Returns the ids.
 */
export async function seedConversations(env: NodeJS.ProcessEnv, assistantId: string, sessionIds: string[]) {
  const { openDatabase } = await import('../apps/server/src/db/client.ts');
  const { conversations, widgetSessions, assistants } = await import('../apps/server/src/db/schema/index.ts');
  const { newId } = await import('../apps/server/src/lib/ids.ts');
  const { eq } = await import('drizzle-orm');
  const database = env.DATABASE_URL
    ? await openDatabase({ kind: 'postgres', url: env.DATABASE_URL, poolSize: 2 })
    : await openDatabase({ kind: 'pglite', dataDir: join(env.DATA_DIR!, 'pglite') });
  try {
    const { db } = database;
    const [assistant] = await db.select().from(assistants).where(eq(assistants.id, assistantId));
    const ids = sessionIds.map(() => newId('conv'));
    await db.transaction(async (tx) => {
      for (let i = 0; i < ids.length; i += 500) {
        const rows = ids.slice(i, i + 500).map((id) => ({
          ...{ id, workspaceId: assistant!.workspaceId, assistantId, channel: 'widget' as const },
          title: 'Hello, is anyone there?',
        }));
        await tx.insert(conversations).values(rows);
      }
      for (const [i, sessionId] of sessionIds.entries()) {
        await tx
          .update(widgetSessions)
          .set({ conversationId: ids[i]! })
          .where(eq(widgetSessions.id, sessionId));
      }
    });
    return ids;
  } finally {
    await database.close();
  }
}

/** Every socket of the run: streams stay open, so no cap (the default would queue them). */
export const agent = new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });

/**
 * A JSON call; rejects on any status >= 300. `sent` runs when the request gets its socket (with a
 * capped agent, after any wait for a free connection).
 */
export function call(
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: unknown,
  opts: { agent?: Agent; sent?: () => void } = {},
): Promise<{ status: number; data: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(url, {
      method,
      agent: opts.agent ?? agent,
      headers: { ...headers, ...(payload ? { 'content-type': 'application/json' } : {}) },
    });
    if (opts.sent) req.once('socket', opts.sent);
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        text += c;
      });
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        if (status >= 300) return reject(new Error(`${method} ${url}: ${status} ${text.slice(0, 300)}`));
        resolve({ status, data: text ? (JSON.parse(text).data as Record<string, unknown>) : {} });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

export type Session = { sessionId: string; token: string; ip: string };
export type LiveEvent = { type?: string; message?: { content?: string } };
export type OnEvent = (e: LiveEvent, at: number) => void;
export type Stream = { close(): void };

/**
 * Opens `GET .../sessions/{sid}/events` as the widget does and resolves once the server answered
 * 200; `onEvent` gets each `data:` event with the time it arrived (performance.now()).
 */
export function openStream(base: string, assistantId: string, s: Session, onEvent: OnEvent): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const req: ClientRequest = request(`${base}/api/widget/${assistantId}/sessions/${s.sessionId}/events`, {
      agent,
      headers: { origin: SITE, authorization: `Widget ${s.token}`, 'x-forwarded-for': s.ip },
    });
    req.on('response', (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        return reject(new Error(`events: ${res.statusCode}`));
      }
      res.setEncoding('utf8');
      let raw = '';
      res.on('data', (chunk: string) => {
        const at = performance.now();
        raw += chunk;
        let cut = raw.indexOf('\n\n');
        while (cut >= 0) {
          const block = raw.slice(0, cut);
          raw = raw.slice(cut + 2);
          if (block.startsWith('data: ')) onEvent(JSON.parse(block.slice(6)), at);
          cut = raw.indexOf('\n\n');
        }
      });
      res.on('error', () => undefined);
      resolve({ close: () => req.destroy() });
    });
    req.on('error', reject);
    req.end();
  });
}

/** Runs `fn` over `items` with at most `limit` at a time; returns the results in order. */
export async function pool<T, R>(
  items: T[],
  limit: number,
  fn: (x: T, i: number) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!, i);
      }
    }),
  );
  return out;
}

export const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN;
};
