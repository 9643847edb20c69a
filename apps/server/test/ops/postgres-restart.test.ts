import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { createContext } from '../../src/bootstrap.ts';
import { loadConfig } from '../../src/config.ts';
import { isDatabaseUnavailable, openDatabase } from '../../src/db/client.ts';
import { JOB_NAMES } from '../../src/jobs/catalog.ts';
import { onPostgres } from '../support/database.ts';
import { ORIGIN } from '../support/harness.ts';
import { canRunPrivateCluster, freePort, type PgCluster, startPgCluster } from '../support/pg-cluster.ts';
import { Receiver } from '../support/receiver.ts';
import { waitFor } from '../support/wait.ts';
import { type Server, serverEnv, startServer } from './process.ts';

/**
 * docs/configuration.md "When PostgreSQL or Redis goes away": a real server process on a private
 * PostgreSQL cluster (its own port and directory: the machine's shared server, which other test files
 * use meanwhile, is never touched) is put under load (agent messages through the v1 API, each one a
 * `message.created` webhook, and streamed chats) while the cluster is stopped and started again.
 * The process must not crash; every answer in the gap is a success or a 503 with Retry-After; /readyz
 * says not ready during the gap and ready within 30 s of the database's return; and every write
 * that answered 2xx is in the database, each agent message with its event, delivered to the webhook
 * receiver.
 */
const serverDir = fileURLToPath(new URL('../..', import.meta.url));

let cluster: PgCluster | undefined;
let server: Server | undefined;
let rx: Receiver | undefined;
afterAll(async () => {
  server?.kill();
  if (server) await server.exited;
  await rx?.close();
  await cluster?.destroy();
  if (server) rmSync(server.dataDir, { recursive: true, force: true });
});

type Outcome = {
  kind: 'v1' | 'chat';
  status: number;
  at: number;
  retryAfter: string | null;
  code?: string;
  /** v1: the stored message; chat: the reply's message when the stream finished. */
  id?: string | null;
  /** chat: the last stream event's type. */
  last?: string;
  /** chat: the conversation the stream named (X-Conversation-Id). */
  conversation?: string | null;
  error?: string;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a PostgreSQL that does not answer (runs on every pass: nothing listens on the port)', () => {
  it('answers 503 service_unavailable:api with Retry-After, and /readyz 503 with Retry-After', async () => {
    const port = await freePort();
    const database = await openDatabase({ kind: 'postgres', url: `postgres://postgres@127.0.0.1:${port}/x` });
    const config = loadConfig({
      PUBLIC_BASE_URL: ORIGIN,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'parley-test-')),
      REDIS_URL: '',
    });
    const ctx = createContext(config, database);
    const app = await buildApp(ctx, { logger: false });
    try {
      const res = await app.inject({
        method: 'GET',
        url: '/api/auth/session',
        headers: { cookie: 'parley.session-token=some-token-value', origin: ORIGIN },
      });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        error: 'The database cannot be reached right now; retry shortly',
        code: 'service_unavailable:api',
      });
      expect(res.headers['retry-after']).toBe('5');
      const write = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { origin: ORIGIN },
        payload: { email: 'someone@example.com', password: 'long enough pw' },
      });
      expect(write.statusCode).toBe(503);
      const ready = await app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.headers['retry-after']).toBe('5');
      expect(ready.json()).toEqual({ status: 'unavailable' });
    } finally {
      await app.close();
      await ctx.limits.close();
      await database.close();
      rmSync(config.dataDir, { recursive: true, force: true });
    }
  });

  it('takes only the database for the database: an outbound ECONNREFUSED or a pool we closed is not an outage', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    expect(isDatabaseUnavailable(refused)).toBe(false);
    expect(isDatabaseUnavailable(new Error('fetch failed', { cause: refused }))).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error('terminating connection'), { code: '57P01' }))).toBe(
      true,
    );
    const port = await freePort();
    const database = await openDatabase({ kind: 'postgres', url: `postgres://postgres@127.0.0.1:${port}/x` });
    const down = await database.db.execute(sql`select 1`).catch((err: unknown) => err);
    expect(isDatabaseUnavailable(down)).toBe(true);
    await database.close();
    const closed = await database.db.execute(sql`select 1`).catch((err: unknown) => err);
    expect(closed).toBeInstanceOf(Error);
    expect(isDatabaseUnavailable(closed)).toBe(false);
  });
});

