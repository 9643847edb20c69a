import type { inboxConversationSchema, inboxMessageSchema } from '@parley/contract/inbox';
import type { z } from 'zod';
import { i18n } from '../../i18n/index.ts';
import { formatDateTime } from '../../shell/dates.ts';

/**
 * The inbox as the API answers it (docs/inbox.md; the contract's schemas, packages/contract/src/inbox.ts,
 * type-only). A conversation adds `handedOffAt` and `endedAt` to the public
 * shape; a message adds its human author.
 */
export type InboxConversation = z.output<typeof inboxConversationSchema>;
export type InboxMessage = z.output<typeof inboxMessageSchema>;
export type ConversationStatus = InboxConversation['status'];
export type Channel = InboxConversation['channel'];

/** One change on `GET /api/inbox/stream` (docs/inbox.md "Live updates"). */
export type { InboxEvent } from '@parley/contract/inbox';

export const inboxPath = '/api/inbox/conversations';

/**
 * A conversation's badge: a handed-off one nobody has taken yet says a person was asked for,
 * not that one is answering (docs/dashboard.md "Inbox").
 */
export const statusWords = (c: Pick<InboxConversation, 'status' | 'assigneeId'>) =>
  c.status === 'handoff' && !c.assigneeId ? i18n.t('inbox:status.asked') : i18n.t(`inbox:status.${c.status}`);

/**
 * What happens to a closed conversation when the customer writes again: a widget session ended
 * with it, so the customer starts a new chat; elsewhere it opens again (docs/inbox.md).
 */
export const closedWords = (channel: Channel) =>
  i18n.t(channel === 'widget' ? 'inbox:conversation.closedWidget' : 'inbox:conversation.closedOther');

/**
 * Each channel's name in the dashboard's language, read when shown (the SLA pages use it too):
 * getters, so the words follow a change of language.
 */
export const CHANNEL_WORDS: Readonly<Record<Channel, string>> = {
  get widget() {
    return i18n.t('inbox:channels.widget');
  },
  get chat() {
    return i18n.t('inbox:channels.chat');
  },
  get sms() {
    return i18n.t('inbox:channels.sms');
  },
  get email() {
    return i18n.t('inbox:channels.email');
  },
};

/** The channels in the order the inbox's filter offers them. */
export const CHANNELS = Object.keys(CHANNEL_WORDS) as Channel[];

export const when = (iso: string | null) => (iso ? formatDateTime(iso) : '');

/** Each item once (cursor pages can overlap when a change moves an item between reads). */
export function uniqueById<T extends { id: string }>(items: T[]): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    if (seen.has(item.id)) return false;
    seen.add(item.id);
    return true;
  });
}
