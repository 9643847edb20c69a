import { dataOf, idOf } from '@parley/contract/envelope';
import {
  assistantParams,
  configQuery,
  feedbackBodyB,
  historyMessage,
  historyQuery,
  leadBodyB,
  publicConfig,
  sessionBody,
  sessionData,
  ticketBody,
} from '@parley/contract/widget';
import { z } from 'zod';
import type { Feature } from '../../http/feature.ts';
import { resourceOf } from '../../http/tenant.ts';
import { publicConfig as configOf, history, startSession } from './widget.service.ts';
import { captureLead, leaveFeedback, openTicket } from './widget-leads.service.ts';
import { registerWidgetSurface, tokenSecurity } from './widget-surface.ts';

const tags = ['widget (Form B)'];
/** Public: the widget surface's three layers run before validation (widget-access.ts). */
const config = { auth: 'widget', widgetToken: 'required' } as const;
const open = { auth: 'widget', widgetToken: 'optional' } as const;

/**
 * docs/widget.md "Form B: the path list": the same sessions, leads, feedback and
 * history as Form A, addressed by `sessionId` in the body or query instead of the path. The chat
 * is the shared `POST /api/widget/{assistantId}/chat` (widget.form-a.routes.ts;
 * docs/api.md "Form A and Form B").
 */
export const widgetFormBRoutes: Feature = async (app, ctx) => {
  await registerWidgetSurface(app, ctx);

  app.get(
    '/api/widget/:assistantId/config',
    {
      config: open,
      schema: {
        tags,
        description:
          "The public widget configuration. `languages` (comma-separated, the browser's `navigator.languages`) and then `Accept-Language` choose its `language`, `direction` and `strings`; else the workspace's default language.",
        params: assistantParams,
        querystring: configQuery,
        response: { 200: dataOf(publicConfig) },
      },
    },
    async (request) => {
      const access = resourceOf(request, 'widget');
      const visitor = {
        languages: request.query.languages,
        acceptLanguage: request.headers['accept-language'],
      };
      return { data: await configOf(ctx, access, visitor) };
    },
  );

  app.post(
    '/api/widget/:assistantId/session',
    {
      config: open,
      schema: {
        tags,
        description:
          'Creates an anonymous session; the token goes in `Authorization: Widget <token>` afterwards.',
        params: assistantParams,
        body: sessionBody.nullish(),
        response: { 201: dataOf(sessionData) },
      },
    },
    async (request, reply) => {
      const access = resourceOf(request, 'widget');
      const { session, token } = await startSession(ctx, access, request.body?.metadata);
      return reply.status(201).send({ data: { sessionId: session.id, sessionToken: token } });
    },
  );

  app.post(
    '/api/widget/:assistantId/lead',
    {
      config,
      schema: {
        tags,
        params: assistantParams,
        body: leadBodyB,
        security: tokenSecurity,
        response: { 201: dataOf(idOf('contactId')) },
      },
    },
    async (request, reply) => {
      const access = resourceOf(request, 'widget');
      const { sessionId: _checked, ...lead } = request.body;
      return reply.status(201).send({ data: await captureLead(ctx, access, lead) });
    },
  );

  app.post(
    '/api/widget/:assistantId/feedback',
    {
      config,
      schema: {
        tags,
        params: assistantParams,
        body: feedbackBodyB,
        security: tokenSecurity,
        response: { 201: dataOf(idOf('id')) },
      },
    },
    async (request, reply) => {
      const access = resourceOf(request, 'widget');
      const { sessionId: _checked, ...feedback } = request.body;
      return reply.status(201).send({ data: await leaveFeedback(ctx, access, feedback) });
    },
  );

  app.get(
    '/api/widget/:assistantId/history',
    {
      config,
      schema: {
        tags,
        params: assistantParams,
        querystring: historyQuery,
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
    '/api/widget/tickets/create',
    {
      config,
      schema: {
        tags,
        description:
          'Creates a support ticket from a widget session (`assistantId` and `sessionId` in the body), for the session’s contact or the one `email` finds or creates. Counts against the plan’s ticket quota.',
        body: ticketBody,
        security: tokenSecurity,
        response: { 201: dataOf(idOf('ticketId')) },
      },
    },
    async (request, reply) => {
      const access = resourceOf(request, 'widget');
      const { subject, description, email } = request.body;
      return reply.status(201).send({ data: await openTicket(ctx, access, { subject, description, email }) });
    },
  );
};
