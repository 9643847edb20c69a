import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { preparedFor } from '../../db/prepared.ts';
import { memberships, workspaces } from '../../db/schema/index.ts';

const planColumns = {
  id: workspaces.id,
  plan: workspaces.plan,
  trialEndsAt: workspaces.trialEndsAt,
  billingStatus: workspaces.billingStatus,
  monthlyCredits: workspaces.monthlyCredits,
};

// The tenant guard runs on every workspace request: prepared once (db/prepared.ts).
const membershipWithPlan = preparedFor((db) =>
  db
    .select({ ...planColumns, role: memberships.role })
    .from(memberships)
    .innerJoin(workspaces, eq(workspaces.id, memberships.workspaceId))
    .where(
      and(
        eq(memberships.workspaceId, sql.placeholder('workspaceId')),
        eq(memberships.userId, sql.placeholder('userId')),
      ),
    )
    .limit(1)
    .prepare('parley_membership_with_plan'),
);

export async function findMembershipWithPlan(db: Executor, workspaceId: string, userId: string) {
  const [row] = await membershipWithPlan(db).execute({ workspaceId, userId });
  return row;
}

const workspacePlan = preparedFor((db) =>
  db
    .select(planColumns)
    .from(workspaces)
    .where(eq(workspaces.id, sql.placeholder('workspaceId')))
    .limit(1)
    .prepare('parley_workspace_plan'),
);

export async function findWorkspacePlan(db: Executor, workspaceId: string) {
  const [row] = await workspacePlan(db).execute({ workspaceId });
  return row;
}

export async function firstMembershipWorkspaceIds(db: Executor, userId: string, limit: number) {
  const rows = await db
    .select({ workspaceId: memberships.workspaceId })
    .from(memberships)
    .where(eq(memberships.userId, userId))
    .limit(limit);
  return rows.map((r) => r.workspaceId);
}
