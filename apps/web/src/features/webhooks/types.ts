/**
 * Format A webhooks as the API answers them (docs/webhooks.md; the server's types,
 * apps/server/src/api-types.ts). Only the creation answer carries the secret, once. A delivery's
 * `statusCode` and `duration` (ms) are of its last attempt, null when no response came.
 */
export type { CreatedWebhook, Delivery, Webhook } from '@parley/server/src/api-types.ts';

/** Format A's event names with what they mean (docs/webhooks.md "Event names"). */
export const EVENTS: ReadonlyArray<{ name: string; what: string }> = [
  { name: 'message.created', what: 'a message is stored (user, AI or agent)' },
  { name: 'message.updated', what: 'a message is edited' },
  { name: 'conversation.created', what: 'a conversation starts' },
  { name: 'conversation.ended', what: 'a conversation closes or a widget session ends' },
  { name: 'contact.created', what: 'a contact is created (lead forms included)' },
  { name: 'contact.updated', what: 'a contact changes' },
  { name: 'ticket.created', what: 'a ticket is created' },
  { name: 'ticket.updated', what: 'a ticket changes' },
  { name: 'ticket.resolved', what: 'a ticket is resolved' },
  { name: 'assistant.updated', what: "an assistant's configuration (or its widget) changes" },
  { name: 'member.joined', what: 'someone joins the workspace' },
  { name: 'member.left', what: 'someone leaves the workspace' },
];

/** `["*"]` receives every type, including types added later. */
export const ALL = '*';

export const hooksPath = (ws: string) => `/api/workspaces/${ws}/webhooks`;

export const describeEvents = (events: string[]) => (events.includes(ALL) ? 'All events' : events.join(', '));

export const when = (iso: string) => new Date(iso).toLocaleString();
