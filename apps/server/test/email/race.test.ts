import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { createContext } from '../../src/bootstrap.ts';
import type { AppContext } from '../../src/context.ts';
import { openDatabase } from '../../src/db/client.ts';
import { conversations, emailInbound, emailMessages } from '../../src/db/schema/index.ts';
import { ingestEmail } from '../../src/features/email/email.inbound.ts';
import { type StartedJobs, startJobs } from '../../src/jobs/catalog.ts';
import { onPostgres } from '../support/database.ts';
import { waitFor } from '../support/wait.ts';
import { createWorld, type World } from '../support/world.ts';
import {
  compose,
  type EmailChannel,
  type EmailEnv,
  emailChannel,
  type MailServer,
  startEmailApp,
  startMailServer,
  stopEmailApp,
} from './support.ts';

/**
 * docs/email.md "Inbound by forwarding": the same message arriving several times at once, over
 * two server processes sharing one PostgreSQL (forwarded to both, and by IMAP in both), is stored
 * once, processed once and answered once: the unique index on (assistant, Message-ID) decides.
 * PGlite has one connection in one process, so the race needs PostgreSQL.
 */
let e: EmailEnv | undefined;
let smtp: MailServer;
let other: { ctx: AppContext; app: FastifyInstance } | undefined;
const jobs: StartedJobs[] = [];
let w: World;
let ch: EmailChannel;
beforeAll(async () => {
  if (!onPostgres()) return;
  e = await startEmailApp();
  smtp = await startMailServer();
  w = await createWorld(e.t);
  ch = await emailChannel(e.t, w.owner, w.ws, smtp);
  const database = await openDatabase({ kind: 'postgres', url: e.t.db.url ?? '', poolSize: 10 });
  const ctx = createContext(e.t.ctx.config, database);
  const app = await buildApp(ctx, { logger: false });
  await app.ready();
  other = { ctx, app };
  const every = { 'email-inbound': 20, 'email-send': 20 };
  jobs.push(e.t.startJobs(['email-inbound', 'email-send'], every));
  jobs.push(startJobs(ctx, { only: ['email-inbound', 'email-send'], everyMs: every }));
});
afterAll(async () => {
  await Promise.all(jobs.map((j) => j.stop(2000)));
  if (other) {
    await other.app.close();
    await other.ctx.limits.close();
    await other.ctx.fanout.close();
    await other.ctx.database.close();
  }
  if (e) await stopEmailApp(e);
  await smtp?.close();
});

describe.skipIf(!onPostgres())(
  'one Message-ID ten times at once over two processes (PostgreSQL only; skipped on PGlite: set DATABASE_URL)',
  () => {
    it('is stored once, answered once', async () => {
      const app = e!.t;
      const raw = await compose({
        from: 'racer@example.com',
        to: ch.address,
        subject: 'Race',
        messageId: '<race-1@example.com>',
        text: 'Once, please.',
      });
      const posts = Array.from({ length: 10 }, (_, i) => {
        if (i % 3 === 2) return ingestEmail(i % 2 ? app.ctx : other!.ctx, ch.assistantId, raw, 'imap');
        const target = i % 2 ? app.app : other!.app;
        return target
          .inject({
            method: 'POST',
            url: `/api/email/inbound/${ch.token}`,
            headers: { 'content-type': 'message/rfc822' },
            payload: raw,
          })
          .then((r) => {
            expect(r.statusCode).toBe(202);
            return { stored: false };
          });
      });
      await Promise.all(posts);
      await waitFor(() => smtp.sent.some((m) => m.to.includes('racer@example.com')), 15_000, 'answered');
      await new Promise((r) => setTimeout(r, 800));
      const stored = await app.ctx.db
        .select()
        .from(emailInbound)
        .where(eq(emailInbound.messageIdHeader, '<race-1@example.com>'));
      expect(stored).toHaveLength(1);
      expect(stored[0]!.state).toBe('done');
      const sides = await app.ctx.db
        .select()
        .from(emailMessages)
        .where(eq(emailMessages.assistantId, ch.assistantId));
      expect(sides.filter((s) => s.direction === 'inbound')).toHaveLength(1);
      expect(sides.filter((s) => s.direction === 'outbound')).toHaveLength(1);
      expect(
        await app.ctx.db.select().from(conversations).where(eq(conversations.assistantId, ch.assistantId)),
      ).toHaveLength(1);
      expect(smtp.sent.filter((m) => m.to.includes('racer@example.com'))).toHaveLength(1);
    });
  },
);
