import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { createContext } from '../../src/bootstrap.ts';
import { loadConfig } from '../../src/config.ts';
import type { AppContext } from '../../src/context.ts';
import { openDatabase } from '../../src/db/client.ts';
import { startJobs } from '../../src/jobs/catalog.ts';
import { onPostgres } from '../support/database.ts';
import { type Dovecot, rawMail, startDovecot } from '../support/dovecot.ts';
import { createAssistant } from '../support/factories.ts';
import { ORIGIN } from '../support/harness.ts';
import { waitFor } from '../support/wait.ts';
import { createWorld, type World } from '../support/world.ts';
import { emailTitles, imapState, saveImapChannel, waitForWatching } from './imap-setup.ts';
import { type EmailEnv, type MailServer, startEmailApp, startMailServer, stopEmailApp } from './support.ts';

/**
 * docs/email.md "IMAP", several processes: two apps on one PostgreSQL database, each running the
 * IMAP job, watch a mailbox with one connection between them (the lease), take each message
 * once, and when the holder stops, the other takes the mailbox over. PGlite is one process only:
 * skipped there.
 */
const runs = onPostgres();
if (!runs) console.warn('two-app IMAP test skipped: it needs DATABASE_URL (PostgreSQL)');

const KEY = randomBytes(32).toString('hex');
let dovecot: Dovecot;
let e: EmailEnv;
let w: World;
let smtp: MailServer;
let second: { ctx: AppContext; app: FastifyInstance; dataDir: string };
let asst: string;
let n = 0;
const mail = (subject: string) =>
  rawMail({ subject, text: `About ${subject}.`, messageId: `two.${++n}.${Date.now()}@example.com` });

/** A second app on the first one's database, with the same ENCRYPTION_KEY (as replicas share it). */
async function secondApp(url: string) {
  const dataDir = mkdtempSync(join(tmpdir(), 'parley-test-'));
  const config = loadConfig({
    PUBLIC_BASE_URL: ORIGIN,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    REDIS_URL: '',
    ENCRYPTION_KEY: KEY,
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  });
  const database = await openDatabase({ kind: 'postgres', url, poolSize: 5 });
  const ctx = createContext(config, database);
  const app = await buildApp(ctx, { logger: false });
  await app.ready();
  return { ctx, app, dataDir };
}

describe.skipIf(!runs)('two apps on one PostgreSQL watching one mailbox', () => {
  beforeAll(async () => {
    dovecot = await startDovecot();
    e = await startEmailApp({ ENCRYPTION_KEY: KEY });
    w = await createWorld(e.t);
    smtp = await startMailServer();
    asst = await createAssistant(e.t, w.owner, w.ws);
    second = await secondApp(e.t.db.url as string);
    e.t.startJobs(['email-imap', 'email-inbound'], { 'email-imap': 300 });
    startJobs(second.ctx, { only: ['email-imap', 'email-inbound'], everyMs: { 'email-imap': 300 } });
  }, 60_000);
  afterAll(async () => {
    if (second) {
      await second.ctx.jobs.stop(5000);
      await second.app.close();
      await second.ctx.database.close();
      rmSync(second.dataDir, { recursive: true, force: true });
    }
    await e?.t.ctx.jobs.stop(5000);
    if (e) await stopEmailApp(e);
    await smtp?.close();
    await dovecot?.stop();
  });

  it('holds one connection between them and takes each message once', async () => {
    await saveImapChannel(e.t, w.owner, asst, dovecot, smtp);
    await waitForWatching(e.t, asst);
    const holder = (await imapState(e.t, asst))?.leaseOwner;
    expect(holder).toBeTruthy();
    // Several passes of both supervisors: still one watcher's connection.
    await new Promise((r) => setTimeout(r, 1500));
    expect(await dovecot.connections()).toBe(1);

    for (let i = 1; i <= 4; i++) await dovecot.append(mail(`Question ${i}`));
    await waitFor(
      async () => (await emailTitles(e.t, w.owner, w.ws, asst)).length === 4,
      15_000,
      'four conversations',
    );
    expect(await emailTitles(e.t, w.owner, w.ws, asst)).toEqual([
      'Question 1',
      'Question 2',
      'Question 3',
      'Question 4',
    ]);
    const state = await imapState(e.t, asst);
    expect(state?.leaseOwner).toBe(holder);
    expect(state?.lastUid).toBe(4);
    expect(await dovecot.connections()).toBe(1);
  });

  it('when the holder stops, the other app takes the mailbox over and the next message', async () => {
    const before = (await imapState(e.t, asst))?.leaseOwner;
    // Which app holds it is up to the race of their first passes: stop the one that does.
    const firstHolds = await (async () => {
      await e.t.ctx.jobs.stop(5000, ['email-imap']);
      const after = (await imapState(e.t, asst))?.leaseOwner;
      return after !== before || after === null;
    })();
    const survivor = firstHolds ? second.ctx : e.t.ctx;
    if (!firstHolds) {
      // The first app was not the holder: restart it and stop the second instead.
      startJobs(e.t.ctx, { only: ['email-imap'], everyMs: { 'email-imap': 300 } });
      await second.ctx.jobs.stop(5000, ['email-imap']);
    }
    await waitFor(
      async () => {
        const s = await imapState(e.t, asst);
        return !!s?.leaseOwner && s.leaseOwner !== before;
      },
      10_000,
      'the other app to take the lease',
    );
    await waitFor(async () => (await dovecot.connections()) === 1, 10_000, 'one connection again');
    await dovecot.append(mail('After the takeover'));
    await waitFor(
      async () => (await emailTitles(e.t, w.owner, w.ws, asst)).includes('After the takeover'),
      15_000,
      'the mail after the takeover',
    );
    expect(survivor.jobs.runs('email-imap')).toBe(true);
    expect((await imapState(e.t, asst))?.lastUid).toBe(5);
  });
});
