import { generateKeyPair, type KeyObject } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { eq, sql } from 'drizzle-orm';
import { dkimSign } from 'mailauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailMessages } from '../../src/db/schema/index.ts';
import { aiRepliesQuery } from '../../src/features/email/email.repo.ts';
import { waitFor } from '../support/wait.ts';
import { createWorld, type World } from '../support/world.ts';
import {
  compose,
  type EmailChannel,
  type EmailEnv,
  emailChannel,
  forward,
  type MailServer,
  startEmailApp,
  startMailServer,
  stopEmailApp,
} from './support.ts';

/**
 * Mail that is stored and not answered (docs/email.md "Not answered", "Authentication"): automatic
 * mail, lists, bounces, Parley's own addresses, more than 10 replies an hour, DMARC failures, checked
 * against a DNS server on loopback.
 */
let e: EmailEnv;
let w: World;
let smtp: MailServer;
let ch: EmailChannel;
beforeAll(async () => {
  // The DNS server answering the checks runs in this busy process: a lookup waits 5 s, not the
  // product's 2 s, before asking again (docs/email.md "Authentication").
  e = await startEmailApp({ EMAIL_DNS_TIMEOUT_MS: '5000' });
  w = await createWorld(e.t);
  smtp = await startMailServer();
  ch = await emailChannel(e.t, w.owner, w.ws, smtp);
  e.t.startJobs(['email-inbound', 'email-send'], { 'email-inbound': 30, 'email-send': 30 });
});
afterAll(async () => {
  await stopEmailApp(e);
  await smtp.close();
});

let seq = 0;
const sentTo = (address: string) => smtp.sent.filter((m) => m.to.includes(address));
const inboundOf = (messageIdHeader: string) =>
  e.t.ctx.db.select().from(emailMessages).where(eq(emailMessages.messageIdHeader, messageIdHeader));
/**
 * Forwards a message and waits until it is processed; its stored email side. The processing may
 * take as long as its checks' bound (here 20 s: four times the DNS timeout above,
 * src/features/email/email.auth.ts) and more.
 */
async function deliver(target: EmailChannel, raw: Buffer) {
  const id = raw.toString().match(/Message-ID: (<[^>]+>)/i)![1]!;
  expect((await forward(e.t, target.token, raw)).statusCode).toBe(202);
  await waitFor(async () => (await inboundOf(id)).length === 1, 30_000, `processed ${id}`);
  const [row] = await inboundOf(id);
  return row!;
}
const mail = (from: string, extra: Record<string, unknown> = {}) =>
  compose({
    from,
    to: ch.address,
    subject: `Question ${++seq}`,
    messageId: `<q${seq}-${process.pid}@x.test>`,
    text: 'Hello?',
    ...extra,
  });
/** No reply went out for a moment after processing. */
const quiet = () => new Promise((r) => setTimeout(r, 400));

