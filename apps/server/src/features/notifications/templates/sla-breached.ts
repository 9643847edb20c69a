import type { Notice } from './types.ts';

/** `sla.breached`: a conversation's SLA clock ran out (docs/sla.md "Breaches"; docs/notifications.md "Kinds"). */
export function slaBreachedNotice(
  conversation: { id: string; title: string; channel: string },
  policy: { name: string },
  kind: 'first_response' | 'next_response' | 'resolution',
): Notice {
  const what = { first_response: 'first response', next_response: 'next response', resolution: 'resolution' }[
    kind
  ];
  const which = conversation.title.trim()
    ? `"${conversation.title.trim().slice(0, 120)}"`
    : `a ${conversation.channel} conversation`;
  return {
    type: 'sla.breached',
    title: `SLA breached: ${what} (${policy.name})`,
    body: `The ${what} target of the SLA policy ${policy.name} ran out on ${which} (${conversation.id}). Open it in the inbox.`,
  };
}
