import { and, count, desc, eq, type SQL, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.ts';
import { at, claimDueSends } from '../../db/leases.ts';
import { messageVolume } from '../../db/message-volume.ts';
import {
  assistants,
  type SmsDeliveryStatus,
  smsConfigs,
  smsInbound,
  smsOutbound,
  smsSessions,
  smsStatusEvents,
  workspaces,
} from '../../db/schema/index.ts';
import { SMS_INBOUND_CHANNEL } from '../../jobs/listen.ts';

export type SmsConfigRow = typeof smsConfigs.$inferSelect;
export type SmsSessionRow = typeof smsSessions.$inferSelect;
export type SmsInboundRow = typeof smsInbound.$inferSelect;
export type SmsOutboundRow = typeof smsOutbound.$inferSelect;
/** A row of a workspace (an assistant, a session), addressed by both ids (decision 0011). */
type Ref = { workspaceId: string; id: string };
const sessionIs = (s: Ref) => and(eq(smsSessions.workspaceId, s.workspaceId), eq(smsSessions.id, s.id));

export async function findConfig(db: Executor, workspaceId: string, assistantId: string) {
  const [row] = await db
    .select()
    .from(smsConfigs)
    .where(and(eq(smsConfigs.assistantId, assistantId), eq(smsConfigs.workspaceId, workspaceId)))
    .limit(1);
  return row;
}

/** The assistant holding `phoneNumber`, if any. */
export async function holderOf(db: Executor, phoneNumber: string) {
  const [row] = await db
    .select({ assistantId: smsConfigs.assistantId })
    .from(smsConfigs)
    .where(eq(smsConfigs.phoneNumber, phoneNumber))
    .limit(1);
  return row?.assistantId;
}

/**
 * What the public callbacks need, in one query: the configuration, its assistant and the
 * workspace's plan fields (for the plan check and the credit limit).
 */
export async function findForCallback(db: Executor, assistantId: string) {
  const [row] = await db
    .select({
      config: smsConfigs,
      assistant: assistants,
      plan: workspaces.plan,
      trialEndsAt: workspaces.trialEndsAt,
      billingStatus: workspaces.billingStatus,
      monthlyCredits: workspaces.monthlyCredits,
    })
    .from(smsConfigs)
    .innerJoin(assistants, eq(assistants.id, smsConfigs.assistantId))
    .innerJoin(workspaces, eq(workspaces.id, smsConfigs.workspaceId))
    .where(eq(smsConfigs.assistantId, assistantId))
    .limit(1);
  return row;
}

export async function insertConfig(db: Executor, row: typeof smsConfigs.$inferInsert) {
  const [out] = await db.insert(smsConfigs).values(row).returning();
  return out!;
}

/** Inserts or replaces the given fields (Form B's PUT); other fields keep their values. */
export async function upsertConfig(
  db: Executor,
  row: typeof smsConfigs.$inferInsert,
  set: Partial<typeof smsConfigs.$inferInsert>,
) {
  const [out] = await db
    .insert(smsConfigs)
    .values(row)
    .onConflictDoUpdate({ target: smsConfigs.assistantId, set })
    .returning();
  return out!;
}

export async function updateConfig(
  db: Executor,
  workspaceId: string,
  assistantId: string,
  patch: Partial<typeof smsConfigs.$inferInsert>,
) {
  const [out] = await db
    .update(smsConfigs)
    .set(patch)
    .where(and(eq(smsConfigs.assistantId, assistantId), eq(smsConfigs.workspaceId, workspaceId)))
    .returning();
  return out;
}

export async function deleteConfig(db: Executor, workspaceId: string, assistantId: string) {
  const rows = await db
    .delete(smsConfigs)
    .where(and(eq(smsConfigs.assistantId, assistantId), eq(smsConfigs.workspaceId, workspaceId)))
    .returning({ id: smsConfigs.assistantId });
  return rows.length > 0;
}

/**
 * Stores an inbound message once per provider id; undefined when it had been stored before.
 * `notify`: in the same statement, a NOTIFY for the processes that answer (sent at commit, and only
 * when a row was stored), for a process that does not run the answering job itself.
 */
export async function insertInbound(db: Executor, row: typeof smsInbound.$inferInsert, notify: boolean) {
  const insert = db
    .insert(smsInbound)
    .values(row)
    .onConflictDoNothing({ target: [smsInbound.assistantId, smsInbound.providerSid] })
    .returning({ id: smsInbound.id });
  if (!notify) return (await insert)[0]?.id;
  const rows = await queryRows<{ id: string }>(
    db,
    sql`with stored as (${insert.getSQL()}) select id, pg_notify(${SMS_INBOUND_CHANNEL}, '') from stored`,
  );
  return rows[0]?.id;
}

/**
 * Claims up to `limit` inbound messages to answer, each the oldest unanswered one of its sender
 * (one sender's messages are answered one at a time, in order), leased until `leaseUntil`.
 */
export async function claimInbound(db: Executor, limit: number, when: Date, leaseUntil: Date) {
  return queryRows<{ id: string }>(
    db,
    sql`update sms_inbound set lease_until = ${at(leaseUntil)}, attempts = attempts + 1
        where id in (
          select i.id from sms_inbound i
          where i.state <> 'done' and (i.lease_until is null or i.lease_until < ${at(when)})
            and not exists (
              select 1 from sms_inbound j
              where j.assistant_id = i.assistant_id and j.from_number = i.from_number
                and j.state <> 'done' and (j.received_at, j.id) < (i.received_at, i.id))
          order by i.received_at
          limit ${limit}
          for update of i skip locked)
        returning id`,
  );
}

export async function findInbound(db: Executor, id: string) {
  const [row] = await db.select().from(smsInbound).where(eq(smsInbound.id, id)).limit(1);
  return row;
}

export async function updateInbound(
  db: Executor,
  id: string,
  patch: Partial<typeof smsInbound.$inferInsert>,
) {
  await db.update(smsInbound).set(patch).where(eq(smsInbound.id, id));
}

export async function activeSession(db: Executor, assistant: Ref, phoneNumber: string) {
  const [row] = await db
    .select()
    .from(smsSessions)
    .where(
      and(
        eq(smsSessions.workspaceId, assistant.workspaceId),
        eq(smsSessions.assistantId, assistant.id),
        eq(smsSessions.phoneNumber, phoneNumber),
        eq(smsSessions.status, 'active'),
      ),
    )
    .limit(1);
  return row;
}

export async function insertSession(db: Executor, row: typeof smsSessions.$inferInsert) {
  const [out] = await db.insert(smsSessions).values(row).returning();
  return out!;
}

/** active → ended; false when it had ended already. */
export async function endSession(db: Executor, session: Ref, when: Date) {
  const rows = await db
    .update(smsSessions)
    .set({ status: 'ended', endedAt: when })
    .where(and(sessionIs(session), eq(smsSessions.status, 'active')))
    .returning({ id: smsSessions.id });
  return rows.length > 0;
}

/** One more message in the session (and its conversation, once known). */
export async function countSessionMessage(db: Executor, session: Ref, when: Date, conversationId?: string) {
  await db
    .update(smsSessions)
    .set({
      messageCount: sql`${smsSessions.messageCount} + 1`,
      lastMessageAt: when,
      ...(conversationId ? { conversationId } : {}),
    })
    .where(sessionIs(session));
}

export async function countSessionReply(
  db: Executor,
  workspaceId: string,
  conversationId: string,
  when: Date,
) {
  await db
    .update(smsSessions)
    .set({ messageCount: sql`${smsSessions.messageCount} + 1`, lastMessageAt: when })
    .where(
      and(
        eq(smsSessions.workspaceId, workspaceId),
        eq(smsSessions.conversationId, conversationId),
        eq(smsSessions.status, 'active'),
      ),
    );
}

/** Active sessions silent for longer than their assistant's timeout, locked for ending. */
export async function lockIdleSessions(tx: Executor, when: Date, limit: number) {
  return queryRows<{ id: string; workspace_id: string; conversation_id: string | null }>(
    tx,
    sql`select s.id, s.workspace_id, s.conversation_id from sms_sessions s
        left join sms_configs c on c.assistant_id = s.assistant_id
        where s.status = 'active'
          and s.last_message_at < ${at(when)} - interval '1 minute'
          and s.last_message_at + make_interval(mins => coalesce(c.session_timeout_minutes, 30)) <= ${at(when)}
        order by s.last_message_at
        limit ${limit}
        for update of s skip locked`,
  );
}

export async function listSessions(
  db: Executor,
  workspaceId: string,
  assistantId: string,
  page: { limit: number; offset: number },
) {
  const where = and(eq(smsSessions.assistantId, assistantId), eq(smsSessions.workspaceId, workspaceId));
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(smsSessions)
      .where(where)
      .orderBy(desc(smsSessions.lastMessageAt), desc(smsSessions.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(smsSessions).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

export async function insertOutbound(db: Executor, row: typeof smsOutbound.$inferInsert) {
  const [out] = await db
    .insert(smsOutbound)
    .values(row)
    .onConflictDoNothing({ target: smsOutbound.messageId })
    .returning();
  return out;
}

/** Claims due sends, leased until `leaseUntil` (db/leases.ts). */
export const claimOutbound = (db: Executor, limit: number, when: Date, leaseUntil: Date) =>
  claimDueSends(db, { table: 'sms_outbound', state: 'state' }, limit, when, leaseUntil);

export async function findOutbound(db: Executor, messageId: string) {
  const [row] = await db.select().from(smsOutbound).where(eq(smsOutbound.messageId, messageId)).limit(1);
  return row;
}

export async function updateOutbound(
  db: Executor,
  messageId: string,
  patch: Partial<typeof smsOutbound.$inferInsert>,
) {
  await db.update(smsOutbound).set(patch).where(eq(smsOutbound.messageId, messageId));
}

/** Progress of a delivery status: a status moves only to a higher rank; all final ones rank alike. */
const rank = (column: SQL | string) =>
  sql`(case ${column} when 'queued' then 0 when 'sent' then 1 when 'delivered' then 2
        when 'undelivered' then 2 when 'failed' then 2 else -1 end)`;

/**
 * Moves the delivery status of the message the provider knows as `providerSid` forward (never
 * back, never from a final status to another). The provider's error code comes with the status
 * it explains: taken when the status moves, kept when a later callback does not move it.
 */
export async function advanceStatus(
  db: Executor,
  assistantId: string,
  providerSid: string,
  status: SmsDeliveryStatus,
  errorCode: string | null,
  when: Date,
): Promise<{ messageId: string; deliveryStatus: string; errorCode: string | null } | null> {
  // The row is locked as it is read, so `before` is the status this update replaced.
  const rows = await queryRows<{
    message_id: string;
    delivery_status: string;
    error_code: string | null;
    before: string;
  }>(
    db,
    sql`with old as (
          select message_id, delivery_status as before from sms_outbound
          where assistant_id = ${assistantId} and provider_sid = ${providerSid}
          for update)
        update sms_outbound s set
          delivery_status = case when ${rank(sql`s.delivery_status`)} < ${rank(status)} then ${status} else s.delivery_status end,
          error_code = case
            when ${rank(sql`s.delivery_status`)} < ${rank(status)} then coalesce(${errorCode}, s.error_code)
            when s.delivery_status = ${status} then coalesce(s.error_code, ${errorCode})
            else s.error_code end,
          updated_at = ${at(when)}
        from old where s.message_id = old.message_id
        returning s.message_id, s.delivery_status, s.error_code, old.before`,
  );
  const row = rows[0];
  if (!row || row.before === row.delivery_status) return null;
  return { messageId: row.message_id, deliveryStatus: row.delivery_status, errorCode: row.error_code };
}

export async function insertStatusEvent(db: Executor, row: typeof smsStatusEvents.$inferInsert) {
  await db.insert(smsStatusEvents).values(row);
}

export async function statusEventsOf(db: Executor, assistantId: string, providerSid: string) {
  return db
    .select()
    .from(smsStatusEvents)
    .where(and(eq(smsStatusEvents.assistantId, assistantId), eq(smsStatusEvents.providerSid, providerSid)))
    .orderBy(smsStatusEvents.receivedAt);
}

/** Messages of an assistant's SMS conversations since `since`, per UTC day and direction (db/message-volume.ts). */
export async function messageCountsByDay(db: Executor, assistant: Ref, since: Date) {
  return queryRows<{ day: string; inbound: number; outbound: number }>(
    db,
    sql`select to_char(m.created_at at time zone 'UTC', 'YYYY-MM-DD') as day,
               ${messageVolume}
        from conversations c join messages m on m.conversation_id = c.id
        where c.workspace_id = ${assistant.workspaceId} and c.assistant_id = ${assistant.id} and c.channel = 'sms'
          and m.created_at >= ${at(since)}
        group by 1 order by 1`,
  );
}

/** Distinct customer numbers with a session active in the period, and sessions active now. */
export async function sessionCounts(db: Executor, assistant: Ref, since: Date, when: Date) {
  const [row] = await queryRows<{ unique_contacts: number; active_sessions: number }>(
    db,
    sql`select count(distinct s.phone_number) filter (where s.last_message_at >= ${at(since)})::int as unique_contacts,
               count(*) filter (where s.status = 'active'
                 and s.last_message_at + make_interval(mins => coalesce(c.session_timeout_minutes, 30)) > ${at(when)})::int
                 as active_sessions
        from sms_sessions s left join sms_configs c on c.assistant_id = s.assistant_id
        where s.workspace_id = ${assistant.workspaceId} and s.assistant_id = ${assistant.id}`,
  );
  return { uniqueContacts: row?.unique_contacts ?? 0, activeSessions: row?.active_sessions ?? 0 };
}

/** Where an agent's reply in `conversationId` goes: the customer's number and the base URL last used. */
export async function lastInboundOf(db: Executor, workspaceId: string, conversationId: string) {
  const [row] = await db
    .select({ fromNumber: smsInbound.fromNumber, publicBase: smsInbound.publicBase })
    .from(smsInbound)
    .where(and(eq(smsInbound.workspaceId, workspaceId), eq(smsInbound.conversationId, conversationId)))
    .orderBy(desc(smsInbound.receivedAt))
    .limit(1);
  return row;
}
