import { dataOf, idOf } from '@parley/contract/envelope';
import {
  assistantParams,
  chatBody,
  endResult,
  feedbackBody,
  historyMessage,
  initBody,
  initData,
  leadBody,
  sessionParams,
} from '@parley/contract/widget';
import { z } from 'zod';
import type { Feature } from '../../http/feature.ts';
import { resourceOf } from '../../http/tenant.ts';
import { streamTurn } from '../chat/respond.ts';
import { endWidgetSession, history, initSession, startWidgetChat } from './widget.service.ts';
import { corsHeaders, widgetToken, withSession } from './widget-access.ts';
import { captureLead, leaveFeedback } from './widget-leads.service.ts';
import { registerPreflight, registerWidgetSurface, tokenSecurity } from './widget-surface.ts';

const tags = ['widget (Form A)'];
/** Public: the widget surface's three layers run before validation (widget-access.ts). */
const config = { auth: 'widget', widgetToken: 'required' } as const;
const open = { auth: 'widget', widgetToken: 'optional' } as const;

/**
 * docs/widget.md "Form A: the init flow", and the chat both forms share. Every
 * route runs the three-layer check (widget-access.ts) before it reads its input.
 */
export const widgetFormARoutes: Feature = async (app, ctx) => {
  await registerWidgetSurface(app, ctx);
  registerPreflight(app, ctx);

  app.post(
    '/api/widget/:assistantId/init',
    {
      config: open,
      schema: {
        tags,
        description:
          "Starts a session (`sessionId` null) or resumes one (its id, with `Authorization: Widget <token>`; another token → 401). Returns the session token, the public configuration and the history. `languages` (the browser's `navigator.languages`) and then `Accept-Language` choose the configuration's `language`, `direction` and `strings`; else the workspace's default language.",
        params: assistantParams,
        body: initBody.nullish(),
        response: { 200: dataOf(initData) },
      },
    },
    async (request) => {
      const access = resourceOf(request, 'widget');
      const sessionId = request.body?.sessionId;
      const resumed = sessionId ? await withSession(ctx, request, access, sessionId) : access;
      const token = sessionId ? widgetToken(request) : undefined;
      const visitor = {
        languages: request.body?.languages,
        acceptLanguage: request.headers['accept-language'],
      };
      return { data: await initSession(ctx, resumed, token, request.body?.metadata, visitor) };
    },
  );

  app.post(
    '/api/widget/:assistantId/chat',
    {
      config: { ...config, chatErrors: true, foreground: true },
      schema: {
        tags: [...tags, 'widget (Form B)'],
        description:
          'Sends a visitor message and streams the reply as server-sent events (`text-delta`, `tool-call`, `tool-result`, `finish`, `error`). Shared by Form A and Form B. An ended session → 400 `bad_request:chat`; the daily quota → 429 `rate_limit:widget`; no credits → 403 `credits_limit_exceeded`.',
        params: assistantParams,
        body: chatBody,
        security: tokenSecurity,
        response: { 200: z.string().describe('text/event-stream') },
      },
    },
    async (request, reply) => {
      const access = resourceOf(request, 'widget');
      const turn = await startWidgetChat(ctx, access, request.body.content);
      await streamTurn(ctx, reply, turn, corsHeaders(access.origin), request.log);
      return reply;
    },
  );

  app.get(
    '/api/widget/:assistantId/sessions/:sessionId/messages',
    {
      config,
      schema: {
        tags,
        description: 'The session history, oldest first (the newest 200 messages).',
        params: sessionParams,
        security: tokenSecurity,
        response: { 200: z.object({ data: z.array(historyMessage) }) },
      },
    },
    async (request) => {
      const access = resourceOf(request, 'widget');
      return { data: await history(ctx, access.session!) };
    },
  );

  app.post(
    '/api/widget/:assistantId/sessions/:sessionId/lead',
    {
      config,
      schema: {
        tags,
        description:
          'The lead form: matches a contact by email (case-insensitive), else phone, else creates one, and links the session to it.',
        params: sessionParams,
        body: leadBody,
        security: tokenSecurity,
        response: { 201: dataOf(idOf('contactId')) },
      },
    },
    async (request, reply) => {
      const access = resourceOf(request, 'widget');
      return reply.status(201).send({ data: await captureLead(ctx, access, request.body) });
    },
  );

  app.post(
    '/api/widget/:assistantId/sessions/:sessionId/feedback',
    {
      config,
      schema: {
        tags,
        description:
          '`rating` `positive` or `negative`, on one AI or agent reply of the session (`messageId`) or on the whole session.',
        params: sessionParams,
        body: feedbackBody,
        security: tokenSecurity,
        response: { 201: dataOf(idOf('id')) },
      },
    },
    async (request, reply) => {
      const access = resourceOf(request, 'widget');
      return reply.status(201).send({ data: await leaveFeedback(ctx, access, request.body) });
    },
  );

  app.post(
    '/api/widget/:assistantId/sessions/:sessionId/end',
    {
      config,
      schema: {
        tags,
        description: 'Ends the session (idempotent: ending again answers the same result).',
        params: sessionParams,
        security: tokenSecurity,
        response: { 200: dataOf(endResult) },
      },
    },
    async (request) => {
      const access = resourceOf(request, 'widget');
      return { data: await endWidgetSession(ctx, access) };
    },
  );
};