describe('not answered', () => {
  it('Auto-Submitted, X-Autoreply, Precedence and List-Id', async () => {
    for (const [headers, reason] of [
      [{ 'Auto-Submitted': 'auto-replied' }, 'auto_submitted'],
      [{ 'Auto-Submitted': 'auto-generated' }, 'auto_submitted'],
      [{ 'X-Autoreply': 'yes' }, 'auto_submitted'],
      [{ Precedence: 'bulk' }, 'bulk'],
      [{ Precedence: 'list' }, 'bulk'],
      [{ Precedence: 'junk' }, 'bulk'],
      [{ 'List-Id': '<news.example.com>' }, 'bulk'],
    ] as const) {
      const from = `auto${seq}@example.com`;
      const row = await deliver(ch, await mail(from, { headers }));
      expect(row.notAnswered, JSON.stringify(headers)).toBe(reason);
      await quiet();
      expect(sentTo(from)).toHaveLength(0);
    }
    // Auto-Submitted: no is a person's mail.
    const row = await deliver(ch, await mail('person@example.com', { headers: { 'Auto-Submitted': 'no' } }));
    expect(row.notAnswered).toBeNull();
    await waitFor(() => sentTo('person@example.com').length === 1, 10_000, 'answered');
  });

  it('bounces and delivery reports', async () => {
    const report = Buffer.from(
      [
        'From: Mail Delivery System <MAILER-DAEMON@mx.example.com>',
        `To: ${ch.address}`,
        'Subject: Undelivered Mail Returned to Sender',
        `Message-ID: <bounce-${process.pid}@mx.example.com>`,
        'MIME-Version: 1.0',
        'Content-Type: multipart/report; report-type=delivery-status; boundary="b1"',
        '',
        '--b1',
        'Content-Type: text/plain',
        '',
        'I could not deliver your message.',
        '--b1',
        'Content-Type: message/delivery-status',
        '',
        'Reporting-MTA: dns; mx.example.com',
        '',
        'Final-Recipient: rfc822; gone@example.com',
        'Action: failed',
        'Status: 5.1.1',
        '--b1--',
        '',
      ].join('\r\n'),
    );
    expect((await deliver(ch, report)).notAnswered).toBe('bounce');
    const daemon = await deliver(ch, await mail('mailer-daemon@example.org'));
    expect(daemon.notAnswered).toBe('bounce');
    await quiet();
    expect(sentTo('mailer-daemon@example.org')).toHaveLength(0);
  });

  it("the channel's own mail, and two assistants writing to each other stop at once", async () => {
    expect((await deliver(ch, await mail(ch.address))).notAnswered).toBe('own_address');
    // A second assistant; mail between them is relayed as a mail server would deliver it.
    const other = await emailChannel(e.t, w.owner, w.ws, smtp);
    const channels = [ch, other];
    smtp.onMail = (m) => {
      for (const to of m.to) {
        const target = channels.find((c) => c.address === to);
        if (target) void forward(e.t, target.token, m.raw);
      }
    };
    try {
      const before = smtp.sent.length;
      const first = await deliver(ch, await mail(other.address));
      expect(first.notAnswered).toBe('own_address');
      // And the other way round: B does not answer A.
      expect((await deliver(other, await mail(ch.address, { to: other.address }))).notAnswered).toBe(
        'own_address',
      );
      await new Promise((r) => setTimeout(r, 1500));
      expect(smtp.sent.length).toBe(before);
    } finally {
      smtp.onMail = undefined;
    }
  });

  it('at most 10 AI replies to one sender an hour', async () => {
    const from = 'chatty@example.com';
    for (let i = 0; i < 10; i++) expect((await deliver(ch, await mail(from))).notAnswered).toBeNull();
    await waitFor(() => sentTo(from).length === 10, 20_000, '10 replies');
    expect((await deliver(ch, await mail(from))).notAnswered).toBe('rate_limited');
    await quiet();
    expect(sentTo(from)).toHaveLength(10);
  });

  it("counts a sender's replies from its index, not by reading the channel's every email", async () => {
    // Seq scans off: the plan shows which index the count can use at any size (migration 0035).
    const plan = await e.t.ctx.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      const query = aiRepliesQuery(tx, w.ws, ch.assistantId, 'chatty@example.com', new Date(0));
      return tx.execute(sql`explain ${query.getSQL()}`);
    });
    const rows = plan as unknown as { rows: Record<string, string>[] } | Record<string, string>[];
    const lines = Array.isArray(rows) ? rows : rows.rows;
    expect(lines.map((l) => Object.values(l)[0]).join('\n')).toContain('email_messages_ai_reply_idx');
  });

  it('aiReplies false stores mail for the inbox only', async () => {
    const quietCh = await emailChannel(e.t, w.owner, w.ws, smtp, { aiReplies: false });
    const raw = await compose({
      from: 'x@example.com',
      to: quietCh.address,
      subject: 'Hi',
      messageId: `<off-${process.pid}@x.test>`,
      text: 'Hi',
    });
    expect((await deliver(quietCh, raw)).notAnswered).toBe('ai_replies_off');
  });
});

