import { dataOf } from '@parley/contract/envelope';
import {
  assignBody,
  conversationParams,
  inboxConversationSchema,
  inboxMessageSchema,
  listQuery,
  messageParams,
  messagesQuery,
  replyBody,
  ticketBody,
  translateBody,
  translationSchema,
  workspaceQuery,
} from '@parley/contract/inbox';
import { cursorPage } from '@parley/contract/pagination';
import { ticketSchema } from '@parley/contract/tickets';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { userIdOf } from '../../http/auth.ts';
import { conflictResponse } from '../../http/envelope.ts';
import type { Feature } from '../../http/feature.ts';
import { resourceOf, tenantOf } from '../../http/tenant.ts';
import { toTicket } from '../tickets/tickets.service.ts';
import * as svc from './inbox.service.ts';
import { openInboxStream } from './inbox-stream.ts';
import { translateMessage } from './translate.ts';

const tags = ['inbox'];
/** Guests read the inbox; owners, admins and members answer (docs/inbox.md "Endpoints"). */
const read = { auth: 'session', resources: ['inboxConversation'], permission: 'workspace.view' } as const;
const write = { auth: 'session', resources: ['inboxConversation'], permission: 'assistants.use' } as const;

/**
 * The addressed conversation. A `workspaceId` naming another workspace was already the 404 of a
 * missing one, before the role check (src/http/tenant.ts).
 */
const conversationOf = (request: FastifyRequest) => resourceOf(request, 'inboxConversation');

const conversationResponse = { 200: dataOf(inboxConversationSchema), ...conflictResponse };

