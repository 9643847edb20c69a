import { eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { createContext } from '../../src/bootstrap.ts';
import type { AppContext } from '../../src/context.ts';
import { openDatabase } from '../../src/db/client.ts';
import { messages, smsInbound, smsOutbound, workspaceCredits } from '../../src/db/schema/index.ts';
import { type StartedJobs, startJobs } from '../../src/jobs/catalog.ts';
import { onPostgres } from '../support/database.ts';
import type { TestApp } from '../support/harness.ts';
import type { SmsProvider } from '../support/sms-provider.ts';
import { waitFor } from '../support/wait.ts';
import { createWorld, type World } from '../support/world.ts';
import { inbound, newMessageSid, smsApp, smsLine } from './helpers.ts';

/**
 * docs/sms.md "Inbound messages": the provider may post the same message several times at once;
 * on two server processes sharing one PostgreSQL (two pools, two contexts, each with its own
 * `sms-inbound` and `sms-send` jobs) five copies of one provider message id give one stored
 * message, one reply sent and one credit. PGlite has one connection in one process, so the race
 * needs PostgreSQL.
 */
let t: TestApp | undefined;
let provider: SmsProvider;
let other: { ctx: AppContext; app: FastifyInstance } | undefined;
const jobs: StartedJobs[] = [];
let w: World;
beforeAll(async () => {
  if (!onPostgres()) return;
  ({ t, provider } = await smsApp());
  w = await createWorld(t);
  // A second "process": its own pool, context, app and jobs on the same database.
  const database = await openDatabase({ kind: 'postgres', url: t.db.url ?? '', poolSize: 10 });
  const ctx = createContext(t.ctx.config, database);
  const app = await buildApp(ctx, { logger: false });
  await app.ready();
  other = { ctx, app };
  const every = { 'sms-inbound': 20, 'sms-send': 50 };
  jobs.push(t.startJobs(['sms-inbound', 'sms-send'], every));
  jobs.push(startJobs(ctx, { only: ['sms-inbound', 'sms-send'], everyMs: every }));
});
afterAll(async () => {
  await Promise.all(jobs.map((j) => j.stop(2000)));
  if (other) {
    await other.app.close();
    await other.ctx.limits.close();
    await other.ctx.fanout.close();
    await other.ctx.database.close();
  }
  await t?.close();
  await provider?.close();
});

const used = async (app: TestApp, ws: string) =>
  (await app.ctx.db.select().from(workspaceCredits).where(eq(workspaceCredits.workspaceId, ws)))[0]?.used ??
  0;

describe.skipIf(!onPostgres())(
  'the same provider message id five times at once, over two processes (PostgreSQL only; skipped on PGlite: set DATABASE_URL)',
  () => {
    it('one message, one reply, one credit, for each of 8 messages from 8 senders posted 5 times each', async () => {
      const app = t as TestApp;
      const second = other as { app: FastifyInstance };
      const line = await smsLine(app, provider, w.owner, w.ws);
      const before = await used(app, w.ws);
      const senders = Array.from(
        { length: 8 },
        (_, i) => `+1666${String(process.pid % 1000).padStart(3, '0')}${String(i).padStart(4, '0')}`,
      );
      const sids = senders.map(() => newMessageSid());
      // 40 posts at once: each message's five copies alternate between the two processes.
      const posts = senders.flatMap((from, i) =>
        Array.from({ length: 5 }, (_, copy) =>
          inbound(copy % 2 === 0 ? app : second, line, from, `question ${i}`, { sid: sids[i] as string }),
        ),
      );
      const results = await Promise.all(posts);
      expect(results.map((r) => r.statusCode)).toEqual(Array(40).fill(200));

      const rows = () =>
        app.ctx.db.select().from(smsInbound).where(eq(smsInbound.assistantId, line.assistantId));
      await waitFor(async () => (await rows()).every((r) => r.state === 'done'), 20_000, 'all answered');
      await waitFor(
        async () =>
          (
            await app.ctx.db.select().from(smsOutbound).where(eq(smsOutbound.assistantId, line.assistantId))
          ).every((o) => o.state === 'sent'),
        20_000,
        'all sent',
      );
      const stored = await rows();
      expect(stored).toHaveLength(8);
      expect(new Set(stored.map((r) => r.providerSid))).toEqual(new Set(sids));

      // One reply sent per message, to its sender.
      for (const from of senders) expect(provider.sent.filter((m) => m.to === from)).toHaveLength(1);
      // One customer message and one AI message per conversation.
      const conversationIds = stored.map((r) => r.conversationId as string);
      expect(new Set(conversationIds).size).toBe(8);
      const all = await app.ctx.db
        .select()
        .from(messages)
        .where(inArray(messages.conversationId, conversationIds));
      expect(all.filter((m) => m.role === 'user')).toHaveLength(8);
      expect(all.filter((m) => m.role === 'assistant')).toHaveLength(8);
      // One credit per message.
      expect((await used(app, w.ws)) - before).toBe(8);
    });
  },
);
