import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailConfigs } from '../../src/db/schema/index.ts';
import { createAssistant } from '../support/factories.ts';
import { createWorld, type World } from '../support/world.ts';
import {
  type EmailEnv,
  forward,
  type MailServer,
  newAddress,
  smtpOf,
  startEmailApp,
  startMailServer,
  stopEmailApp,
} from './support.ts';

/** The channel's configuration and its test (docs/email.md "Configuration"). */
let e: EmailEnv;
let w: World;
let smtp: MailServer;
beforeAll(async () => {
  e = await startEmailApp();
  w = await createWorld(e.t);
  smtp = await startMailServer();
});
afterAll(async () => {
  await stopEmailApp(e);
  await smtp.close();
});

const url = (id: string) => `/api/assistants/${id}/email`;
const req = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', id: string, payload?: unknown, path = '') =>
  e.t.request({ method, url: url(id) + path, headers: w.owner.headers, ...(payload ? { payload } : {}) });
const body = (extra: Record<string, unknown> = {}) => ({
  address: newAddress(),
  displayName: 'Acme Support',
  inbound: { mode: 'forward' },
  smtp: smtpOf(smtp),
  ...extra,
});

describe('email configuration', () => {
  it('creates, reads, patches and deletes; passwords sealed and never returned', async () => {
    const id = await createAssistant(e.t, w.owner, w.ws);
    expect((await req('GET', id)).statusCode).toBe(404);
    const input = body({
      address: newAddress('Mixed.Case'),
      inbound: {
        mode: 'imap',
        host: '127.0.0.1',
        port: 993,
        secure: true,
        username: 'in',
        password: 'imap-pass',
      },
      signature: 'Acme team',
    });
    const created = await req('POST', id, input);
    expect(created.statusCode).toBe(201);
    const data = created.json().data;
    expect(data).toMatchObject({
      address: (input.address as string).toLowerCase(),
      displayName: 'Acme Support',
      inbound: { mode: 'imap', host: '127.0.0.1', port: 993, secure: true, username: 'in', mailbox: 'INBOX' },
      smtp: { host: '127.0.0.1', port: smtp.port, secure: false, username: 'parley' },
      aiReplies: true,
      signature: 'Acme team',
      isEnabled: true,
      status: { state: 'ok', checkedAt: null },
    });
    expect(created.body).not.toContain('imap-pass');
    expect(created.body).not.toContain(smtp.pass);
    const [stored] = await e.t.ctx.db.select().from(emailConfigs).where(eq(emailConfigs.assistantId, id));
    expect(JSON.stringify(stored)).not.toContain('imap-pass');
    expect(JSON.stringify(stored)).not.toContain(smtp.pass);

    expect((await req('POST', id, body())).statusCode).toBe(409);
    const patched = await req('PATCH', id, { inbound: { mode: 'forward' }, aiReplies: false });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().data.inbound.forwardUrl).toMatch(
      /^http:\/\/parley\.test\/api\/email\/inbound\/[\w-]{43}$/,
    );
    expect(patched.json().data.aiReplies).toBe(false);
    // The SMTP password was kept (same host and user).
    expect(patched.json().data.smtp.username).toBe('parley');
    expect((await req('GET', id)).json().data).toEqual(patched.json().data);
    expect((await req('DELETE', id)).statusCode).toBe(204);
    expect((await req('DELETE', id)).statusCode).toBe(404);
    expect((await req('PATCH', id, { aiReplies: true })).statusCode).toBe(404);
  });

  it('one address on one assistant across the server: 409', async () => {
    const a = await createAssistant(e.t, w.owner, w.ws);
    const b = await createAssistant(e.t, w.outsider, w.otherWs);
    const address = newAddress();
    expect((await req('POST', a, body({ address }))).statusCode).toBe(201);
    const res = await e.t.request({
      method: 'POST',
      url: url(b),
      headers: w.outsider.headers,
      payload: body({ address: address.toUpperCase() }),
    });
    expect(res.statusCode).toBe(409);
    const c = await createAssistant(e.t, w.owner, w.ws);
    expect((await req('POST', c, body())).statusCode).toBe(201);
    expect((await req('PATCH', c, { address })).statusCode).toBe(409);
  });

  it('a new host needs its password; one left out is kept for the same host and user', async () => {
    const id = await createAssistant(e.t, w.owner, w.ws);
    const res = await req(
      'POST',
      id,
      body({ inbound: { mode: 'imap', host: 'imap.acme.test', port: 993, secure: true, username: 'u' } }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toHaveProperty(['inbound.password']);
    expect((await req('POST', id, body())).statusCode).toBe(201);
    const moved = await req('PATCH', id, {
      smtp: { ...smtpOf(smtp), host: 'localhost', password: undefined },
    });
    expect(moved.statusCode).toBe(400);
    expect(moved.json().details).toHaveProperty(['smtp.password']);
    expect((await req('PATCH', id, { smtp: null })).json().data.smtp).toBeNull();
  });

  it('rotating the forwarding token stops the old URL', async () => {
    const id = await createAssistant(e.t, w.owner, w.ws);
    const first = (await req('POST', id, body())).json().data.inbound.forwardUrl as string;
    const rotated = (await req('PATCH', id, { rotateForwardToken: true })).json().data.inbound
      .forwardUrl as string;
    expect(rotated).not.toBe(first);
    const raw =
      'From: a@b.test\r\nTo: x@acme.test\r\nSubject: hi\r\nMessage-ID: <rot@b.test>\r\n\r\nHello\r\n';
    expect((await forward(e.t, first.split('/').pop()!, raw)).statusCode).toBe(404);
    expect((await forward(e.t, rotated.split('/').pop()!, raw)).statusCode).toBe(202);
  });

  it('the test logs in to SMTP and answers in words, saving nothing', async () => {
    const id = await createAssistant(e.t, w.owner, w.ws);
    const ok = await req('POST', id, body(), '/test');
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.imap).toBeNull();
    expect(ok.json().data.smtp.ok).toBe(true);
    expect(ok.json().data.smtp.message).toContain('accepted');
    const bad = await req('POST', id, body({ smtp: { ...smtpOf(smtp), password: 'wrong' } }), '/test');
    expect(bad.json().data.smtp).toEqual({
      ok: false,
      message: `The SMTP server 127.0.0.1:${smtp.port} refused the user name or password`,
    });
    const closed = await req('POST', id, body({ smtp: { ...smtpOf(smtp), port: 1 } }), '/test');
    expect(closed.json().data.smtp.ok).toBe(false);
    expect(closed.json().data.smtp.message).toContain('connection refused');
    const imap = await req(
      'POST',
      id,
      body({
        inbound: { mode: 'imap', host: '127.0.0.1', port: 1, secure: false, username: 'u', password: 'p' },
      }),
      '/test',
    );
    expect(imap.json().data.imap.ok).toBe(false);
    expect(imap.json().data.imap.message).toContain('connection refused');
    expect((await req('GET', id)).statusCode).toBe(404);
  });

  it('private hosts are refused unless allowed', async () => {
    const strict = await startEmailApp({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false' });
    try {
      const sw = await createWorld(strict.t);
      const id = await createAssistant(strict.t, sw.owner, sw.ws);
      const res = await strict.t.request({
        method: 'POST',
        url: url(id),
        headers: sw.owner.headers,
        payload: body(),
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().details).toHaveProperty(['smtp.host']);
    } finally {
      await stopEmailApp(strict);
    }
  });
});
