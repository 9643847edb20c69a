import { bigint, index, pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';
import { emailConfigs } from './email.ts';
import { workspaceRef } from './refs.ts';

/**
 * The IMAP watcher's state of an email channel (docs/email.md "IMAP"). `mailboxKey` names the
 * mailbox (host, port, user, folder) that `uidValidity` and `lastUid` belong to: another mailbox
 * starts afresh. The lease (`leaseOwner` until `leaseUntil`) lets one process at a time watch it.
 */
export const emailImapState = pgTable(
  'email_imap_state',
  {
    assistantId: text('assistant_id')
      .primaryKey()
      .references(() => emailConfigs.assistantId, { onDelete: 'cascade' }),
    workspaceId: workspaceRef(),
    mailboxKey: text('mailbox_key'),
    uidValidity: bigint('uid_validity', { mode: 'number' }),
    lastUid: bigint('last_uid', { mode: 'number' }),
    leaseOwner: text('lease_owner'),
    leaseUntil: ts('lease_until'),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('email_imap_state_workspace_idx').on(t.workspaceId)],
);

export type EmailImapStateRow = typeof emailImapState.$inferSelect;
