import { ImapFlow } from 'imapflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Dovecot, rawMail, startDovecot } from '../support/dovecot.ts';
import { createAssistant } from '../support/factories.ts';
import { waitFor } from '../support/wait.ts';
import { createWorld, type World } from '../support/world.ts';
import { emailTitles, imapState, saveImapChannel, statusOf, waitForWatching } from './imap-setup.ts';
import { type EmailEnv, type MailServer, startEmailApp, startMailServer, stopEmailApp } from './support.ts';

/**
 * docs/email.md "IMAP": a server that does not announce IDLE is polled on each pass of the
 * supervisor instead. Dovecot here leaves IDLE out of its capabilities.
 */
let dovecot: Dovecot;
let e: EmailEnv;
let w: World;
let smtp: MailServer;

beforeAll(async () => {
  dovecot = await startDovecot({ withoutIdle: true });
  e = await startEmailApp();
  w = await createWorld(e.t);
  smtp = await startMailServer();
  e.t.startJobs(['email-imap', 'email-inbound'], { 'email-imap': 500 });
}, 60_000);
afterAll(async () => {
  await e?.t.ctx.jobs.stop(5000);
  if (e) await stopEmailApp(e);
  await smtp?.close();
  await dovecot?.stop();
});

let n = 0;
const mail = (subject: string) =>
  rawMail({ subject, text: `About ${subject}.`, messageId: `poll.${++n}.${Date.now()}@example.com` });
/** Mailbox administration as a mail client would do it. */
async function admin(work: (c: ImapFlow) => Promise<unknown>) {
  const c = new ImapFlow({
    host: dovecot.host,
    port: dovecot.port,
    secure: false,
    auth: { user: dovecot.user, pass: dovecot.password },
    logger: false,
  });
  await c.connect();
  try {
    await work(c);
  } finally {
    await c.logout();
  }
}

describe('a mailbox on a server without IDLE', () => {
  it('is polled, and new mail is taken within seconds', async () => {
    const asst = await createAssistant(e.t, w.owner, w.ws);
    await saveImapChannel(e.t, w.owner, asst, dovecot, smtp);
    await waitForWatching(e.t, asst);
    expect((await statusOf(e.t, w.owner, asst)).message).toBe(
      `Watching INBOX on ${dovecot.host} as ${dovecot.user} (polling: the server has no IDLE)`,
    );
    await dovecot.append(
      rawMail({ subject: 'Polled', text: 'Hello there.', messageId: `poll.${Date.now()}@example.com` }),
    );
    await waitFor(
      async () => (await emailTitles(e.t, w.owner, w.ws, asst)).includes('Polled'),
      10_000,
      'the polled mail',
    );
  });

  // The watcher opens the mailbox again on each poll: Dovecot does not always end the session of
  // a mailbox deleted and created again (test/email/imap-watcher.test.ts).
  it('starts afresh from UIDNEXT when the mailbox is re-created (UIDVALIDITY changed)', {
    timeout: 120_000,
  }, async () => {
    const box = 'Renumbered';
    const asst = await createAssistant(e.t, w.owner, w.ws);
    await admin(async (c) => c.mailboxCreate(box));
    await saveImapChannel(e.t, w.owner, asst, dovecot, smtp, {}, { mailbox: box });
    await waitForWatching(e.t, asst);
    await dovecot.append(mail('First numbering'), box);
    const titles = () => emailTitles(e.t, w.owner, w.ws, asst);
    await waitFor(async () => (await titles()).includes('First numbering'), 10_000, 'the first mail');
    const before = await imapState(e.t, asst);
    expect(before?.lastUid).toBe(1);

    await admin(async (c) => {
      await c.mailboxDelete(box);
      await c.mailboxCreate(box);
    });
    await waitFor(
      async () => {
        const now = await imapState(e.t, asst);
        return now?.uidValidity !== before?.uidValidity && now?.lastUid === 0;
      },
      // Either the server ends the session (a reconnect: 1 s, 2 s, 4 s, ... while the mailbox is
      // missing) or the next poll opens the mailbox again; longer on a loaded CI machine.
      60_000,
      'the watcher to start afresh',
    );
    // UID 1 again, in the new numbering: taken, not mistaken for the old UID 1.
    await dovecot.append(mail('Second numbering'), box);
    await waitFor(
      async () => (await titles()).includes('Second numbering'),
      30_000,
      'the mail after renumbering',
    );
    expect((await imapState(e.t, asst))?.lastUid).toBe(1);
  });
});
