import { ImapFlow } from 'imapflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Dovecot, rawMail, startDovecot } from '../support/dovecot.ts';
import { createAssistant } from '../support/factories.ts';
import { waitFor } from '../support/wait.ts';
import { createWorld, type World } from '../support/world.ts';
import {
  emailTitles,
  imapOf,
  imapState,
  patchChannel,
  saveImapChannel,
  statusOf,
  waitForWatching,
} from './imap-setup.ts';
import { type EmailEnv, type MailServer, startEmailApp, startMailServer, stopEmailApp } from './support.ts';

/**
 * docs/email.md "IMAP": a channel reading a real Dovecot (test/support/dovecot.ts) takes the mail
 * that arrives after it was saved, by IDLE within moments, once; mail already there stays; the
 * watcher reconnects after the server restarts, reports a refused login on the channel's status
 * and recovers, stops when the channel is disabled, and follows a changed mailbox.
 */
let dovecot: Dovecot;
let e: EmailEnv;
let w: World;
let smtp: MailServer;
let asst: string;
let n = 0;
const mail = (subject: string) =>
  rawMail({ subject, text: `About ${subject}.`, messageId: `${++n}.${Date.now()}@example.com` });
const titles = () => emailTitles(e.t, w.owner, w.ws, asst);

beforeAll(async () => {
  dovecot = await startDovecot();
  e = await startEmailApp();
  w = await createWorld(e.t);
  smtp = await startMailServer();
  asst = await createAssistant(e.t, w.owner, w.ws);
  // A pass every 300 ms: configuration changes apply quickly; new mail itself comes by IDLE.
  e.t.startJobs(['email-imap', 'email-inbound'], { 'email-imap': 300 });
}, 60_000);
afterAll(async () => {
  await e?.t.ctx.jobs.stop(5000);
  if (e) await stopEmailApp(e);
  await smtp?.close();
  await dovecot?.stop();
});

