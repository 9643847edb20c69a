import type { Feature } from '../app.ts';
import { accountRoutes } from './account/account.routes.ts';
import { apiKeysRoutes } from './api-keys/api-keys.routes.ts';
import { assistantsFormARoutes } from './assistants/assistants.form-a.routes.ts';
import { assistantsFormBRoutes } from './assistants/assistants.form-b.routes.ts';
import { authRoutes } from './auth/auth.routes.ts';
import { chatRoutes } from './chat/chat.routes.ts';
import { messagesV1Routes } from './conversations/messages.v1.routes.ts';
import { billingRoutes } from './credits/billing.routes.ts';
import { projectsRoutes } from './knowledge/projects/projects.routes.ts';
import { assistantSourcesRoutes } from './knowledge/sources/sources.routes.ts';
import { notificationsRoutes } from './notifications/notifications.routes.ts';
import { v1Routes } from './v1/v1.routes.ts';
import { webRoutes } from './web/web.routes.ts';
import { webhooksFeature } from './webhooks/webhooks.routes.ts';
import { widgetFormARoutes } from './widget/widget.form-a.routes.ts';
import { widgetFormBRoutes } from './widget/widget.form-b.routes.ts';
import { widgetConfigRoutes } from './widget/widget-config.routes.ts';
import { widgetEventsRoutes } from './widget/widget-events.routes.ts';
import { widgetScriptRoutes } from './widget/widget-script.routes.ts';
import { workspacesFeature } from './workspaces/workspaces.routes.ts';

/** Every feature's routes, registered in this order by app.ts. */
export const features: Feature[] = [
  authRoutes,
  assistantsFormARoutes,
  assistantSourcesRoutes,
  assistantsFormBRoutes,
  projectsRoutes,
  workspacesFeature,
  apiKeysRoutes,
  v1Routes,
  accountRoutes,
  webhooksFeature,
  notificationsRoutes,
  chatRoutes,
  billingRoutes,
  messagesV1Routes,
  widgetConfigRoutes,
  widgetFormARoutes,
  widgetFormBRoutes,
  widgetScriptRoutes,
  widgetEventsRoutes,
  webRoutes,
];
