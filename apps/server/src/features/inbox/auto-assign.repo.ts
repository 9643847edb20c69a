import { and, asc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { conversations, inboxSettings, memberships } from '../../db/schema/index.ts';
import type { ConversationRow } from '../conversations/conversations.repo.ts';

/** The SQL of auto-assignment (docs/inbox.md "Auto-assignment"). */

/**
 * Holds the workspace's assignment lock until the transaction ends: one assigner at a time per
 * workspace, in every process, so counts read under it stay true until it commits.
 */
export async function lockAssignments(tx: Executor, workspaceId: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`parley:assign:${workspaceId}`}, 0))`);
}

export type Candidate = { userId: string; open: number; lastAssignedAt: Date | null };

/**
 * Who can take a conversation now: owners, admins and members `online`, with the inbox's stream
 * open or closed after `presentSince`, and how many conversations in `handoff` each holds.
 */
export async function candidates(
  tx: Executor,
  workspaceId: string,
  presentSince: Date,
): Promise<Candidate[]> {
  const open = sql<number>`(
    select count(*)::int from ${conversations} c
    where c.workspace_id = ${memberships.workspaceId} and c.assignee_id = ${memberships.userId}
      and c.status = 'handoff'
  )`;
  return tx
    .select({ userId: memberships.userId, open, lastAssignedAt: memberships.lastAssignedAt })
    .from(memberships)
    .where(
      and(
        eq(memberships.workspaceId, workspaceId),
        inArray(memberships.role, ['owner', 'admin', 'member']),
        eq(memberships.availability, 'online'),
        gt(memberships.inboxSeenAt, presentSince),
      ),
    )
    .orderBy(asc(memberships.joinedAt), asc(memberships.userId));
}

/**
 * Up to `limit` conversations waiting for a person, longest waiting first, locked: `handoff`, no
 * assignee, none held by a person. A row another transaction holds is waited for and then read
 * again, so one a person assigned meanwhile drops out.
 */
export async function lockWaiting(
  tx: Executor,
  workspaceId: string,
  limit: number,
): Promise<ConversationRow[]> {
  return tx
    .select()
    .from(conversations)
    .where(
      and(
        eq(conversations.workspaceId, workspaceId),
        eq(conversations.status, 'handoff'),
        isNull(conversations.assigneeId),
        eq(conversations.assignmentHeld, false),
      ),
    )
    .orderBy(asc(conversations.waitingSince), asc(conversations.id))
    .limit(limit)
    .for('update');
}

/** The workspaces with auto-assignment on and a conversation waiting (the sweep's work). */
export async function workspacesWaiting(db: Executor, limit: number): Promise<string[]> {
  const rows = await db
    .select({ workspaceId: inboxSettings.workspaceId })
    .from(inboxSettings)
    .where(
      and(
        eq(inboxSettings.autoAssign, true),
        sql`exists (select 1 from ${conversations} c where c.workspace_id = ${inboxSettings.workspaceId}
          and c.status = 'handoff' and c.assignee_id is null and not c.assignment_held)`,
      ),
    )
    .orderBy(asc(inboxSettings.workspaceId))
    .limit(limit);
  return rows.map((r) => r.workspaceId);
}
