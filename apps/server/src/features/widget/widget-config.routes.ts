import { z } from 'zod';
import type { Feature } from '../../app.ts';
import { publicBaseUrl } from '../../context.ts';
import { actorOf } from '../../http/auth.ts';
import { dataOf, errorBody, idParam } from '../../http/envelope.ts';
import { assertValid } from '../../http/validation.ts';
import { widgetConfigPatch, widgetSettings } from './widget-config.schemas.ts';
import { loadWidgetSettings, toWidgetSettings, updateWidgetSettings } from './widget-settings.service.ts';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody };
const params = z.object({ assistantId: idParam });
/** Session surface like the other /api/assistants routes; checks in decisions §2 order. */
const config = { auth: 'session', deferValidation: true } as const;
const tags = ['widget configuration'];

/** decisions §8: `GET/PATCH /api/assistants/{id}/widget` (owner or admin), with the embed snippet. */
export const widgetConfigRoutes: Feature = (app, ctx) => {
  app.get(
    '/api/assistants/:assistantId/widget',
    {
      config,
      schema: {
        tags,
        description:
          'The widget configuration of an assistant (defaults until first saved) and its embed snippet.',
        params,
        response: { 200: dataOf(widgetSettings), ...errors },
      },
    },
    async (request) => {
      const { assistantId } = request.params as { assistantId: string };
      const { assistant, config: row } = await loadWidgetSettings(ctx, actorOf(request), assistantId);
      return { data: toWidgetSettings(assistant.id, row, publicBaseUrl(ctx, request.headers.host)) };
    },
  );

  app.patch(
    '/api/assistants/:assistantId/widget',
    {
      config,
      schema: {
        tags,
        description:
          'Any subset of the configuration: `isEnabled`, `primaryColor` (hex), `position`, `welcomeMessage`, `allowedDomains` (hostnames, `*.example.com`, `*`), `leadFormEnabled`, `leadFormFields`, `leadFormRequiredFields` (among the fields), `sessionTimeoutMinutes` (1 to 1440).',
        params,
        body: widgetConfigPatch,
        response: { 200: dataOf(widgetSettings), ...errors },
      },
    },
    async (request) => {
      const { assistantId } = request.params as { assistantId: string };
      const { assistant, config: row } = await loadWidgetSettings(ctx, actorOf(request), assistantId);
      assertValid(request);
      const base = publicBaseUrl(ctx, request.headers.host);
      return { data: await updateWidgetSettings(ctx, assistant, row, request.body, base) };
    },
  );
};
