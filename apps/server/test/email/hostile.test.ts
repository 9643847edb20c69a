import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailConfigs, emailMessages, messages } from '../../src/db/schema/index.ts';
import { waitFor } from '../support/wait.ts';
import { createWorld, type World } from '../support/world.ts';
import {
  compose,
  type EmailChannel,
  type EmailEnv,
  emailChannel,
  forward,
  type MailServer,
  newAddress,
  smtpOf,
  startEmailApp,
  startMailServer,
  stopEmailApp,
} from './support.ts';

/**
 * docs/email.md: hostile input on the email routes (wrong types, unknown fields, huge bodies,
 * unicode, odd ids) is a 4xx naming the field, never a 500 and never a change; hostile mail is
 * stored as text, its HTML sanitised, never a crash of the job.
 */
let e: EmailEnv;
let w: World;
let smtp: MailServer;
let ch: EmailChannel;
beforeAll(async () => {
  e = await startEmailApp();
  w = await createWorld(e.t);
  smtp = await startMailServer();
  ch = await emailChannel(e.t, w.owner, w.ws, smtp);
  e.t.startJobs(['email-inbound', 'email-send'], { 'email-inbound': 30, 'email-send': 30 });
});
afterAll(async () => {
  await stopEmailApp(e);
  await smtp.close();
});

const url = () => `/api/assistants/${ch.assistantId}/email`;
const send = (method: 'POST' | 'PATCH', payload: unknown, path = '') =>
  e.t.request({ method, url: url() + path, headers: w.owner.headers, payload: payload as object });
const valid = () => ({
  address: newAddress(),
  displayName: 'Support',
  inbound: { mode: 'forward' },
  smtp: smtpOf(smtp),
});
const stored = async () =>
  (await e.t.ctx.db.select().from(emailConfigs).where(eq(emailConfigs.assistantId, ch.assistantId)))[0];

describe('hostile configuration bodies', () => {
  const wrong: [string, unknown][] = [
    ['address', 42],
    ['address', 'not-an-address'],
    ['address', `${'a'.repeat(300)}@x.test`],
    ['displayName', ''],
    ['displayName', 'x'.repeat(101)],
    ['displayName', { $gt: '' }],
    ['inbound', { mode: 'pop3' }],
    ['inbound', { mode: 'imap', host: 'h', port: 70000, secure: true, username: 'u', password: 'p' }],
    ['inbound', { mode: 'imap', host: 'a b', port: 993, secure: true, username: 'u', password: 'p' }],
    ['inbound', { mode: 'forward', extra: 1 }],
    ['smtp', { host: 'h', port: '25', secure: false, username: 'u', password: 'p' }],
    ['smtp', []],
    ['aiReplies', 'yes'],
    ['signature', 'x'.repeat(2001)],
    ['isEnabled', null],
    ['unknownField', true],
  ];
  it.each(wrong)('%s = %j → 400, nothing changed', async (field, value) => {
    const before = await stored();
    for (const method of ['POST', 'PATCH'] as const) {
      const res = await send(method, { ...(method === 'POST' ? valid() : {}), [field]: value });
      expect(res.statusCode, `${method} ${res.body}`).toBe(method === 'POST' ? 400 : 400);
      expect(res.body).toContain(field === 'unknownField' ? 'unknownField' : field);
    }
    expect(await stored()).toEqual(before);
  });

  it('bodies that are not objects, a huge body and odd ids', async () => {
    for (const payload of ['"x"', '[]', 'null', '{']) {
      const res = await e.t.request({
        method: 'PATCH',
        url: url(),
        headers: { ...w.owner.headers, 'content-type': 'application/json' },
        payload,
      });
      expect(res.statusCode).toBe(400);
    }
    const huge = await send('PATCH', { signature: 'x'.repeat(3_000_000) });
    expect([400, 413]).toContain(huge.statusCode);
    for (const id of ['asst_nope', 'x'.repeat(300), "'; drop table", '%00']) {
      const res = await e.t.request({
        method: 'GET',
        url: `/api/assistants/${encodeURIComponent(id)}/email`,
        headers: w.owner.headers,
      });
      expect([400, 404]).toContain(res.statusCode);
    }
  });

  it('unicode is kept as sent; a lone surrogate is refused', async () => {
    const res = await send('PATCH', { displayName: 'Soporte 🎧 サポート', signature: 'مع التحية\nÅsa' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.displayName).toBe('Soporte 🎧 サポート');
    expect((await send('PATCH', { displayName: 'bad \ud800' })).statusCode).toBe(400);
  });
});

describe('hostile mail', () => {
  it('forwarding: more than 25 MB is 413; a wrong content type is refused; odd tokens 404', async () => {
    const big = Buffer.alloc(25 * 1024 * 1024 + 10, 97);
    const res = await forward(e.t, ch.token, big);
    expect(res.statusCode).toBe(413);
    const text = await e.t.app.inject({
      method: 'POST',
      url: `/api/email/inbound/${ch.token}`,
      headers: { 'content-type': 'text/plain' },
      payload: 'hello',
    });
    expect(text.statusCode).toBeGreaterThanOrEqual(400);
    expect(text.statusCode).toBeLessThan(500);
    for (const token of ['x', 'x'.repeat(201), '..%2F..%2Fetc']) {
      const r = await forward(e.t, token, 'Subject: x\r\n\r\nx');
      expect([400, 404]).toContain(r.statusCode);
    }
  });

  it('garbage, NUL bytes, lone surrogates and script in mail are stored safely', async () => {
    const bodies = [
      Buffer.from('this is not a mime message at all'),
      Buffer.from(
        `From: nul@example.com\r\nSubject: a\u0000b\r\nMessage-ID: <nul-${process.pid}@x.test>\r\n\r\nhello\u0000world\r\n`,
      ),
      await compose({
        from: '"<script>alert(1)</script>" <evil@example.com>',
        to: ch.address,
        subject: '🎉 Ünïcödé \ud800 subject',
        messageId: `<evil-${process.pid}@x.test>`,
        text: 'Text with lone \ud800 surrogate and emoji 🎧',
        html: '<img src=x onerror=alert(1)><svg onload=alert(2)></svg><iframe src="https://evil.test"></iframe><a href="jAvAsCrIpT:alert(3)">x</a><style>*{display:none}</style><p>kept</p>',
      }),
    ];
    for (const raw of bodies) expect((await forward(e.t, ch.token, raw)).statusCode).toBe(202);
    await waitFor(
      async () =>
        (
          await e.t.ctx.db.select().from(emailMessages).where(eq(emailMessages.assistantId, ch.assistantId))
        ).filter((m) => m.direction === 'inbound').length >= 3,
      15_000,
      'three processed',
    );
    const sides = await e.t.ctx.db
      .select()
      .from(emailMessages)
      .where(eq(emailMessages.assistantId, ch.assistantId));
    const evil = sides.find((s) => s.fromAddress === 'evil@example.com')!;
    expect(evil.html).toContain('<p>kept</p>');
    expect(evil.html).not.toMatch(/onerror|onload|iframe|javascript|<style|<svg/i);
    const [msg] = await e.t.ctx.db.select().from(messages).where(eq(messages.id, evil.messageId));
    expect(msg!.content).toContain('emoji 🎧');
    expect(msg!.content).not.toMatch(
      /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/,
    );
  });
});
