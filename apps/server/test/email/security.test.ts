import { afterAll, beforeAll } from 'vitest';
import { createAssistant } from '../support/factories.ts';
import type { TestApp } from '../support/harness.ts';
import { securitySuite } from '../support/security.ts';
import { ownerOf, type World } from '../support/world.ts';
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

/**
 * Every credentialed email route (docs/email.md): 401 without or with a wrong credential, 404
 * across workspaces, 403 below admin, 403 plan_upgrade_required on Free (channels are paid); the
 * attachment download for members of the conversation's workspace.
 */
let e: EmailEnv;
let t: TestApp;
let smtp: MailServer;
beforeAll(async () => {
  e = await startEmailApp();
  t = e.t;
  smtp = await startMailServer();
});
afterAll(async () => {
  await stopEmailApp(e);
  await smtp.close();
});

const body = () => ({
  address: newAddress(),
  displayName: 'Support',
  inbound: { mode: 'forward' },
  smtp: smtpOf(smtp),
});

async function configured(tt: TestApp, w: World, ws: string) {
  const owner = ownerOf(w, ws);
  const assistantId = await createAssistant(tt, owner, ws);
  const res = await tt.request({
    method: 'POST',
    url: `/api/assistants/${assistantId}/email`,
    headers: owner.headers,
    payload: body(),
  });
  return {
    assistantId,
    token: res.statusCode === 201 ? (res.json().data.inbound.forwardUrl as string).split('/').pop()! : '',
  };
}
const bare = async (tt: TestApp, w: World, ws: string) => ({
  assistantId: await createAssistant(tt, ownerOf(w, ws), ws),
});

const manage = { auth: 'session', minRole: 'admin', planFeature: 'channels' } as const;
const a = (x: Record<string, string>) => `/api/assistants/${x.assistantId}/email`;

securitySuite(() => t, {
  ...manage,
  name: 'GET /api/assistants/:id/email',
  prepare: configured,
  request: (_ws, x) => ({ method: 'GET', url: a(x) }),
});
securitySuite(() => t, {
  ...manage,
  name: 'POST /api/assistants/:id/email',
  prepare: bare,
  request: (_ws, x) => ({ method: 'POST', url: a(x), payload: body() }),
});
securitySuite(() => t, {
  ...manage,
  name: 'PATCH /api/assistants/:id/email',
  prepare: configured,
  request: (_ws, x) => ({ method: 'PATCH', url: a(x), payload: { aiReplies: false } }),
});
securitySuite(() => t, {
  ...manage,
  name: 'DELETE /api/assistants/:id/email',
  prepare: configured,
  request: (_ws, x) => ({ method: 'DELETE', url: a(x) }),
});
securitySuite(() => t, {
  ...manage,
  name: 'POST /api/assistants/:id/email/test',
  prepare: configured,
  request: (_ws, x) => ({ method: 'POST', url: `${a(x)}/test`, payload: body() }),
});

/** A conversation with an attachment, made through forwarding and the job. */
async function withAttachment(tt: TestApp, w: World, ws: string) {
  const { token } = await configured(tt, w, ws);
  if (!token) return { conversationId: 'conv_none', attachmentId: 'att_none' };
  const raw = Buffer.from(
    [
      'From: someone@example.com',
      'To: support@acme.test',
      'Subject: file',
      `Message-ID: <sec-${ws}-${Math.random()}@example.com>`,
      'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary="x"',
      '',
      '--x',
      'Content-Type: text/plain',
      '',
      'See attached.',
      '--x',
      'Content-Type: text/plain; name="a.txt"',
      'Content-Disposition: attachment; filename="a.txt"',
      '',
      'hello',
      '--x--',
      '',
    ].join('\r\n'),
  );
  await forward(tt, token, raw);
  const { processInboundBatch } = await import('../../src/features/email/email.process.ts');
  await processInboundBatch(tt.ctx, 10);
  const { emailAttachments } = await import('../../src/db/schema/index.ts');
  const { eq } = await import('drizzle-orm');
  const [file] = await tt.ctx.db.select().from(emailAttachments).where(eq(emailAttachments.workspaceId, ws));
  return { conversationId: file?.conversationId ?? 'conv_none', attachmentId: file?.id ?? 'att_none' };
}

securitySuite(() => t, {
  auth: 'session',
  minRole: 'guest',
  name: 'GET /api/inbox/conversations/:id/attachments/:attachmentId',
  prepare: withAttachment,
  request: (_ws, x) => ({
    method: 'GET',
    url: `/api/inbox/conversations/${x.conversationId}/attachments/${x.attachmentId}`,
  }),
});
