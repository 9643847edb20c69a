import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.ts';
import { emailConfigs, emailImapState } from '../../db/schema/index.ts';

/**
 * The IMAP watcher's rows (docs/email.md "IMAP"): the channels to watch, the lease that gives
 * one process a mailbox at a time, the UIDs taken, and the channel's status. Lease times are
 * the database's clock, the one clock every process shares.
 */

/** An enabled channel reading a mailbox, as the supervisor needs it. */
export type ImapChannel = {
  assistantId: string;
  workspaceId: string;
  host: string;
  port: number;
  secure: boolean;
  username: string;
  passwordSealed: string;
  mailbox: string;
};

/** Every enabled channel in IMAP mode, across workspaces: the supervisor's pass (a job). */
export async function listImapChannels(db: Executor): Promise<ImapChannel[]> {
  const rows = await db
    .select({
      assistantId: emailConfigs.assistantId,
      workspaceId: emailConfigs.workspaceId,
      host: emailConfigs.imapHost,
      port: emailConfigs.imapPort,
      secure: emailConfigs.imapSecure,
      username: emailConfigs.imapUsername,
      passwordSealed: emailConfigs.imapPasswordSealed,
      mailbox: emailConfigs.imapMailbox,
    })
    .from(emailConfigs)
    .where(
      and(
        eq(emailConfigs.isEnabled, true),
        eq(emailConfigs.inboundMode, 'imap'),
        isNotNull(emailConfigs.imapHost),
        isNotNull(emailConfigs.imapPasswordSealed),
      ),
    );
  return rows.flatMap((r) =>
    r.host && r.port && r.username && r.passwordSealed
      ? [
          {
            assistantId: r.assistantId,
            workspaceId: r.workspaceId,
            host: r.host,
            port: r.port,
            secure: r.secure ?? true,
            username: r.username,
            passwordSealed: r.passwordSealed,
            mailbox: r.mailbox || 'INBOX',
          },
        ]
      : [],
  );
}

/**
 * Takes or renews the lease on a channel's mailbox for `owner`, for `ttlMs` from now: true when
 * `owner` holds it afterwards. Free, expired or already `owner`'s: taken; held by another: not.
 */
export async function claimLease(
  db: Executor,
  workspaceId: string,
  assistantId: string,
  owner: string,
  ttlMs: number,
): Promise<boolean> {
  const rows = await queryRows<{ owner: string }>(
    db,
    sql`INSERT INTO email_imap_state (assistant_id, workspace_id, lease_owner, lease_until)
        SELECT ${assistantId}, ${workspaceId}, ${owner}, now() + ${ttlMs} * interval '1 millisecond'
        WHERE EXISTS (SELECT 1 FROM email_configs WHERE assistant_id = ${assistantId} AND workspace_id = ${workspaceId})
        ON CONFLICT (assistant_id) DO UPDATE
          SET lease_owner = excluded.lease_owner, lease_until = excluded.lease_until
          WHERE email_imap_state.workspace_id = ${workspaceId}
            AND (email_imap_state.lease_owner IS NULL
              OR email_imap_state.lease_owner = ${owner}
              OR email_imap_state.lease_until < now())
        RETURNING lease_owner AS owner`,
  );
  return rows[0]?.owner === owner;
}

/**
 * Drops the state of channels no longer read by IMAP (disabled, or switched to forwarding), across
 * workspaces (the job's pass): enabled again, such a channel starts from the mailbox's UIDNEXT.
 */
export async function forgetUnwatched(db: Executor) {
  await db.execute(
    sql`DELETE FROM email_imap_state s USING email_configs c
        WHERE c.assistant_id = s.assistant_id AND (NOT c.is_enabled OR c.inbound_mode <> 'imap')`,
  );
}

/** Gives the lease up (a stop, a channel no longer watched) so another process takes it at once. */
export async function releaseLease(db: Executor, workspaceId: string, assistantId: string, owner: string) {
  await db
    .update(emailImapState)
    .set({ leaseOwner: null, leaseUntil: null })
    .where(
      and(
        eq(emailImapState.workspaceId, workspaceId),
        eq(emailImapState.assistantId, assistantId),
        eq(emailImapState.leaseOwner, owner),
      ),
    );
}

export type ImapPosition = { mailboxKey: string | null; uidValidity: number | null; lastUid: number | null };

export async function readPosition(
  db: Executor,
  workspaceId: string,
  assistantId: string,
): Promise<ImapPosition> {
  const [row] = await db
    .select({
      mailboxKey: emailImapState.mailboxKey,
      uidValidity: emailImapState.uidValidity,
      lastUid: emailImapState.lastUid,
    })
    .from(emailImapState)
    .where(and(eq(emailImapState.workspaceId, workspaceId), eq(emailImapState.assistantId, assistantId)));
  return row ?? { mailboxKey: null, uidValidity: null, lastUid: null };
}

/**
 * Records where the watcher stands: the mailbox, its UIDVALIDITY and the last UID taken. Only
 * while `owner` holds the lease: false when it has lost it (the watcher then stops).
 */
export async function savePosition(
  db: Executor,
  workspaceId: string,
  assistantId: string,
  owner: string,
  position: { mailboxKey: string; uidValidity: number; lastUid: number },
): Promise<boolean> {
  const rows = await db
    .update(emailImapState)
    .set({ ...position, updatedAt: sql`now()` })
    .where(
      and(
        eq(emailImapState.workspaceId, workspaceId),
        eq(emailImapState.assistantId, assistantId),
        eq(emailImapState.leaseOwner, owner),
      ),
    )
    .returning({ id: emailImapState.assistantId });
  return rows.length > 0;
}

/**
 * The channel's `status` (docs/email.md "Configuration"), written by the watcher that holds the
 * mailbox. Its errors start with "IMAP:"; an ok replaces only those (or an ok), never an error
 * the sending side reported.
 */
export async function setImapStatus(
  db: Executor,
  workspaceId: string,
  assistantId: string,
  status: { state: 'ok' | 'error'; message: string },
) {
  await db
    .update(emailConfigs)
    .set({ statusState: status.state, statusMessage: status.message, statusCheckedAt: sql`now()` })
    .where(
      and(
        eq(emailConfigs.workspaceId, workspaceId),
        eq(emailConfigs.assistantId, assistantId),
        eq(emailConfigs.inboundMode, 'imap'),
        status.state === 'ok'
          ? sql`(${emailConfigs.statusState} = 'ok' OR ${emailConfigs.statusMessage} LIKE 'IMAP:%')`
          : undefined,
      ),
    );
}