describe('SPF, DKIM, DMARC', () => {
  // Its waits add up to more than the default 30 s a test has, on a busy machine.
  it('a DMARC failure is marked and not answered; a signed aligned message passes', {
    timeout: 90_000,
  }, async () => {
    const zone = e.dns.zone;
    zone.set('spoofed.test', ['v=spf1 ip4:203.0.113.5 -all']);
    zone.set('_dmarc.spoofed.test', ['v=DMARC1; p=reject']);
    const spoof = await mail('ceo@spoofed.test', {
      headers: {
        'Return-Path': '<ceo@spoofed.test>',
        Received:
          'from mail.evil.test (mail.evil.test [198.51.100.7]) by mx.acme.test with ESMTP id 1; Tue, 24 Nov 2026 10:00:00 +0000',
      },
    });
    const marked = await deliver(ch, spoof);
    expect(marked.auth).toEqual({ spf: 'fail', dkim: 'none', dmarc: 'fail' });
    expect(marked.marked).toBe(true);
    expect(marked.notAnswered).toBe('dmarc_fail');
    await quiet();
    expect(sentTo('ceo@spoofed.test')).toHaveLength(0);
    const shown = await e.t.request({
      method: 'GET',
      url: `/api/inbox/conversations/${marked.conversationId}/messages`,
      headers: w.owner.headers,
    });
    expect(shown.json().data[0].email).toMatchObject({ marked: true, authentication: { dmarc: 'fail' } });

    // Made off the event loop: the synchronous form held it for up to 1.9 s on a loaded machine.
    const { privateKey, publicKey } = await new Promise<{ privateKey: KeyObject; publicKey: KeyObject }>(
      (resolve, reject) =>
        generateKeyPair('rsa', { modulusLength: 2048 }, (err, publicKey, privateKey) =>
          err ? reject(err) : resolve({ publicKey, privateKey }),
        ),
    );
    const p = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    const record = `v=DKIM1; k=rsa; p=${p}`;
    zone.set('sel._domainkey.signed.test', [[record.slice(0, 200), record.slice(200)]]);
    zone.set('_dmarc.signed.test', ['v=DMARC1; p=reject']);
    zone.set('signed.test', ['v=spf1 ip4:203.0.113.5 -all']);
    const unsigned = await mail('ana@signed.test', {
      headers: {
        'Return-Path': '<ana@signed.test>',
        Received:
          'from mail.signed.test (mail.signed.test [198.51.100.9]) by mx.acme.test; Tue, 24 Nov 2026 10:00:00 +0000',
      },
    });
    // mailauth reads the keys from signatureData (its type declares only the single-key fields).
    const signature = await dkimSign(unsigned, {
      signatureData: [
        {
          signingDomain: 'signed.test',
          selector: 'sel',
          privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
        },
      ],
    } as never);
    const signed = Buffer.concat([Buffer.from(signature.signatures), unsigned]);
    const ok = await deliver(ch, signed);
    expect(ok.auth).toMatchObject({ dkim: 'pass', dmarc: 'pass' });
    expect(ok.marked).toBe(false);
    await waitFor(() => sentTo('ana@signed.test').length === 1, 10_000, 'answered');
  });
  it('a DNS server that does not answer: temperror, which is no failure (the mail is answered)', async () => {
    // Reads the questions and never answers; the lookups give up after EMAIL_DNS_TIMEOUT_MS and
    // one retry.
    const silent = createSocket('udp4');
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
    const other = await startEmailApp({
      EMAIL_DNS_SERVERS: `127.0.0.1:${silent.address().port}`,
      EMAIL_DNS_TIMEOUT_MS: '200',
    });
    try {
      const ow = await createWorld(other.t);
      const och = await emailChannel(other.t, ow.owner, ow.ws, smtp);
      other.t.startJobs(['email-inbound', 'email-send'], { 'email-inbound': 30, 'email-send': 30 });
      const raw = await compose({
        from: 'ines@unanswered.test',
        to: och.address,
        subject: 'No DNS',
        messageId: `<nodns-${process.pid}@x.test>`,
        text: 'Hello?',
        headers: {
          'Return-Path': '<ines@unanswered.test>',
          Received:
            'from mail.unanswered.test (mail.unanswered.test [198.51.100.11]) by mx.acme.test; Tue, 24 Nov 2026 10:00:00 +0000',
        },
      });
      expect((await forward(other.t, och.token, raw)).statusCode).toBe(202);
      const id = `<nodns-${process.pid}@x.test>`;
      const rows = () =>
        other.t.ctx.db.select().from(emailMessages).where(eq(emailMessages.messageIdHeader, id));
      await waitFor(async () => (await rows()).length === 1, 30_000, 'processed');
      const [row] = await rows();
      expect(row!.auth).toEqual({ spf: 'temperror', dkim: 'none', dmarc: 'temperror' });
      expect(row!.marked).toBe(false);
      expect(row!.notAnswered).toBeNull();
      await waitFor(() => sentTo('ines@unanswered.test').length === 1, 10_000, 'answered');
    } finally {
      await stopEmailApp(other);
      silent.close();
    }
  });
});
