import { EVENT_TYPES, FORMAT_A_EVENTS } from '@parley/contract/events';
import type { WebhookFormat } from '../../db/schema/index.ts';

export { FORMAT_A_EVENTS };

/** Form B's vocabulary (docs/webhooks.md "Event names"). */
export const FORMAT_B_EVENTS = [
  'chat.message.created',
  'chat.session.created',
  'ticket.created',
  'ticket.updated',
  'lead.captured',
  'contact.created',
] as const;

/**
 * Internal type → Form B name (docs/webhooks.md "Event names"); null = no Form B event. Internal types are
 * the Form A names, plus `lead.captured`, which has no Form A name.
 */
const TO_B: Record<string, string | null> = {
  'message.created': 'chat.message.created',
  'message.updated': null,
  'conversation.created': 'chat.session.created',
  'conversation.ended': null,
  'conversation.updated': null,
  'contact.created': 'contact.created',
  'contact.updated': null,
  'ticket.created': 'ticket.created',
  'ticket.updated': 'ticket.updated',
  'ticket.resolved': null,
  'assistant.updated': null,
  'member.joined': null,
  'member.left': null,
  'workspace.plan_changed': null,
  'conversation.rated': null,
  'sla.breached': null,
  'lead.captured': 'lead.captured',
};
const TO_A: Record<string, string | null> = { 'lead.captured': null };

/**
 * The name an internal event type carries in `format`, or null when that format has no such
 * event. A type not in the tables (added after this code was written) keeps its own name in
 * both formats, so `["*"]` subscribers receive future types
 * (docs/webhooks.md "Two families: Format A and Format B").
 */
export function nameInFormat(type: string, format: WebhookFormat): string | null {
  const table = format === 'A' ? TO_A : TO_B;
  return type in table ? (table[type] ?? null) : type;
}

export function vocabulary(format: WebhookFormat): readonly string[] {
  return format === 'A' ? FORMAT_A_EVENTS : FORMAT_B_EVENTS;
}

/** Does a webhook subscribed to `subscribed` receive the internal type? Returns its name if so. */
export function matchEvent(
  type: string,
  format: WebhookFormat,
  subscribed: readonly string[],
): string | null {
  const name = nameInFormat(type, format);
  if (name === null) return null;
  return subscribed.includes('*') || subscribed.includes(name) ? name : null;
}

// Every internal type is mapped explicitly above; keep it that way when adding types.
for (const t of EVENT_TYPES) {
  if (!(t in TO_B)) throw new Error(`event type ${t} has no Form B mapping (docs/webhooks.md "Event names")`);
}
