import type { WebhookEvent } from '@parley/contract/api-types';
import { i18n } from '../../i18n/index.ts';

/**
 * Format A webhooks as the API answers them (docs/webhooks.md; the server's types,
 * packages/contract/src/api-types.ts). Only the creation answer carries the secret, once. A delivery's
 * `statusCode` and `duration` (ms) are of its last attempt, null when no response came.
 */
export type { CreatedWebhook, Delivery, Webhook } from '@parley/contract/api-types';

/**
 * Format A's event names (docs/webhooks.md "Event names"), in the order the picker lists them;
 * what each means is `events.<name>` of the webhooks catalog (i18n/en/webhooks.ts). Keyed by the
 * server's own list of names, so a name added or dropped there fails the typecheck here.
 */
const NAMES: Record<WebhookEvent, true> = {
  'message.created': true,
  'message.updated': true,
  'conversation.created': true,
  'conversation.ended': true,
  'conversation.updated': true,
  'contact.created': true,
  'contact.updated': true,
  'ticket.created': true,
  'ticket.updated': true,
  'ticket.resolved': true,
  'assistant.updated': true,
  'member.joined': true,
  'member.left': true,
  'workspace.plan_changed': true,
  'conversation.rated': true,
  'sla.breached': true,
};
export const EVENT_NAMES = Object.keys(NAMES) as WebhookEvent[];

const isEventName = (name: string): name is WebhookEvent => Object.hasOwn(NAMES, name);

/** What an event means, in the dashboard's language; an unknown name as itself. */
export const eventMeaning = (name: string) => (isEventName(name) ? i18n.t(`webhooks:events.${name}`) : name);

/** `["*"]` receives every type, including types added later. */
export const ALL = '*';

export const hooksPath = (ws: string) => `/api/workspaces/${ws}/webhooks`;

export const describeEvents = (events: string[]) =>
  events.includes(ALL) ? i18n.t('webhooks:allEvents') : events.join(', ');

export { formatDateTime as when } from '../../shell/dates.ts';
