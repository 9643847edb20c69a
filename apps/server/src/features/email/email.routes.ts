import { emailConfig, emailCreate, emailPatch, emailTest, emailTestResult } from '@parley/contract/email';
import { dataOf, idParam } from '@parley/contract/envelope';
import { z } from 'zod';
import { publicBaseUrl } from '../../context.ts';
import { conflictResponse } from '../../http/envelope.ts';
import type { Feature } from '../../http/feature.ts';
import { resourceOf } from '../../http/tenant.ts';
import { downloadAttachment } from './email.messages.ts';
import * as svc from './email.service.ts';

const params = z.object({ assistantId: idParam });
/** Owners and admins, on a plan with channels (docs/email.md "Configuration"). */
const manage = {
  auth: 'session',
  resources: ['assistant'],
  permission: 'assistants.manage',
  planFeature: 'channels',
} as const;
const tags = ['Email'];
const path = '/api/assistants/:assistantId/email';

/** The email channel's configuration, its test, and attachments' downloads (docs/email.md). */
export const emailRoutes: Feature = (app, ctx) => {
  const base = (host: string | undefined) => publicBaseUrl(ctx, host);

  app.get(
    path,
    { config: manage, schema: { tags, params, response: { 200: dataOf(emailConfig) } } },
    async (request) => {
      const { row } = resourceOf(request, 'assistant');
      return { data: svc.toConfig(ctx, await svc.requireConfig(ctx, row), base(request.headers.host)) };
    },
  );

  app.post(
    path,
    {
      config: manage,
      schema: {
        tags,
        description:
          'Creates the channel: `address`, `displayName`, `inbound` (`{mode: "forward"}` or `{mode: "imap", host, port, secure, username, password, mailbox?}`), `smtp` (or null: the server\'s SMTP_URL), `aiReplies`, `signature`, `isEnabled`, `enableContactMatching`, `autoCreateContacts`. Passwords are stored encrypted and never returned. 409 when the assistant has one, or the address is on another assistant.',
        params,
        body: emailCreate,
        response: { 201: dataOf(emailConfig), ...conflictResponse },
      },
    },
    async (request, reply) => {
      const { row } = resourceOf(request, 'assistant');
      const saved = await svc.createConfig(ctx, row, request.body);
      return reply.status(201).send({ data: svc.toConfig(ctx, saved, base(request.headers.host)) });
    },
  );

  app.patch(
    path,
    {
      config: manage,
      schema: {
        tags,
        description:
          "Any subset of the fields; a password left out keeps the saved one for the same host and user. `rotateForwardToken: true` gives forwarding a new URL. 404 without a configuration, 409 for another assistant's address.",
        params,
        body: emailPatch,
        response: { 200: dataOf(emailConfig), ...conflictResponse },
      },
    },
    async (request) => {
      const { row } = resourceOf(request, 'assistant');
      const saved = await svc.patchConfig(ctx, row, request.body);
      return { data: svc.toConfig(ctx, saved, base(request.headers.host)) };
    },
  );

  app.delete(
    path,
    { config: manage, schema: { tags, params, response: { 204: z.undefined() } } },
    async (request, reply) => {
      await svc.deleteConfig(ctx, resourceOf(request, 'assistant').row);
      return reply.status(204).send();
    },
  );

  app.post(
    `${path}/test`,
    {
      config: manage,
      schema: {
        tags,
        description:
          'Logs in to the IMAP server (for `imap`) and asks the SMTP server to verify, answering each in words; nothing is saved and no saved configuration is needed. A password left out is the saved one for the same host and user.',
        params,
        body: emailTest,
        response: { 200: dataOf(emailTestResult) },
      },
    },
    async (request) => ({
      data: await svc.testConfig(ctx, resourceOf(request, 'assistant').row, request.body),
    }),
  );

  app.get(
    '/api/inbox/conversations/:conversationId/attachments/:attachmentId',
    {
      config: { auth: 'session', resources: ['inboxConversation'], permission: 'workspace.view' },
      schema: {
        tags,
        summary: "An email attachment's bytes",
        description:
          'Members of the workspace only. Always `Content-Disposition: attachment` with `X-Content-Type-Options: nosniff`, typed by the bytes (file-type), never inline HTML.',
        params: z.object({ conversationId: idParam, attachmentId: idParam }),
        response: { 200: z.any().describe('The file') },
      },
    },
    async (request, reply) => {
      const conversation = resourceOf(request, 'inboxConversation');
      const file = await downloadAttachment(ctx, conversation, request.params.attachmentId);
      return reply
        .header('content-type', file.contentType)
        .header('content-disposition', file.disposition)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', 'private, no-store')
        .send(file.content);
    },
  );
};
