import type { Notice } from './types.ts';

/**
 * `conversation.assigned`: a conversation was given to someone other than whoever gave it, by
 * another member or by auto-assignment (docs/inbox.md "Auto-assignment"; docs/notifications.md "Kinds").
 */
export function conversationAssignedNotice(
  conversation: { id: string; title: string; channel: string },
  by: { type: 'user'; name: string } | { type: 'system' },
): Notice {
  const what = conversation.title.trim()
    ? `"${conversation.title.trim().slice(0, 120)}"`
    : `a ${conversation.channel} conversation`;
  const who = by.type === 'user' ? `${by.name || 'A teammate'} assigned you` : 'Auto-assignment gave you';
  return {
    type: 'conversation.assigned',
    title: 'A conversation was assigned to you',
    body: `${who} ${what} (${conversation.id}). Open it in the inbox to answer.`,
  };
}