/** The shared inbox on the session surface (docs/inbox.md). */
export const inboxRoutes: Feature = (app, ctx) => {
  app.get(
    '/api/inbox/conversations',
    {
      config: { auth: 'session', workspace: 'input', permission: 'workspace.view' },
      schema: {
        tags,
        description:
          'Conversations of the workspace, newest activity first (cursor). Filters: `status`, `channel`, `language`, `assistantId`, `assigneeId`, `unassigned=true|false`, `labelId`, `lowConfidence=true`.',
        querystring: listQuery,
        response: { 200: cursorPage(inboxConversationSchema) },
      },
    },
    async (request) => svc.listConversations(ctx, tenantOf(request), request.query),
  );

  app.get(
    '/api/inbox/conversations/:conversationId',
    {
      config: read,
      schema: {
        tags,
        params: conversationParams,
        querystring: workspaceQuery,
        response: { 200: dataOf(inboxConversationSchema) },
      },
    },
    async (request) => ({ data: svc.toInboxConversation(conversationOf(request)) }),
  );

  app.get(
    '/api/inbox/conversations/:conversationId/messages',
    {
      config: read,
      schema: {
        tags,
        description: 'The conversation’s messages, oldest first (cursor), with each human author.',
        params: conversationParams,
        querystring: messagesQuery,
        response: { 200: cursorPage(inboxMessageSchema) },
      },
    },
    async (request) => svc.listConversationMessages(ctx, conversationOf(request), request.query),
  );

  app.post(
    '/api/inbox/conversations/:conversationId/messages',
    {
      config: write,
      schema: {
        tags,
        description:
          'A human reply, stored as role `agent` and delivered through the conversation’s channel: `content`, or `cannedResponseId` (rendered for this conversation, docs/canned-responses.md). A conversation the AI holds is taken over first. Closed: 409. `translateTo`: sent translated by the remote model (one credit), the written text kept as `originalContent`; without a remote model 409, a failed translation 500 with nothing stored or sent (docs/languages.md "Translation").',
        params: conversationParams,
        querystring: workspaceQuery,
        body: replyBody,
        response: { 201: dataOf(inboxMessageSchema), ...conflictResponse },
      },
    },
    async (request, reply) => {
      const data = await svc.reply(
        ctx,
        conversationOf(request),
        userIdOf(request),
        request.body,
        tenantOf(request),
      );
      return reply.status(201).send({ data });
    },
  );

  app.post(
    '/api/inbox/conversations/:conversationId/messages/:messageId/translate',
    {
      config: { ...read, resources: ['inboxConversation', 'inboxMessage'] },
      schema: {
        tags,
        description:
          'A message’s content translated by the remote model into `to`, with `from`, the language detected in it (else the conversation’s). Whoever reads the conversation may ask; one credit (docs/languages.md "Translation"). Without a remote model: 409. The model failing: 500, the credit given back.',
        params: messageParams,
        querystring: workspaceQuery,
        body: translateBody,
        response: { 200: dataOf(translationSchema), ...conflictResponse },
      },
    },
    async (request) => ({
      data: await translateMessage(
        ctx,
        tenantOf(request),
        conversationOf(request),
        resourceOf(request, 'inboxMessage'),
        request.body.to,
      ),
    }),
  );

  const transition = (
    path: string,
    description: string,
    run: (
      c: ReturnType<typeof conversationOf>,
      userId: string,
    ) => Promise<Parameters<typeof svc.toInboxConversation>[0]>,
  ) =>
    app.post(
      `/api/inbox/conversations/:conversationId/${path}`,
      {
        config: write,
        schema: {
          tags,
          description,
          params: conversationParams,
          querystring: workspaceQuery,
          response: conversationResponse,
        },
      },
      async (request) => ({
        data: svc.toInboxConversation(await run(conversationOf(request), userIdOf(request))),
      }),
    );

  transition(
    'handoff',
    'The caller takes the conversation over: status `handoff`, the AI stops answering; the caller becomes the assignee unless someone is. Closed: 409.',
    (c, userId) => svc.takeOver(ctx, c, userId),
  );
  transition(
    'release',
    'Gives the conversation back to the AI: status `open`, no assignee. Closed: 409.',
    (c, userId) => svc.release(ctx, c, userId),
  );
  transition(
    'close',
    'Closes the conversation (`conversation.ended`); a widget conversation’s session ends with it. Closing a closed one changes nothing.',
    (c, userId) => svc.close(ctx, c, userId),
  );

  app.patch(
    '/api/inbox/conversations/:conversationId',
    {
      config: write,
      schema: {
        tags,
        description: 'Assigns the conversation to a member who can answer, or unassigns it with `null`.',
        params: conversationParams,
        querystring: workspaceQuery,
        body: assignBody,
        response: { 200: dataOf(inboxConversationSchema) },
      },
    },
    async (request) => ({
      data: svc.toInboxConversation(
        await svc.assign(ctx, conversationOf(request), request.body.assigneeId, userIdOf(request)),
      ),
    }),
  );

  app.post(
    '/api/inbox/conversations/:conversationId/tickets',
    {
      config: write,
      schema: {
        tags,
        description: 'Opens a ticket linked to the conversation and its contact.',
        params: conversationParams,
        querystring: workspaceQuery,
        body: ticketBody,
        response: { 201: dataOf(ticketSchema) },
      },
    },
    async (request, reply) => {
      const row = await svc.ticketFrom(ctx, tenantOf(request), conversationOf(request), request.body);
      return reply.status(201).send({ data: toTicket(row) });
    },
  );

  app.get(
    '/api/inbox/stream',
    {
      config: { auth: 'session', workspace: 'input', permission: 'workspace.view' },
      schema: {
        tags,
        description:
          'Server-sent events of the workspace’s inbox: `ready`, then `conversation.created`, `conversation.updated`, `conversation.ended` and `message.created`, from every server process.',
        querystring: workspaceQuery,
        response: { 200: z.string().describe('text/event-stream') },
      },
    },
    async (request, reply) => {
      await openInboxStream(ctx, reply, tenantOf(request).workspaceId, userIdOf(request));
      return reply;
    },
  );
};