describe.skipIf(!onPostgres() || !canRunPrivateCluster())(
  'PostgreSQL restarted while serving (PostgreSQL only: skipped on PGlite, which has no server to restart, and where initdb/pg_ctl are missing)',
  () => {
    it('no crash, 503 with Retry-After in the gap, recovery within 30 s, no 2xx write, event or webhook delivery lost', {
      timeout: 180_000,
    }, async () => {
      cluster = await startPgCluster();
      rx = await new Receiver().start();
      const hookUrl = rx.on('/hook', () => ({ status: 200 }));
      server = startServer(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
        cwd: serverDir,
        env: serverEnv({
          DATABASE_URL: cluster.url,
          DATABASE_POOL_SIZE: '10',
          LOG_LEVEL: 'info',
          WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
          WEBHOOK_TIMEOUT_MS: '3000',
          WEBHOOK_RETRY_DELAYS_A: '1,1,1,1,1,1,1,1',
          API_RATE_LIMIT_PER_MINUTE: '100000',
          SHUTDOWN_GRACE_MS: '2000',
        }),
      });
      const base = (await server.ready).replace('localhost', '127.0.0.1');

      // Setup through the API, as a user would.
      const json = async (path: string, body: unknown, headers: Record<string, string>) => {
        const res = await fetch(`${base}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: base, ...headers },
          body: JSON.stringify(body),
        });
        const text = await res.text();
        if (res.status >= 300) throw new Error(`${path}: ${res.status} ${text}`);
        return { res, data: text ? JSON.parse(text).data : undefined };
      };
      const signup = await json(
        '/api/auth/signup',
        { email: 'ops@example.com', password: 'a long password', name: 'Ops' },
        {},
      );
      const cookie = (signup.res.headers.get('set-cookie') ?? '').split(';')[0]!;
      const session = { cookie };
      const ws = (await json('/api/workspaces', { name: 'Acme' }, session)).data.id as string;
      const key = (
        await json(`/api/workspaces/${ws}/api-keys`, { name: 'load', scopes: ['chat:write'] }, session)
      ).data.key as string;
      const assistantId = (await json('/api/assistants', { workspaceId: ws, name: 'Helper' }, session)).data
        .id as string;
      await json(`/api/workspaces/${ws}/webhooks`, { url: hookUrl, events: ['message.created'] }, session);
      const first = await fetch(`${base}/api/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: base, cookie },
        // Handed to a person at once: the v1 surface and webhooks reach only the chats the inbox
        // shows (test/v1/private-chats.test.ts).
        body: JSON.stringify({ assistantId, content: 'I need to speak to a person' }),
      });
      await first.text();
      const conversationId = first.headers.get('x-conversation-id')!;
      expect(conversationId).toMatch(/^conv_/);

      // Load: agent messages through the v1 API, chats through the session, readiness probes.
      const outcomes: Outcome[] = [];
      const ready: { at: number; status: number }[] = [];
      let running = true;
      let n = 0;
      const postMessage = async (): Promise<Outcome> => {
        const at = Date.now();
        try {
          const res = await fetch(`${base}/api/v1/messages`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
            body: JSON.stringify({ conversationId, content: `load ${n++}` }),
          });
          const body = await res.json().catch(() => ({}));
          return {
            kind: 'v1',
            status: res.status,
            at,
            retryAfter: res.headers.get('retry-after'),
            code: body.code,
            id: body.data?.id,
          };
        } catch (err) {
          return { kind: 'v1', status: 0, at, retryAfter: null, error: String(err) };
        }
      };
      const postChat = async (): Promise<Outcome> => {
        const at = Date.now();
        try {
          const res = await fetch(`${base}/api/chat`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', origin: base, cookie },
            body: JSON.stringify({ assistantId, content: `question ${n++}` }),
          });
          const text = await res.text();
          const events = text
            .split('\n')
            .filter((l) => l.startsWith('data: '))
            .map((l) => JSON.parse(l.slice(6)) as { type: string; messageId?: string; code?: string });
          const last = events.at(-1);
          const error = res.status !== 200 ? (JSON.parse(text) as { code?: string }) : undefined;
          return {
            kind: 'chat',
            status: res.status,
            at,
            retryAfter: res.headers.get('retry-after'),
            code: error?.code ?? last?.code,
            id: last?.type === 'finish' ? last.messageId : undefined,
            last: last?.type,
            conversation: res.headers.get('x-conversation-id'),
          };
        } catch (err) {
          return { kind: 'chat', status: 0, at, retryAfter: null, error: String(err) };
        }
      };
      const loop = async (step: () => Promise<Outcome>) => {
        while (running) {
          const o = await step();
          outcomes.push(o);
          // Paced, not a wait for anything: load keeps coming through the gap.
          await sleep(o.status === 200 || o.status === 201 ? 20 : 100);
        }
      };
      const probe = async () => {
        while (running) {
          const res = await fetch(`${base}/readyz`).catch(() => undefined);
          ready.push({ at: Date.now(), status: res?.status ?? 0 });
          if (res?.status === 503) expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
          await res?.text();
          await sleep(200);
        }
      };
      // Light on purpose: other test files share the machine's two cores meanwhile.
      const workers = [loop(postMessage), loop(postMessage), loop(postChat), probe()];
      const ok = (o: Outcome, since = 0) =>
        o.at >= since && (o.status === 201 || (o.kind === 'chat' && !!o.id));

      await waitFor(
        () =>
          outcomes.filter((o) => ok(o) && o.kind === 'v1').length >= 20 &&
          outcomes.some((o) => ok(o) && o.kind === 'chat'),
        30_000,
        'load before the restart',
      );

      // The gap: stopped (every session ended, new connections refused) until requests have seen it.
      const stoppedAt = Date.now();
      await cluster.stop();
      await waitFor(
        () =>
          outcomes.some((o) => o.kind === 'v1' && o.status === 503 && o.at >= stoppedAt) &&
          ready.some((r) => r.status === 503 && r.at >= stoppedAt),
        20_000,
        'a 503 answer and a not-ready /readyz in the gap',
      );
      await cluster.start();
      const backAt = Date.now();
      // Recovery by itself within 30 s of the database's return: ready, and writes succeed again.
      await waitFor(
        () =>
          ready.some((r) => r.status === 200 && r.at >= backAt) &&
          outcomes.some((o) => o.kind === 'v1' && o.status === 201 && o.at >= backAt),
        30_000,
        'ready and writing again within 30 s of the database coming back',
      );
      const recoveredAt = Date.now();
      await waitFor(
        () =>
          outcomes.filter((o) => ok(o, recoveredAt) && o.kind === 'v1').length >= 20 &&
          outcomes.some((o) => ok(o, recoveredAt) && o.kind === 'chat'),
        30_000,
        'load after the restart',
      );
      running = false;
      await Promise.all(workers);

      // Never a crash.
      expect(server.child.exitCode).toBeNull();

      // Every answer: a success, or 503 service_unavailable:api with Retry-After. Nothing else.
      const bad = outcomes.filter(
        (o) =>
          !(o.status === 201 || (o.kind === 'chat' && o.status === 200)) &&
          !(o.status === 503 && o.code === 'service_unavailable:api' && /^\d+$/.test(o.retryAfter ?? '')),
      );
      expect(bad).toEqual([]);
      // A chat stream that failed after it started says so in its last event, as an outage.
      for (const o of outcomes.filter((x) => x.kind === 'chat' && x.status === 200)) {
        expect(o.last === 'finish' || o.last === 'error', JSON.stringify(o)).toBe(true);
        expect(['service_unavailable:api', undefined]).toContain(o.code);
      }
      // Whatever step the outage broke (storing the turn, retrieval, storing the reply), a reply
      // that fails mid-stream in the gap is told as an outage, not as a bug.
      expect(outcomes.filter((o) => o.kind === 'chat' && o.code === 'internal_server_error:api')).toEqual([]);
      const gap = outcomes.filter((o) => o.status === 503);
      expect(gap.length).toBeGreaterThan(0);

      // Every 2xx write is stored, with its event, and its webhook reached the receiver. The
      // streamed chats are members' private ones, which record no event (docs/webhooks.md
      // "Internal chats"): their events are the v1 messages' only.
      const written = outcomes.filter((o) => o.id).map((o) => o.id!);
      expect(written.length).toBeGreaterThan(40);
      const shared = outcomes.filter((o) => o.kind === 'v1' && o.id).map((o) => o.id!);
      const db = new pg.Client({ connectionString: cluster.url });
      await db.connect();
      try {
        const stored = await db.query<{ id: string }>('select id from messages where id = any($1)', [
          written,
        ]);
        expect(new Set(stored.rows.map((r) => r.id))).toEqual(new Set(written));
        const events = await db.query<{ id: string }>(
          `select data->>'id' as id from events where type = 'message.created' and data->>'id' = any($1)`,
          [written],
        );
        expect(new Set(events.rows.map((r) => r.id))).toEqual(new Set(shared));
        // A finished chat kept both sides: the customer's message and the reply.
        const chats = outcomes.filter((o) => o.kind === 'chat' && o.id).map((o) => o.conversation!);
        const sides = await db.query<{ conversation_id: string; roles: string[] }>(
          'select conversation_id, array_agg(role order by created_at, id) as roles from messages where conversation_id = any($1) group by conversation_id',
          [chats],
        );
        expect(sides.rows).toHaveLength(chats.length);
        for (const row of sides.rows) expect(row.roles).toEqual(['user', 'assistant']);
      } finally {
        await db.end();
      }
      const delivered = () =>
        new Set(rx!.hits('/hook').map((h) => (JSON.parse(h.body) as { data: { id: string } }).data.id));
      await waitFor(
        () => shared.every((id) => delivered().has(id)),
        60_000,
        `every stored message delivered (${shared.filter((id) => !delivered().has(id)).length} missing)`,
      );

      // The outage and the recovery were told in the log, once each per job (not once per request), and
      // the jobs' LISTEN connection came back by itself.
      const lines = (pattern: RegExp) =>
        server!
          .output()
          .split('\n')
          .filter((l) => pattern.test(l));
      await waitFor(() => lines(/LISTEN is back/).length >= 2, 30_000, 'the LISTEN connection to come back');
      // One LISTEN per channel (parley_events, parley_sms_inbound): each lost once, back once.
      for (const channel of ['parley_events', 'parley_sms_inbound']) {
        const on = (l: string) => l.includes(`"channel":"${channel}"`);
        expect(lines(/LISTEN connection lost/).filter(on), channel).toHaveLength(1);
        expect(lines(/LISTEN is back/).filter(on), channel).toHaveLength(1);
      }
      const paused = lines(/worker paused: the database cannot be reached/);
      // At most once per job of the catalog: how many pause depends on how long the gap lasts
      // against each job's pause between passes (a job that did not reach for the database in it
      // has nothing to pause; seen on CI: none, on a loaded machine: 8 of the catalog's jobs).
      const loops = paused.map((l) => (JSON.parse(l) as { loop: string }).loop);
      expect(new Set(loops).size).toBe(loops.length);
      for (const loop of loops) expect(JOB_NAMES).toContain(loop);
      // A paused job retries every 5 s at most, so its "resumed" line can come a few seconds after
      // the requests work again (seen on CI: 4 of 5 when read at once).
      const resumed = () => lines(/worker resumed: the database answers again/);
      await waitFor(() => resumed().length >= paused.length, 15_000, 'every paused job to resume');
      expect(resumed()).toHaveLength(paused.length);
      expect(lines(/"level":60|Unhandled|uncaught/i)).toEqual([]);
      // Requests answering 503 are told at most once per 10 seconds, not once each.
      const told = lines(/database unavailable; answering 503 until it is back/).length;
      expect(told).toBeGreaterThanOrEqual(1);
      expect(told).toBeLessThanOrEqual(1 + Math.ceil((recoveredAt - stoppedAt) / 10_000));
      const v1 = outcomes.filter((o) => o.kind === 'v1');
      console.info(
        `postgres restart: ${v1.filter((o) => o.status === 201).length} messages stored, ${gap.length} answers 503 in the gap, ` +
          `${outcomes.filter((o) => o.kind === 'chat' && o.id).length} chats finished, ` +
          `${outcomes.filter((o) => o.kind === 'chat' && o.last === 'error').length} chat streams ended with an error event; ` +
          `ready again ${recoveredAt - backAt} ms after the database came back`,
      );
    });
  },
);
