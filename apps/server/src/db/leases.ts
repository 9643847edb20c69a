import { sql } from 'drizzle-orm';
import { type Executor, queryRows } from './client.ts';

/** A time as PostgreSQL's timestamptz. */
export const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/**
 * The outboxes of the channels that send one stored message each (email_messages, sms_outbound):
 * which table, and the column saying whether a send is still pending.
 */
export type Outbox = { table: 'email_messages' | 'sms_outbound'; state: 'delivery_state' | 'state' };

/**
 * Claims up to `limit` due sends of an outbox, oldest due first: their next attempt moves to
 * `leaseUntil`, so a process that dies mid-send leaves them to be tried again then, and
 * `skip locked` keeps two processes from taking the same one (docs/jobs.md).
 */
export function claimDueSends(db: Executor, outbox: Outbox, limit: number, when: Date, leaseUntil: Date) {
  const table = sql.identifier(outbox.table);
  const state = sql.identifier(outbox.state);
  return queryRows<{ message_id: string }>(
    db,
    sql`update ${table} set next_attempt_at = ${at(leaseUntil)}, attempts = attempts + 1
        where message_id in (
          select message_id from ${table}
          where ${state} = 'pending' and next_attempt_at <= ${at(when)}
          order by next_attempt_at
          limit ${limit}
          for update skip locked)
        returning message_id`,
  );
}
