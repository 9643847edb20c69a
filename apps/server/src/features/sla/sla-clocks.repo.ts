import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { conversations, type SlaBreach } from '../../db/schema/index.ts';
import type { ConversationRow } from '../conversations/conversations.repo.ts';

/** The SQL of the SLA clocks (docs/sla.md "Clocks"). */

const kindBreached = (kind: string) => sql`sla_breaches @> ${JSON.stringify([{ kind }])}::jsonb`;

/**
 * Up to `limit` conversations in `handoff` under a policy with a clock run out and not recorded,
 * or a customer waiting whose next-response time is not set yet, locked (others' skipped): the
 * breach job's claim across workspaces.
 */
export async function claimDueClocks(tx: Executor, at: Date, limit: number): Promise<ConversationRow[]> {
  const t = sql`${at.toISOString()}::timestamptz`;
  return (await tx
    .select()
    .from(conversations)
    .where(
      and(
        sql`sla_policy_id is not null and status = 'handoff'`,
        sql`(
          (sla_first_due_at <= ${t} and not ${kindBreached('first_response')})
          or (sla_resolution_due_at <= ${t} and not ${kindBreached('resolution')})
          or (sla_next_due_at <= ${t} and not exists (
                select 1 from jsonb_array_elements(sla_breaches) b
                 where b->>'kind' = 'next_response' and (b->>'at')::timestamptz >= sla_waiting_since))
          or (sla_waiting_since is not null and sla_next_due_at is null and exists (
                select 1 from sla_policies p
                 where p.id = sla_policy_id and p.next_response_minutes is not null))
        )`,
      ),
    )
    .limit(limit)
    .for('update', { skipLocked: true })) as ConversationRow[];
}

/** Saves a conversation's next-response time and breaches. */
export async function saveClocks(
  tx: Executor,
  c: { workspaceId: string; id: string },
  set: { slaNextDueAt: Date | null; slaWaitingSince: Date | null; slaBreaches: SlaBreach[] },
): Promise<ConversationRow> {
  const [row] = await tx
    .update(conversations)
    .set(set)
    .where(and(eq(conversations.workspaceId, c.workspaceId), eq(conversations.id, c.id)))
    .returning();
  return row as ConversationRow;
}