describe('the IMAP watcher', () => {
  it('takes a message that arrives after the channel is saved, by IDLE within seconds; mail already there stays', async () => {
    await dovecot.append(mail('Already there'));
    await saveImapChannel(e.t, w.owner, asst, dovecot, smtp);
    await waitForWatching(e.t, asst);
    expect((await statusOf(e.t, w.owner, asst)).message).toContain('Watching INBOX');

    await dovecot.append(mail('After saving'));
    // Taken (stored for ingestion, its UID recorded) by IDLE's notice: without it the next look
    // would be a minute away (the safety-net check), and the supervisor does not poll with IDLE.
    const appended = Date.now();
    await waitFor(async () => (await imapState(e.t, asst))?.lastUid === 2, 5000, 'the watcher to take UID 2');
    expect(Date.now() - appended).toBeLessThan(2000);
    await waitFor(async () => (await titles()).includes('After saving'), 10_000, 'the new mail in the inbox');
    expect(await titles()).toEqual(['After saving']);
  });

  it('takes each message once, several arriving together in order', async () => {
    for (const s of ['Batch 1', 'Batch 2', 'Batch 3']) await dovecot.append(mail(s));
    await waitFor(async () => (await titles()).length === 4, 10_000, 'three more conversations');
    expect(await titles()).toEqual(['After saving', 'Batch 1', 'Batch 2', 'Batch 3']);
    expect((await imapState(e.t, asst))?.lastUid).toBe(5);
  });

  it('reconnects after Dovecot restarts (the connection dropped) and takes the next message', async () => {
    await dovecot.restart();
    await dovecot.append(mail('After the restart'));
    await waitFor(
      async () => (await titles()).includes('After the restart'),
      20_000,
      'the mail after the restart',
    );
    expect((await titles()).length).toBe(5);
    expect((await statusOf(e.t, w.owner, asst)).state).toBe('ok');
  });

  it('a refused password sets the status to error; the right one brings it back to ok', async () => {
    await patchChannel(e.t, w.owner, asst, { inbound: imapOf(dovecot, { password: 'not-the-password' }) });
    await waitFor(
      async () => (await statusOf(e.t, w.owner, asst)).state === 'error',
      15_000,
      'the status to say error',
    );
    const failed = await statusOf(e.t, w.owner, asst);
    expect(failed.message).toBe(`IMAP: the server refused the user name or password for ${dovecot.user}`);
    expect(failed.checkedAt).not.toBeNull();

    await patchChannel(e.t, w.owner, asst, { inbound: imapOf(dovecot) });
    await waitFor(
      async () => (await statusOf(e.t, w.owner, asst)).state === 'ok',
      15_000,
      'the status to be ok',
    );
    // The place in the mailbox was kept across the change: what came meanwhile is taken now.
    await dovecot.append(mail('After the fix'));
    await waitFor(async () => (await titles()).includes('After the fix'), 10_000, 'the mail after the fix');
  });

  it('a disabled channel stops watching; enabled again, it takes only what arrives from then on', async () => {
    await patchChannel(e.t, w.owner, asst, { isEnabled: false });
    await waitFor(async () => (await imapState(e.t, asst)) === undefined, 10_000, 'the watcher to stop');
    await dovecot.append(mail('While disabled'));
    await patchChannel(e.t, w.owner, asst, { isEnabled: true });
    await waitForWatching(e.t, asst);
    await dovecot.append(mail('Enabled again'));
    await waitFor(async () => (await titles()).includes('Enabled again'), 10_000, 'the mail after enabling');
    expect(await titles()).not.toContain('While disabled');
  });

  it("a changed mailbox restarts the watcher on it, from that mailbox's UIDNEXT", async () => {
    const c = new ImapFlow({
      host: dovecot.host,
      port: dovecot.port,
      secure: false,
      auth: { user: dovecot.user, pass: dovecot.password },
      logger: false,
    });
    await c.connect();
    await c.mailboxCreate('Support');
    await c.logout();
    await dovecot.append(mail('Old in Support'), 'Support');
    await patchChannel(e.t, w.owner, asst, { inbound: imapOf(dovecot, { mailbox: 'Support' }) });
    await waitFor(
      async () => (await imapState(e.t, asst))?.mailboxKey?.endsWith('/Support') === true,
      10_000,
      'the watcher on Support',
    );
    await dovecot.append(mail('New in Support'), 'Support');
    await dovecot.append(mail('New in INBOX'));
    await waitFor(async () => (await titles()).includes('New in Support'), 10_000, 'the mail in Support');
    const all = await titles();
    expect(all).not.toContain('Old in Support');
    expect(all).not.toContain('New in INBOX');
    expect((await statusOf(e.t, w.owner, asst)).message).toContain('Watching Support');
  });
});

describe('POST /api/assistants/{id}/email/test, its IMAP half against Dovecot', () => {
  const check = async (inbound: object) => {
    const other = await createAssistant(e.t, w.owner, w.ws);
    const res = await e.t.request({
      method: 'POST',
      url: `/api/assistants/${other}/email/test`,
      headers: w.owner.headers,
      payload: {
        address: 'test-only@acme.test',
        displayName: 'Acme',
        inbound,
        smtp: { host: smtp.host, port: smtp.port, secure: false, username: smtp.user, password: smtp.pass },
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { imap: { ok: boolean; message: string }; smtp: { ok: boolean } };
  };

  it('logs in and opens the mailbox, and says in words what went wrong', async () => {
    const good = await check(imapOf(dovecot));
    expect(good.imap.ok).toBe(true);
    expect(good.imap.message).toMatch(
      new RegExp(`^Logged in to ${dovecot.host} as ${dovecot.user}; INBOX holds \\d+ messages$`),
    );
    expect(good.smtp.ok).toBe(true);

    const refused = await check(imapOf(dovecot, { password: 'wrong' }));
    expect(refused.imap).toEqual({
      ok: false,
      message: `The IMAP server ${dovecot.host}:${dovecot.port} refused the user name or password`,
    });
    const missing = await check(imapOf(dovecot, { mailbox: 'Nowhere' }));
    expect(missing.imap).toEqual({
      ok: false,
      message: `The IMAP server ${dovecot.host}:${dovecot.port} has no mailbox Nowhere`,
    });
    // Nothing was saved by the tests.
    const res = await e.t.request({
      method: 'GET',
      url: `/api/assistants/${asst}/email`,
      headers: w.owner.headers,
    });
    expect(res.json().data.inbound.mailbox).toBe('Support');
  });
});
