/** Format A webhooks as the API answers them (docs/webhooks.md; webhooks.schemas.ts). */

export type Webhook = {
  id: string;
  url: string;
  events: string[];
  active: boolean;
  createdAt: string;
};

/** Only the creation answer carries the secret, once. */
export type CreatedWebhook = Webhook & { secret: string };

export type Delivery = {
  id: string;
  eventId: string;
  event: string;
  status: 'pending' | 'success' | 'failed';
  /** Of the last attempt; null when no response came. */
  statusCode: number | null;
  /** Attempts made so far. */
  attempt: number;
  /** Milliseconds of the last attempt; null when no response came. */
  duration: number | null;
  createdAt: string;
};

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
