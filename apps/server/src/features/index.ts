import type { Credentials } from '../http/auth.ts';
import type { Feature } from '../http/feature.ts';
import type { ResourceLoaders } from '../http/resources.ts';
import type { TenantResolverDeps } from '../http/tenant.ts';
import { accountRoutes } from './account/account.routes.ts';
import { analyticsRoutes } from './analytics/analytics.routes.ts';
import { apiKeysRoutes } from './api-keys/api-keys.routes.ts';
import { assistantsFormARoutes } from './assistants/assistants.form-a.routes.ts';
import { assistantsFormBRoutes } from './assistants/assistants.form-b.routes.ts';
import { assistantResource } from './assistants/assistants.resource.ts';
import { authRoutes } from './auth/auth.routes.ts';
import * as credentialsService from './auth/credentials.service.ts';
import { watchSessions } from './auth/session-cache.ts';
import { billingRoutes } from './billing/billing.routes.ts';
import { stripeWebhookRoutes } from './billing/stripe-webhook.routes.ts';
import { businessHoursRoutes } from './business-hours/business-hours.routes.ts';
import { cannedResource } from './canned/canned.resource.ts';
import { cannedRoutes } from './canned/canned.routes.ts';
import { chatResource } from './chat/chat.resource.ts';
import { chatRoutes } from './chat/chat.routes.ts';
import { contactResource } from './contacts/contacts.resource.ts';
import { contactsRoutes } from './contacts/contacts.routes.ts';
import { contactsV1Routes } from './contacts/contacts.v1.routes.ts';
import { conversationResource } from './conversations/conversations.resource.ts';
import { messagesV1Routes } from './conversations/messages.v1.routes.ts';
import { csatRoutes } from './csat/csat.routes.ts';
import { emailForwardRoutes } from './email/email.forward.routes.ts';
import { emailRoutes } from './email/email.routes.ts';
import { inboxConversationResource, inboxMessageResource } from './inbox/inbox.resource.ts';
import { inboxRoutes } from './inbox/inbox.routes.ts';
import { inboxSettingsRoutes } from './inbox/inbox-settings.routes.ts';
import { documentResource, projectResource, sourceResource } from './knowledge/knowledge.resource.ts';
import { projectsRoutes } from './knowledge/projects/projects.routes.ts';
import { assistantSourcesRoutes } from './knowledge/sources/sources.routes.ts';
import { labelResource } from './labels/labels.resource.ts';
import { labelsRoutes } from './labels/labels.routes.ts';
import { notificationsRoutes } from './notifications/notifications.routes.ts';
import { slaPolicyResource } from './sla/sla-policies.resource.ts';
import { slaPoliciesRoutes } from './sla/sla-policies.routes.ts';
import { smsRoutes } from './sms/sms.routes.ts';
import { ssoConnectionResource } from './sso/sso.resource.ts';
import { ssoRoutes } from './sso/sso.routes.ts';
import {
  assistantTestResource,
  curatedAnswerResource,
  guidanceResource,
  testRunResource,
} from './steering/steering.resource.ts';
import { steeringRoutes } from './steering/steering.routes.ts';
import { suggestionResource } from './steering/suggestions.resource.ts';
import { suggestionsRoutes } from './steering/suggestions.routes.ts';
import { testRunsRoutes } from './steering/test-runs.routes.ts';
import { ticketResource } from './tickets/tickets.resource.ts';
import { ticketsRoutes } from './tickets/tickets.routes.ts';
import { ticketsV1Routes } from './tickets/tickets.v1.routes.ts';
import { webRoutes } from './web/web.routes.ts';
import { webhookBResource, webhookResource } from './webhooks/webhooks.resource.ts';
import { webhooksFeature } from './webhooks/webhooks.routes.ts';
import { widgetFormARoutes } from './widget/widget.form-a.routes.ts';
import { widgetFormBRoutes } from './widget/widget.form-b.routes.ts';
import { widgetSurface } from './widget/widget-access.ts';
import { widgetConfigRoutes } from './widget/widget-config.routes.ts';
import { widgetEventsRoutes } from './widget/widget-events.routes.ts';
import { widgetScriptRoutes } from './widget/widget-script.routes.ts';
import { tenantDirectory } from './workspaces/tenant.service.ts';
import { workspaceV1Routes } from './workspaces/workspace.v1.routes.ts';
import { memberResource } from './workspaces/workspaces.resource.ts';
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
  workspaceV1Routes,
  accountRoutes,
  webhooksFeature,
  notificationsRoutes,
  chatRoutes,
  billingRoutes,
  stripeWebhookRoutes,
  messagesV1Routes,
  inboxRoutes,
  cannedRoutes,
  labelsRoutes,
  inboxSettingsRoutes,
  csatRoutes,
  businessHoursRoutes,
  slaPoliciesRoutes,
  contactsRoutes,
  contactsV1Routes,
  ticketsRoutes,
  ticketsV1Routes,
  widgetConfigRoutes,
  widgetFormARoutes,
  widgetFormBRoutes,
  widgetScriptRoutes,
  widgetEventsRoutes,
  smsRoutes,
  emailRoutes,
  emailForwardRoutes,
  ssoRoutes,
  analyticsRoutes,
  steeringRoutes,
  testRunsRoutes,
  suggestionsRoutes,
  webRoutes,
];

/** How http/auth.ts reads credentials. */
export const credentials: Credentials = {
  sessionCookie: credentialsService.SESSION_COOKIE,
  patPrefix: credentialsService.PAT_PREFIX,
  apiKeyPrefix: credentialsService.API_KEY_PREFIX,
  fromBearer: credentialsService.actorFromBearer,
  fromSession: credentialsService.actorFromSessionToken,
  touch: credentialsService.touchCredential,
  watch: watchSessions,
};

/** Every kind of resource a route can address, with its loader (http/resources.ts). */
export const resourceLoaders: ResourceLoaders = {
  assistant: assistantResource,
  source: sourceResource,
  project: projectResource,
  document: documentResource,
  member: memberResource,
  webhook: webhookResource,
  webhookB: webhookBResource,
  conversation: conversationResource,
  inboxConversation: inboxConversationResource,
  inboxMessage: inboxMessageResource,
  chat: chatResource,
  contact: contactResource,
  ticket: ticketResource,
  canned: cannedResource,
  label: labelResource,
  slaPolicy: slaPolicyResource,
  ssoConnection: ssoConnectionResource,
  guidance: guidanceResource,
  curatedAnswer: curatedAnswerResource,
  assistantTest: assistantTestResource,
  testRun: testRunResource,
  suggestion: suggestionResource,
};

export { tenantDirectory };
export const surfaces: TenantResolverDeps['surfaces'] = { widget: widgetSurface };
