import type { WebhookEvent } from '@parley/contract/api-types';

/**
 * Format A webhooks as the API answers them (docs/webhooks.md; the server's types,
 * packages/contract/src/api-types.ts). Only the creation answer carries the secret, once. A delivery's
 * `statusCode` and `duration` (ms) are of its last attempt, null when no response came.
 */
export type { CreatedWebhook, Delivery, Webhook } from '@parley/contract/api-types';

/**
 * Format A's event names with what they mean (docs/webhooks.md "Event names"). Keyed by the
 * server's own list of names, so a name added or dropped there fails the typecheck here.
 */
const MEANING: Record<WebhookEvent, string> = {
  'message.created': 'a message is stored (user, AI or agent)',
  'message.updated': "a message is edited or its details change (an SMS's delivery status)",
  'conversation.created': 'a conversation starts',
  'conversation.ended': 'a conversation closes or a widget session ends',
  'conversation.updated': 'a conversation is taken over, released to the AI, assigned or reopened',
  'contact.created': 'a contact is created (lead forms included)',
  'contact.updated': 'a contact changes',
  'ticket.created': 'a ticket is created',
  'ticket.updated': 'a ticket changes',
  'ticket.resolved': 'a ticket is resolved',
  'assistant.updated': "an assistant's configuration (or its widget) changes",
  'member.joined': 'someone joins the workspace',
  'member.left': 'someone leaves the workspace',
  'workspace.plan_changed': "the workspace's plan changes (upgrade, downgrade, trial end)",
  'conversation.rated': 'a customer rates a conversation after a person helped (satisfaction survey)',
  'sla.breached': "a conversation's SLA target runs out (first response, next response or resolution)",
};
export const EVENTS = Object.entries(MEANING).map(([name, what]) => ({ name, what }));

/** `["*"]` receives every type, including types added later. */
export const ALL = '*';

export const hooksPath = (ws: string) => `/api/workspaces/${ws}/webhooks`;

export const describeEvents = (events: string[]) => (events.includes(ALL) ? 'All events' : events.join(', '));

export { formatDateTime as when } from '../../shell/dates.ts';
