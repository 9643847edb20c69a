import { csatBody, csatSchema } from '@parley/contract/csat';
import { dataOf } from '@parley/contract/envelope';
import { assistantParams } from '@parley/contract/widget';
import { conflict } from '../../http/errors.ts';
import type { Feature } from '../../http/feature.ts';
import { resourceOf } from '../../http/tenant.ts';
import { findConversation } from '../conversations/conversations.service.ts';
import { registerWidgetSurface, tokenSecurity } from '../widget/widget-surface.ts';
import { rateConversation } from './csat.service.ts';

/**
 * `POST /api/widget/{assistantId}/csat` (docs/csat.md "In the widget"): the visitor rates the
 * conversation of their session, with the session's token (the session may have ended: it ends
 * when the conversation closes). 409 when it asks no rating or was rated; 400 outside 1-5.
 */
export const csatRoutes: Feature = async (app, ctx) => {
  // CORS on every answer and the per-IP budget, as on every widget route file (widget-surface.ts).
  await registerWidgetSurface(app, ctx);
  app.post(
    '/api/widget/:assistantId/csat',
    {
      config: { auth: 'widget', widgetToken: 'required' },
      schema: {
        tags: ['widget (Form A)'],
        description:
          "Rates the session's conversation 1-5 with an optional comment, once, after it closed with a person's reply (the widget's `ended` event carries the question).",
        params: assistantParams,
        body: csatBody,
        security: tokenSecurity,
        response: { 201: dataOf(csatSchema) },
      },
    },
    async (request, reply) => {
      const { session, assistant } = resourceOf(request, 'widget');
      const c = session?.conversationId
        ? await findConversation(ctx, assistant.workspaceId, session.conversationId)
        : undefined;
      if (!c) throw conflict('This conversation is not asking for a rating');
      return reply.status(201).send({ data: await rateConversation(ctx, c, request.body) });
    },
  );
};
