import { and, asc, count, eq, gt, inArray, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.ts';
import { at, claimDueSends } from '../../db/leases.ts';
import {
  assistants,
  emailAttachments,
  emailConfigs,
  emailInbound,
  emailMessages,
  messages,
  workspaces,
} from '../../db/schema/index.ts';
import { EMAIL_INBOUND_CHANNEL } from '../../jobs/listen.ts';

export type EmailConfigRow = typeof emailConfigs.$inferSelect;
export type EmailInboundRow = typeof emailInbound.$inferSelect;
export type EmailMessageRow = typeof emailMessages.$inferSelect;
export type EmailAttachmentRow = typeof emailAttachments.$inferSelect;

const configOf = (workspaceId: string, assistantId: string) =>
  and(eq(emailConfigs.assistantId, assistantId), eq(emailConfigs.workspaceId, workspaceId));

export async function findConfig(db: Executor, workspaceId: string, assistantId: string) {
  const [row] = await db.select().from(emailConfigs).where(configOf(workspaceId, assistantId)).limit(1);
  return row;
}

/** The assistant holding `address` anywhere on the server, if any (one address, one assistant). */
export async function holderOf(db: Executor, address: string) {
  const [row] = await db
    .select({ assistantId: emailConfigs.assistantId })
    .from(emailConfigs)
    .where(eq(emailConfigs.address, address.toLowerCase()))
    .limit(1);
  return row?.assistantId;
}

/** The channel, its assistant and the workspace's plan fields, by the assistant (jobs, the watcher). */
/** Email channels with their assistant and the workspace's plan fields. */
const channelRows = (db: Executor) =>
  db
    .select({
      config: emailConfigs,
      assistant: assistants,
      plan: workspaces.plan,
      trialEndsAt: workspaces.trialEndsAt,
      billingStatus: workspaces.billingStatus,
      monthlyCredits: workspaces.monthlyCredits,
    })
    .from(emailConfigs)
    .innerJoin(assistants, eq(assistants.id, emailConfigs.assistantId))
    .innerJoin(workspaces, eq(workspaces.id, emailConfigs.workspaceId));

export type EmailChannel = NonNullable<Awaited<ReturnType<typeof findChannel>>>;

export async function findChannel(db: Executor, assistantId: string) {
  const [row] = await channelRows(db).where(eq(emailConfigs.assistantId, assistantId)).limit(1);
  return row;
}

/** The channel whose forwarding token hashes to `tokenHash`, as findChannel's. */
export async function findByForwardToken(db: Executor, tokenHash: string): Promise<EmailChannel | undefined> {
  const [row] = await channelRows(db).where(eq(emailConfigs.forwardTokenHash, tokenHash)).limit(1);
  return row;
}

export async function insertConfig(db: Executor, row: typeof emailConfigs.$inferInsert) {
  const [out] = await db.insert(emailConfigs).values(row).returning();
  return out!;
}

export async function updateConfig(
  db: Executor,
  workspaceId: string,
  assistantId: string,
  patch: Partial<typeof emailConfigs.$inferInsert>,
) {
  const [out] = await db
    .update(emailConfigs)
    .set(patch)
    .where(configOf(workspaceId, assistantId))
    .returning();
  return out;
}

export async function deleteConfig(db: Executor, workspaceId: string, assistantId: string) {
  const rows = await db
    .delete(emailConfigs)
    .where(configOf(workspaceId, assistantId))
    .returning({ id: emailConfigs.assistantId });
  return rows.length > 0;
}

/** Whether `address` is any channel's address on this server (mail between assistants). */
export async function isChannelAddress(db: Executor, address: string) {
  return (await holderOf(db, address)) !== undefined;
}

/** Stores a raw message once per channel and Message-ID; undefined when it was stored before. */
/**
 * Stores a received message once per channel and Message-ID; undefined when it had been stored
 * before. `notify`: in the same statement, a NOTIFY for the processes that process mail (sent at
 * commit, only when a row was stored), for a process that does not run that job itself.
 */
export async function insertInbound(db: Executor, row: typeof emailInbound.$inferInsert, notify: boolean) {
  const insert = db
    .insert(emailInbound)
    .values(row)
    .onConflictDoNothing({ target: [emailInbound.assistantId, emailInbound.messageIdHeader] })
    .returning({ id: emailInbound.id });
  if (!notify) return (await insert)[0]?.id;
  const rows = await queryRows<{ id: string }>(
    db,
    sql`with stored as (${insert.getSQL()}) select id, pg_notify(${EMAIL_INBOUND_CHANNEL}, '') from stored`,
  );
  return rows[0]?.id;
}

/**
 * Claims up to `limit` stored messages to process, each the oldest unprocessed one of its
 * channel (one channel's mail is taken in order), leased until `leaseUntil`.
 */
export async function claimInbound(db: Executor, limit: number, when: Date, leaseUntil: Date) {
  return queryRows<{ id: string }>(
    db,
    sql`update email_inbound set lease_until = ${at(leaseUntil)}, attempts = attempts + 1
        where id in (
          select i.id from email_inbound i
          where i.state <> 'done' and (i.lease_until is null or i.lease_until < ${at(when)})
          order by i.received_at
          limit ${limit}
          for update of i skip locked)
        returning id`,
  );
}

export async function findInbound(db: Executor, id: string) {
  const [row] = await db.select().from(emailInbound).where(eq(emailInbound.id, id)).limit(1);
  return row;
}

export async function updateInbound(
  db: Executor,
  id: string,
  patch: Partial<typeof emailInbound.$inferInsert>,
) {
  await db.update(emailInbound).set(patch).where(eq(emailInbound.id, id));
}

/** The conversation of this channel that one of `ids` (Message-IDs) belongs to, newest first. */
export async function threadOf(db: Executor, workspaceId: string, assistantId: string, ids: string[]) {
  if (ids.length === 0) return undefined;
  const [row] = await db
    .select({ conversationId: emailMessages.conversationId })
    .from(emailMessages)
    .where(
      and(
        eq(emailMessages.workspaceId, workspaceId),
        eq(emailMessages.assistantId, assistantId),
        inArray(emailMessages.messageIdHeader, ids.slice(0, 100)),
      ),
    )
    .orderBy(sql`${emailMessages.createdAt} desc`)
    .limit(1);
  return row?.conversationId;
}

export async function insertEmailMessage(db: Executor, row: typeof emailMessages.$inferInsert) {
  const [out] = await db.insert(emailMessages).values(row).returning();
  return out!;
}

export async function insertAttachments(db: Executor, rows: (typeof emailAttachments.$inferInsert)[]) {
  if (rows.length > 0) await db.insert(emailAttachments).values(rows);
}

/**
 * The count of the AI's replies to `address` on this channel since `since` (the per-sender limit),
 * as a query: it reads `email_messages_ai_reply_idx` (test/email/no-reply.test.ts checks its plan).
 */
export function aiRepliesQuery(
  db: Executor,
  workspaceId: string,
  assistantId: string,
  address: string,
  since: Date,
) {
  return db
    .select({ n: count() })
    .from(emailMessages)
    .where(
      and(
        eq(emailMessages.workspaceId, workspaceId),
        eq(emailMessages.assistantId, assistantId),
        eq(emailMessages.byAi, true),
        sql`(${emailMessages.to}->0)->>'address' = ${address}`,
        gt(emailMessages.createdAt, since),
      ),
    );
}

export async function aiRepliesTo(
  db: Executor,
  workspaceId: string,
  assistantId: string,
  address: string,
  since: Date,
) {
  const [row] = await aiRepliesQuery(db, workspaceId, assistantId, address, since);
  return row?.n ?? 0;
}

/** The last inbound email of a conversation: whom a reply goes to, and what it answers. */
export async function lastInboundOf(db: Executor, workspaceId: string, conversationId: string) {
  const [row] = await db
    .select()
    .from(emailMessages)
    .where(
      and(
        eq(emailMessages.workspaceId, workspaceId),
        eq(emailMessages.conversationId, conversationId),
        eq(emailMessages.direction, 'inbound'),
      ),
    )
    .orderBy(sql`${emailMessages.createdAt} desc`)
    .limit(1);
  return row;
}

/** The email side of a page of messages, with their attachments (without the bytes). */
export async function emailOf(db: Executor, workspaceId: string, messageIds: string[]) {
  if (messageIds.length === 0) return { rows: [], files: [] };
  const [rows, files] = await Promise.all([
    db
      .select()
      .from(emailMessages)
      .where(and(eq(emailMessages.workspaceId, workspaceId), inArray(emailMessages.messageId, messageIds))),
    db
      .select({
        id: emailAttachments.id,
        messageId: emailAttachments.messageId,
        filename: emailAttachments.filename,
        declaredType: emailAttachments.declaredType,
        detectedType: emailAttachments.detectedType,
        size: emailAttachments.size,
      })
      .from(emailAttachments)
      .where(
        and(eq(emailAttachments.workspaceId, workspaceId), inArray(emailAttachments.messageId, messageIds)),
      )
      .orderBy(asc(emailAttachments.createdAt), asc(emailAttachments.id)),
  ]);
  return { rows, files };
}

export async function findAttachment(
  db: Executor,
  workspaceId: string,
  conversationId: string,
  attachmentId: string,
) {
  const [row] = await db
    .select()
    .from(emailAttachments)
    .where(
      and(
        eq(emailAttachments.workspaceId, workspaceId),
        eq(emailAttachments.conversationId, conversationId),
        eq(emailAttachments.id, attachmentId),
      ),
    )
    .limit(1);
  return row;
}

/** Claims due sends, leased until `leaseUntil` (db/leases.ts). */
export const claimOutbound = (db: Executor, limit: number, when: Date, leaseUntil: Date) =>
  claimDueSends(db, { table: 'email_messages', state: 'delivery_state' }, limit, when, leaseUntil);

/** An outbound email with its message's text and citations. */
export async function findOutbound(db: Executor, messageId: string) {
  const [row] = await db
    .select({ email: emailMessages, content: messages.content, citations: messages.citations })
    .from(emailMessages)
    .innerJoin(messages, eq(messages.id, emailMessages.messageId))
    .where(eq(emailMessages.messageId, messageId))
    .limit(1);
  return row;
}

export async function updateEmailMessage(
  db: Executor,
  messageId: string,
  patch: Partial<typeof emailMessages.$inferInsert>,
) {
  await db.update(emailMessages).set(patch).where(eq(emailMessages.messageId, messageId));
}
