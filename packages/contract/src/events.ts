/** Form A's vocabulary (docs/webhooks.md "Event names"): the internal names of happenings. */
export const FORMAT_A_EVENTS = [
  'message.created',
  'message.updated',
  'conversation.created',
  'conversation.ended',
  // Added by docs/inbox.md "Events": handed to a person, released to the AI, reopened, assigned.
  'conversation.updated',
  'contact.created',
  'contact.updated',
  'ticket.created',
  'ticket.updated',
  'ticket.resolved',
  'assistant.updated',
  'member.joined',
  'member.left',
  // Added by docs/billing.md "Events": a workspace's plan in force changed.
  'workspace.plan_changed',
  // Added by docs/csat.md: a customer rated a conversation.
  'conversation.rated',
  // Added by docs/sla.md: a conversation's SLA clock ran out.
  'sla.breached',
] as const;

/**
 * Internal event names: Form A's, plus one happening with only a Form B name
 * (docs/webhooks.md "Event names").
 */
export const EVENT_TYPES = [...FORMAT_A_EVENTS, 'lead.captured'] as const;

export type EventType = (typeof EVENT_TYPES)[number];
