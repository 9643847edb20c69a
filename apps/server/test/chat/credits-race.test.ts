import { rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversations, messages, workspaceCredits } from '../../src/db/schema/index.ts';
import { periodOf } from '../../src/features/credits/allowance.ts';
import { creditSummary } from '../../src/features/credits/credits.service.ts';
import { now } from '../../src/lib/clock.ts';
import { type Server, serverEnv, startServer } from '../ops/process.ts';
import { type ChatResponse, postChat } from '../support/chat-client.ts';
import { onPostgres } from '../support/database.ts';
import { createAssistant } from '../support/factories.ts';
import { createTestApp, ORIGIN, type TestApp } from '../support/harness.ts';
import { createWorld, type World } from '../support/world.ts';
import { parseEvents } from './helpers.ts';

/**
 * docs/credits.md and docs/decisions/0005-credits.md: with 50 credits left, 200
 * concurrent chats get exactly 50 replies and 150 × 403 `credits_limit_exceeded`, and the counter
 * stops at the limit, within one process and across two server processes on one database. The
 * reservation is one conditional statement, so only PostgreSQL (many connections) can race it;
 * PGlite has a single connection and runs every statement in turn.
 */
const CHATS = 200;
const LEFT = 50;
const serverDir = fileURLToPath(new URL('../..', import.meta.url));

let t: TestApp | undefined;
let w: World;
const servers: Server[] = [];

afterAll(async () => {
  for (const s of servers) s.kill();
  await Promise.all(servers.map((s) => s.exited));
  for (const s of servers) rmSync(s.dataDir, { recursive: true, force: true });
  await t?.close();
});

/** Sets the current period's counter to `limit - left` and returns the limit. */
async function leaveCredits(app: TestApp, workspaceId: string, left: number): Promise<number> {
  const { limit } = await creditSummary(app.ctx, workspaceId);
  const period = periodOf(now());
  const row = { periodStart: period.start, periodEnd: period.end, used: limit - left, updatedAt: now() };
  await app.ctx.db
    .insert(workspaceCredits)
    .values({ workspaceId, ...row })
    .onConflictDoUpdate({ target: workspaceCredits.workspaceId, set: row });
  return limit;
}

/** `CHATS` concurrent chats, request i to `bases[i % bases.length]`, each a new conversation. */
function chatStorm(bases: string[], headers: Record<string, string>, assistantId: string) {
  return Promise.all(
    Array.from({ length: CHATS }, (_, i) => {
      const base = bases[i % bases.length]!;
      const body = JSON.stringify({ assistantId, content: `Question number ${i}` });
      return postChat(`${base}/api/chat`, { headers: { ...headers, origin: headers.origin ?? base }, body });
    }),
  );
}

/** Exactly LEFT replies that end in `finish`, the rest 403 before any stream, nothing more spent or stored. */
async function expectExactSpend(results: ChatResponse[], workspaceId: string, limit: number) {
  const replied = results.filter((r) => r.status === 200);
  const refused = results.filter((r) => r.status === 403);
  expect(replied).toHaveLength(LEFT);
  expect(refused).toHaveLength(CHATS - LEFT);
  for (const r of replied) expect(parseEvents(r.body).at(-1)?.type).toBe('finish');
  for (const r of refused) expect(JSON.parse(r.body).code).toBe('credits_limit_exceeded');

  const db = t!.ctx.db;
  const [credits] = await db
    .select()
    .from(workspaceCredits)
    .where(eq(workspaceCredits.workspaceId, workspaceId));
  expect(credits?.used).toBe(limit);
  const stored = async (role: 'user' | 'assistant') =>
    (
      await db
        .select({ n: count() })
        .from(messages)
        .where(and(eq(messages.workspaceId, workspaceId), eq(messages.role, role)))
    )[0]?.n;
  expect(await stored('assistant')).toBe(LEFT);
  expect(await stored('user')).toBe(LEFT);
  const [convs] = await db
    .select({ n: count() })
    .from(conversations)
    .where(eq(conversations.workspaceId, workspaceId));
  expect(convs?.n).toBe(LEFT);
}

describe.skipIf(!onPostgres())('the last credits under concurrent chats (PostgreSQL only)', () => {
  beforeAll(async () => {
    t = await createTestApp();
    w = await createWorld(t);
  });

  it('one process: 200 chats with 50 credits left give 50 replies and 150 × 403', {
    timeout: 60_000,
  }, async () => {
    const app = t!;
    const assistantId = await createAssistant(app, w.owner, w.ws);
    const limit = await leaveCredits(app, w.ws, LEFT);
    await app.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.app.server.address() as AddressInfo).port}`;
    // The app's configured origin (PUBLIC_BASE_URL) passes the CSRF guard.
    const results = await chatStorm([base], { ...w.owner.headers, origin: ORIGIN }, assistantId);
    await expectExactSpend(results, w.ws, limit);
  });

  it('two server processes on one database: the same totals', { timeout: 90_000 }, async () => {
    const app = t!;
    const assistantId = await createAssistant(app, w.outsider, w.otherWs);
    const limit = await leaveCredits(app, w.otherWs, LEFT);
    const env = () =>
      serverEnv({
        DATABASE_URL: app.db.url!,
        DATABASE_POOL_SIZE: '10',
        ENCRYPTION_KEY: app.ctx.config.encryptionKey.toString('hex'),
        LOG_LEVEL: 'error',
      });
    const start = () =>
      startServer(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: serverDir, env: env() });
    servers.push(start(), start());
    const bases = (await Promise.all(servers.map((s) => s.ready))).map((u) =>
      u.replace('localhost', '127.0.0.1'),
    );
    // Without PUBLIC_BASE_URL each process accepts its own scheme and host as the origin.
    const results = await chatStorm(bases, w.outsider.headers, assistantId);
    await expectExactSpend(results, w.otherWs, limit);
  });
});
