import { dataOf, idParam } from '@parley/contract/envelope';
import { widgetConfigPatch, widgetSettings } from '@parley/contract/widget-config';
import { z } from 'zod';
import { publicBaseUrl } from '../../context.ts';
import type { Feature } from '../../http/feature.ts';
import { resourceOf } from '../../http/tenant.ts';
import { findWidgetConfig, toWidgetSettings, updateWidgetSettings } from './widget-config.service.ts';

const params = z.object({ assistantId: idParam });
/** Session surface like the other /api/assistants routes: owners and admins. */
const config = { auth: 'session', resources: ['assistant'], permission: 'assistants.manage' } as const;
const tags = ['widget configuration'];

/** `GET/PATCH /api/assistants/{id}/widget` with the embed snippet (docs/widget.md). */
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
        response: { 200: dataOf(widgetSettings) },
      },
    },
    async (request) => {
      const { row: assistant } = resourceOf(request, 'assistant');
      const row = await findWidgetConfig(ctx, assistant);
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
          "Any subset of the configuration: `isEnabled`, `primaryColor` (hex), `position`, `welcomeMessage`, `allowedDomains` (hostnames, `*.example.com`, `*`), `leadFormEnabled`, `leadFormFields`, `leadFormRequiredFields` (among the fields), `sessionTimeoutMinutes` (1 to 1440), `strings` (the widget's texts per language, `{[language]: {[key]: text}}`, replacing all overrides; a language not supported or a key not in WIDGET_STRING_KEYS → 400).",
        params,
        body: widgetConfigPatch,
        response: { 200: dataOf(widgetSettings) },
      },
    },
    async (request) => {
      const { row: assistant } = resourceOf(request, 'assistant');
      const row = await findWidgetConfig(ctx, assistant);
      const base = publicBaseUrl(ctx, request.headers.host);
      return { data: await updateWidgetSettings(ctx, assistant, row, request.body, base) };
    },
  );
};
