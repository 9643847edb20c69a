import { messageSchema, v1MessageBody } from '@parley/contract/chat';
import { dataOf, idParam } from '@parley/contract/envelope';
import { cursorPage, cursorQuery } from '@parley/contract/pagination';
import { conflictResponse } from '../../http/envelope.ts';
import { notFound } from '../../http/errors.ts';
import type { Feature } from '../../http/feature.ts';
import { resourceOf, tenantOf } from '../../http/tenant.ts';
import { emailInfoFor } from '../email/email.messages.ts';
import {
  deliveriesFor,
  findInboxConversation,
  listMessages,
  postAgentMessage,
  toMessage,
} from './conversations.service.ts';

const errors = conflictResponse;

/** Messages on the API-key surface (docs/api.md). */
export const messagesV1Routes: Feature = (app, ctx) => {
  app.get(
    '/api/v1/messages',
    {
      config: { auth: 'key' },
      schema: {
        tags: ['v1'],
        querystring: cursorQuery.extend({ conversationId: idParam }).strict(),
        response: { 200: cursorPage(messageSchema), ...errors },
      },
    },
    async (request) => {
      const q = request.query;
      // Only those the inbox shows: a private internal chat is a 404 like a missing one (visibility.ts).
      const conversation = await findInboxConversation(ctx, tenantOf(request).workspaceId, q.conversationId);
      if (!conversation) throw notFound('Conversation');
      const cursor = ctx.cursors.open(
        { list: 'v1.messages', workspaceId: conversation.workspaceId, parentId: conversation.id },
        q.cursor,
      );
      const rows = await listMessages(ctx.db, {
        workspaceId: conversation.workspaceId,
        conversationId: conversation.id,
        limit: q.limit,
        after: cursor.after,
      });
      const page = cursor.page(rows, q.limit, (r) => ({ t: r.createdAt.getTime(), id: r.id }));
      const delivery = await deliveriesFor(ctx, conversation, page.data);
      const email = await emailInfoFor(ctx, conversation, page.data);
      return {
        ...page,
        data: page.data.map((m) => ({
          ...toMessage(m, delivery.get(m.id)),
          ...(email.has(m.id) ? { email: email.get(m.id) } : {}),
        })),
      };
    },
  );

  app.post(
    '/api/v1/messages',
    {
      config: {
        auth: 'key',
        planFeature: 'api_v1_write',
        scope: 'chat:write',
        resources: ['conversation'],
        idsFrom: 'body',
      },
      schema: {
        tags: ['v1'],
        body: v1MessageBody,
        response: { 201: dataOf(messageSchema), ...errors },
      },
    },
    async (request, reply) => {
      const conversation = resourceOf(request, 'conversation');
      const row = await postAgentMessage(ctx, conversation, { content: request.body.content });
      return reply.status(201).send({ data: toMessage(row) });
    },
  );
};
