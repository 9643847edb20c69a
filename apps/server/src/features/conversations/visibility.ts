import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { conversations } from '../../db/schema/index.ts';
import type { ConversationRow } from './conversations.repo.ts';

/**
 * Which conversations the workspace's team and its integrations see (docs/inbox.md "Which
 * conversations the inbox shows"; docs/decisions/0024-private-chats-and-integrations.md): every
 * widget and SMS conversation, and an internal chat only once a person was asked for
 * (`handed_off_at` set, never cleared again). Before that the chat is its starter's own: the
 * inbox, the `/api/v1` surface, the tickets routes' `conversationId` and webhooks all treat it as
 * missing.
 *
 * One rule in two forms, kept side by side so they cannot drift:
 * `inInbox` for a row already in hand (a lock held, a row just written), `inInboxSql` inside a
 * statement that reads the row itself (a lookup, the inbox list, a message's event insert).
 * test/v1/private-chats.test.ts checks that both agree on every kind of conversation.
 */
export const inInbox = (c: Pick<ConversationRow, 'channel' | 'handedOffAt'>): boolean =>
  c.channel !== 'chat' || c.handedOffAt !== null;

/**
 * `inInbox` as a SQL condition over a conversation's `channel` and `handed_off_at` columns: the
 * conversations table by default, or a CTE's columns (`sql\`c.channel\``).
 */
export const inInboxSql = (c: { channel: SQLWrapper; handedOffAt: SQLWrapper } = conversations): SQL =>
  sql`(${c.channel} <> 'chat' or ${c.handedOffAt} is not null)`;
