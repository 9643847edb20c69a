/** Internal event names: the Form A vocabulary (spec Events; decisions §9 maps Form B). */
export const EVENT_TYPES = [
  'message.created',
  'message.updated',
  'conversation.created',
  'conversation.ended',
  'contact.created',
  'contact.updated',
  'ticket.created',
  'ticket.updated',
  'ticket.resolved',
  'assistant.updated',
  'member.joined',
  'member.left',
  // Internal-only happening with a Form B name and no Form A name (decisions §9).
  'lead.captured',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];
