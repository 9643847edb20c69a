import { chatBody, conversationSchema, messageSchema } from '@parley/contract/chat';
import { idParam } from '@parley/contract/envelope';
import { cursorPage, cursorQuery } from '@parley/contract/pagination';
import { z } from 'zod';
import { userIdOf } from '../../http/auth.ts';
import type { Feature } from '../../http/feature.ts';
import { resourceOf, tenantOf } from '../../http/tenant.ts';
import { toConversation, toMessage } from '../conversations/conversations.service.ts';
import * as service from './chat.service.ts';
import { openChatEvents } from './chat-live.ts';
import { streamTurn } from './respond.ts';

/** Internal chat on the session surface (docs/chat.md). Guests read assistants but do not chat. */
export const chatRoutes: Feature = (app, ctx) => {
  app.post(
    '/api/chat',
    {
      config: {
        auth: 'session',
        resources: ['assistant'],
        idsFrom: 'body',
        permission: 'assistants.use',
        foreground: true,
      },
      schema: {
        tags: ['chat'],
        description:
          'Sends a message and streams the reply as server-sent events (`text-delta`, `tool-call`, `tool-result`, `finish`, `error`). The conversation id comes back in `X-Conversation-Id`.',
        body: chatBody,
        response: { 200: z.string().describe('text/event-stream') },
      },
    },
    async (request, reply) => {
      const assistant = resourceOf(request, 'assistant');
      const turn = await service.startChat(
        ctx,
        userIdOf(request),
        tenantOf(request),
        assistant,
        request.body,
      );
      await streamTurn(ctx, reply, turn, { 'x-conversation-id': turn.conversation.id }, request.log);
      return reply;
    },
  );

  app.get(
    '/api/chat/conversations',
    {
      config: { auth: 'session', resources: ['assistant'], idsFrom: 'query' },
      schema: {
        tags: ['chat'],
        querystring: cursorQuery.extend({ assistantId: idParam }).strict(),
        response: { 200: cursorPage(conversationSchema) },
      },
    },
    async (request) => {
      const { row } = resourceOf(request, 'assistant');
      const page = await service.listChats(ctx, userIdOf(request), row, request.query);
      return { ...page, data: page.data.map(toConversation) };
    },
  );

  app.get(
    '/api/chat/conversations/:conversationId/messages',
    {
      config: { auth: 'session', resources: ['chat'] },
      schema: {
        tags: ['chat'],
        params: z.object({ conversationId: idParam }),
        querystring: cursorQuery.strict(),
        response: { 200: cursorPage(messageSchema) },
      },
    },
    async (request) => {
      const page = await service.listChatMessages(ctx, resourceOf(request, 'chat'), request.query);
      return { ...page, data: page.data.map((m) => toMessage(m)) };
    },
  );

  app.get(
    '/api/chat/conversations/:conversationId/events',
    {
      config: { auth: 'session', resources: ['chat'] },
      schema: {
        tags: ['chat'],
        description:
          'Server-sent events of one of your chats while a person answers it: `ready`, then `{type: "message", message}` (a human agent\'s reply, with `author`) and `{type: "status", status, assigneeId, agent}`.',
        params: z.object({ conversationId: idParam }),
        response: { 200: z.string().describe('text/event-stream') },
      },
    },
    async (request, reply) => {
      await openChatEvents(ctx, reply, resourceOf(request, 'chat').id);
      return reply;
    },
  );
};
